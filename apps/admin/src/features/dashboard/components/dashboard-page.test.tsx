// The dashboard's failed-Personas tile: how many paid orders have no Persona, leading to those
// orders (where Retry is), standing out only while there is one.
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { dashboardLinks } from '../lib/dashboard-links';
import { FailedPersonasStat, LivePaymentsRefused, RecentOrderRow } from './dashboard-page';

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

describe('the latest orders', () => {
  it("open each order's page from its book", () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <table>
          <tbody>
            <RecentOrderRow
              order={{
                _id: '0b5e7c1e-2f7a-4d59-9a55-4f0f3d2c9a11',
                book: { _id: 'b1', title: 'The Lighthouse', author: 'A. Keeper' },
                fullName: 'Anaswara Nair',
                email: 'anaswara@example.com',
                deliveryType: 'physical',
                deliveryStatus: 'pending',
                personaStatus: 'ready',
                createdAt: '2026-11-20T10:00:00.000Z',
              }}
            />
          </tbody>
        </table>
      </MemoryRouter>,
    );
    expect(html).toContain('href="/orders/0b5e7c1e-2f7a-4d59-9a55-4f0f3d2c9a11" data-discover="true">The Lighthouse</a>');
    expect(html).toContain('<td>Pending</td>');
  });
});

describe('live payments refused', () => {
  const reason =
    "Live payments are refused: PUBLIC_URL is not set to the shop's public address (PUBLIC_URL (http://localhost:8080) is a local address that buyers cannot reach). Set PUBLIC_URL and restart the shop.";

  it("says why, as an alert, in the orders service's words", () => {
    const html = renderToStaticMarkup(<LivePaymentsRefused reason={reason} />);
    expect(html).toContain('class="dashboard-warning" role="alert"');
    expect(html).toContain('The shop cannot take payments');
    expect(html).toContain('Live payments are refused: PUBLIC_URL is not set to the shop&#x27;s public address');
  });

  it('is absent while the shop sells', () => {
    expect(renderToStaticMarkup(<LivePaymentsRefused reason={null} />)).toBe('');
  });
});
