// The folders (and top files) of apps/server/src in tiers, lowest first: storage and HTTP
// plumbing, then the feature modules in the order they build on each other, then the
// configuration that composes the modules' settings, the app that composes the modules, and
// the process entry points. A folder imports only folders of lower tiers (never its own
// tier's other folders, never a higher tier), so the folders cannot form a cycle. What two
// folders of one tier share moves down to a lower tier. Tests and their support
// (`src/test/`, `src/hardening/`, `*.test.ts`) are left out: they assemble the whole app.
export const SERVER_TIERS = [
  ['db', 'http', 'lifecycle'],
  ['modules/gateway', 'modules/jobs', 'modules/users'],
  ['modules/auth'],
  ['modules/charts', 'modules/market'],
  ['modules/alerts', 'modules/backtest'],
  ['modules/health', 'modules/strategy', 'workers'],
  ['modules/ai', 'modules/optimization', 'modules/trading'],
  ['modules/cluster', 'modules/live-runs', 'modules/notifications'],
  ['modules/replays'],
  ['config.ts'],
  ['app.ts', 'cli'],
  ['main.ts'],
];

/** Where tests keep what they share; production code never imports it. */
export const SERVER_TEST_SUPPORT = ['test', 'hardening'];

/** The zones of import-x/no-restricted-paths that enforce SERVER_TIERS under `srcDir`. */
export function serverTierZones(srcDir) {
  const tiers = SERVER_TIERS.flatMap((tier, index) =>
    tier.map((folder) => ({
      target: `${srcDir}/${folder}`,
      from: SERVER_TIERS.slice(index)
        .flat()
        .filter((other) => other !== folder)
        .map((other) => `${srcDir}/${other}`),
      message: `${folder} may import only lower tiers (apps/server/boundaries.js)`,
    })),
  ).filter((zone) => zone.from.length > 0);
  const testSupport = {
    target: srcDir,
    from: SERVER_TEST_SUPPORT.map((folder) => `${srcDir}/${folder}`),
    message: 'production code never imports test support (apps/server/src/test/)',
  };
  return [...tiers, testSupport];
}
