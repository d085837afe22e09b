// The admin app and the storefront are separate builds: neither bundle carries the other's code.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

function bundle(pkg: string): string {
  const dist = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'dist');
  const assets = path.join(dist, 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(path.join(assets, name), 'utf8'))
    .join('\n');
}

// Texts only one app has (spec §2, §8), as they appear in its compiled code.
const STOREFRONT_ONLY = ['Complete Purchase - ', 'Your Persona is Ready!', 'Trial Version', 'Buy Persona - No Ads'];
// The dashboard's chart among them: charts never reach the storefront.
const ADMIN_ONLY = ['Category Management', 'Order Dashboard', 'Manage Feedbacks', 'Are you sure you want to delete this book?', 'Revenue per day, last '];

describe('the two React apps', () => {
  const storefront = bundle('@persona/storefront');
  const admin = bundle('@persona/admin-app');

  it('each carry their own screens', () => {
    for (const text of STOREFRONT_ONLY) expect({ text, inStorefront: storefront.includes(text) }).toEqual({ text, inStorefront: true });
    for (const text of ADMIN_ONLY) expect({ text, inAdmin: admin.includes(text) }).toEqual({ text, inAdmin: true });
  });

  it("never bundle the other app's code", () => {
    for (const text of ADMIN_ONLY) expect({ text, inStorefront: storefront.includes(text) }).toEqual({ text, inStorefront: false });
    for (const text of STOREFRONT_ONLY) expect({ text, inAdmin: admin.includes(text) }).toEqual({ text, inAdmin: false });
  });

  it('are served from different places: the admin under /admin/', () => {
    const adminIndex = readFileSync(path.join(path.dirname(require.resolve('@persona/admin-app/package.json')), 'dist', 'index.html'), 'utf8');
    expect(adminIndex).toMatch(/src="\/admin\/assets\/index-[\w-]+\.js"/);
    const storefrontIndex = readFileSync(path.join(path.dirname(require.resolve('@persona/storefront/package.json')), 'dist', 'index.html'), 'utf8');
    // The storefront's entry starts after the first paint: named by the inline loader, not a <script src>.
    expect(storefrontIndex).toMatch(/data-entry="\/assets\/index-[\w-]+\.js"/);
  });
});
