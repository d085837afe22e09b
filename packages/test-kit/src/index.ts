export * from './servers';
export * from './tokens';
export * from './chromium';
export * from './pdf-text';
export * from './programs';
export * from './hostile-files';
export * from './fuzz';
export * from './epub-text';
