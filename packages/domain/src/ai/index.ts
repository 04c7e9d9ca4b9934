export * from './providers.ts';
export * from './settings.ts';
export * from './chat.ts';
export * from './prompt.ts';
export * from './evaluation.ts';
export * from './tasks.ts';
export * from './lifecycle.ts';
