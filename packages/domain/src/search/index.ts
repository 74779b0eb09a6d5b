export * from './schema.ts';
export * from './rules.ts';
