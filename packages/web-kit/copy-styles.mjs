// tsc leaves stylesheets behind: copy every .css under src/ into dist/ at the same place.
import { cpSync } from 'node:fs';

cpSync('src', 'dist', { recursive: true, filter: (source) => !/\.(ts|tsx)$/.test(source) });
