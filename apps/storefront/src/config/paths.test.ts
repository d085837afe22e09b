import { STOREFRONT_PAGES } from '@persona/contracts';
import { routePatterns } from './paths';

describe('route table', () => {
  it('matches the pages the gateway answers with 200 (contracts STOREFRONT_PAGES)', () => {
    const pages = Object.values(routePatterns).filter((pattern) => pattern !== '*');
    expect([...pages].sort()).toEqual([...STOREFRONT_PAGES].sort());
  });
});
