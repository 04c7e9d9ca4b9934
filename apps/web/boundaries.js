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

/** The folders of the web features (features/<name>), from WEB_TIERS. */
export const WEB_FEATURES = WEB_TIERS.flat().filter((folder) => folder.startsWith('features/'));

/**
 * The zones of import-x/no-restricted-paths that keep each feature's inside private: from
 * outside a feature, only its public face may be imported, `index.ts` (what other parts may
 * use) and `lazy.ts` (loaders of its parts that load on demand). Dynamic imports count too.
 */
export function featureFaceZones(srcDir) {
  const outside = (feature) => [
    ...WEB_TIERS.flat()
      .filter((other) => other !== feature)
      .map((other) => `${srcDir}/${other}`),
  ];
  return WEB_FEATURES.map((feature) => ({
    target: outside(feature),
    from: `${srcDir}/${feature}`,
    except: ['./index.ts', './lazy.ts'],
    message: `import ${feature} through its index.ts or lazy.ts, not its inside (apps/web/boundaries.js)`,
  }));
}
