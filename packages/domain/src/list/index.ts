export * from './schema.ts';
export * from './ranged-list.ts';
