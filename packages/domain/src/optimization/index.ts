export * from './params.ts';
export * from './constraint.ts';
export * from './space.ts';
