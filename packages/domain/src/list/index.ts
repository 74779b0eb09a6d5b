export * from './schema.ts';
export * from './ranged-list.ts';
export * from './export.ts';
export * from './declare.ts';
