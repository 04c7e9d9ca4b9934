export * from './schemas.ts';
export * from './reconcile.ts';
export * from './comparison.ts';
export * from './lifecycle.ts';
