export * from './schema.ts';
export * from './user-import.ts';
