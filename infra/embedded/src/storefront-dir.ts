import path from 'node:path';

/** The storefront's build output, found through its package (no relative paths across packages). */
export function storefrontDist(): string {
  return path.join(path.dirname(require.resolve('@persona/storefront/package.json')), 'dist');
}
