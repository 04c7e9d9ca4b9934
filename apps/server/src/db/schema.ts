// The whole database schema, one module per area; drizzle-kit reads this file.
export * from './schema/identity.ts';
export * from './schema/market.ts';
export * from './schema/trading.ts';
export * from './schema/strategy.ts';
export * from './schema/ai.ts';
export * from './schema/charts.ts';
export * from './schema/live-runs.ts';
export * from './schema/jobs.ts';
export * from './schema/optimization.ts';
export * from './schema/notifications.ts';
export * from './schema/alerts.ts';
export * from './schema/replays.ts';
