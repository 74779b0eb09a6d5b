export * from './schema.ts';
export * from './rules.ts';
export * from './domains.ts';
export * from './push.ts';
export * from './history.ts';
