export * from './endpoint.ts';
export * from './contract.ts';
export * from './links.ts';
