export * from './providers.ts';
export * from './settings.ts';
export * from './chat.ts';
