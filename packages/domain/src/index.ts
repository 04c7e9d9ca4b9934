export * from './api/codes.ts';
export * from './api/envelope.ts';
export * from './identity/schemas.ts';
export * from './identity/validation.ts';
export * from './identity/accounts.ts';
export * from './format/datetime.ts';
