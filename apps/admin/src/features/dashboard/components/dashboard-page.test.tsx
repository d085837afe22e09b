// The dashboard's failed-Personas tile: how many paid orders have no Persona, leading to those
// orders (where Retry is), standing out only while there is one.
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { dashboardLinks } from '../lib/dashboard-links';
import { FailedPersonasStat } from './dashboard-page';

const tile = (count: number) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <FailedPersonasStat count={count} to={dashboardLinks('2026-03-01').failedPersonas} />
    </MemoryRouter>,
  );

describe('the failed Personas tile', () => {
  it('stands out while a paid order has no Persona, and leads to those orders', () => {
    const html = tile(1);
    expect(html).toContain('class="stat stat--alert"');
    expect(html).toContain('href="/orders?persona=failed"');
    expect(html).toContain('<span class="stat__label">Failed Personas</span>');
    expect(html).toContain('<span class="stat__value">1</span>');
    expect(html).toContain('Paid, not made: open to retry');
  });

  it('is quiet when there is none', () => {
    const html = tile(0);
    expect(html).toContain('class="stat"');
    expect(html).not.toContain('stat--alert');
    expect(html).toContain('<span class="stat__value">0</span>');
    expect(html).toContain('None to retry');
  });

  it('writes a large count as the shop reads numbers', () => {
    expect(tile(12345)).toContain('<span class="stat__value">12,345</span>');
  });
});
