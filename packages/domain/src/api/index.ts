export * from './endpoint.ts';
export * from './contract.ts';
