export * from './messages.ts';
export * from './fields.ts';
export * from './issues.ts';
