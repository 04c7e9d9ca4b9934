export * from './drawings.ts';
export * from './measure.ts';
