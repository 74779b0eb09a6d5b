export * from './constants.ts';
export * from './errors.ts';
export * from './validation/index.ts';
export * from './permissions/index.ts';
export * from './project/index.ts';
export * from './issuer/index.ts';
export * from './session/index.ts';
export * from './api/index.ts';
