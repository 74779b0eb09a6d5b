export * from './periods.ts';
export * from './schema.ts';
