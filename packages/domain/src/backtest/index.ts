export * from './dates.ts';
export * from './contract.ts';
export * from './metrics.ts';
export * from './schemas.ts';
export * from './strategyVersions.ts';
export * from './bars.ts';
export * from './answers.ts';
export * from './feeds.ts';
