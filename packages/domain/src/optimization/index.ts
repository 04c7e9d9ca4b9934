export * from './params.ts';
export * from './constraint.ts';
export * from './space.ts';
export * from './normal.ts';
export * from './overfitting.ts';
export * from './walkForward.ts';
export * from './verdict.ts';
export * from './api.ts';
