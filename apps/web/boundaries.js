// The folders of apps/web/src in tiers, lowest first. A folder imports only folders of lower
// tiers (never its own tier's other folders, never a higher tier), so the folders cannot
// form a cycle. What two folders of one tier share moves down to a lower tier (shared/, or
// market/ for the instrument catalogue). Tests are left out: they assemble the whole app.
export const WEB_TIERS = [
  ['i18n'],
  ['shared'],
  ['api'],
  ['realtime', 'market'],
  ['features/auth'],
  ['features/accounts', 'features/trading', 'features/performance', 'features/notifications'],
  ['features/profile', 'features/strategy'],
  ['features/assistant'],
  ['features/aiTasks', 'features/live-runs', 'features/alerts', 'features/replay'],
  ['features/chart'],
  ['features/workspace'],
  ['app'],
];

/** The zones of import-x/no-restricted-paths that enforce WEB_TIERS under `srcDir`. */
export function webTierZones(srcDir) {
  return WEB_TIERS.flatMap((tier, index) =>
    tier.map((folder) => ({
      target: `${srcDir}/${folder}`,
      from: WEB_TIERS.slice(index)
        .flat()
        .filter((other) => other !== folder)
        .map((other) => `${srcDir}/${other}`),
      message: `${folder} may import only lower tiers (apps/web/boundaries.js)`,
    })),
  ).filter((zone) => zone.from.length > 0);
}
