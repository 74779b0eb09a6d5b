export * from './schema.ts';
export * from './rules.ts';
export * from './domains.ts';
