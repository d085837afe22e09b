import path from 'node:path';

/** The storefront's build output, found through its package (no relative paths across packages). */
export function storefrontDist(): string {
  return path.join(path.dirname(require.resolve('@persona/storefront/package.json')), 'dist');
}

/** The admin app's build output, found the same way. */
export function adminAppDist(): string {
  return path.join(path.dirname(require.resolve('@persona/admin-app/package.json')), 'dist');
}
