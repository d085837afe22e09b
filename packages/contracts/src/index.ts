export * from './common';
export * from './money';
export * from './catalogue';
export * from './events';
export * from './routes';
export * from './orders';
export * from './persona-id';
export * from './personas';
