export * from './check.ts';
export * from './catalogue.ts';
export * from './guards.ts';
