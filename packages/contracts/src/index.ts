export * from './common';
export * from './money';
export * from './catalogue';
export * from './events';
export * from './routes';
