export * from './session.ts';
export * from './strategy.ts';
export * from './schemas.ts';
export * from './chart.ts';
export * from './views.ts';
