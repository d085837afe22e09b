export * from './servers';
export * from './tokens';
