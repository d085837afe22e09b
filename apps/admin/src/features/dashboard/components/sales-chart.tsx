// Revenue per day as bars: an SVG that stretches to any width (no text inside it, so nothing is
// squeezed on a phone), its value lines and day names in HTML. Screen readers get the chart's
// name and a sentence of what it shows; everyone can open the day-by-day table, each day
// linking to its orders.
import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { SalesDay } from '@persona/contracts';
import { formatDate, formatRupees } from '../../../lib/format';
import { salesChart } from '../lib/sales-chart';

const AXIS = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', notation: 'compact', maximumFractionDigits: 1 });
const DAY = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayName = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`));
const ordersText = (n: number) => `${n.toLocaleString('en-IN')} ${n === 1 ? 'order' : 'orders'}`;

export function SalesChart({ days, dayLink }: { days: readonly SalesDay[]; dayLink: (date: string) => string }) {
  const chart = salesChart(days);
  const ids = { title: useId(), summary: useId() };
  const first = days[0];
  const last = days.at(-1);
  const summary =
    first && last
      ? chart.best
        ? `${formatRupees(chart.total.revenue)} from ${ordersText(chart.total.orders)} between ${formatDate(first.date)} and ${formatDate(last.date)}; the best day was ${formatDate(chart.best.date)} with ${formatRupees(chart.best.revenue)}.`
        : `No paid orders between ${formatDate(first.date)} and ${formatDate(last.date)}.`
      : '';

  return (
    <figure className="sales-chart">
      <figcaption id={ids.title} className="section-title">
        Revenue per day, last {days.length} days
      </figcaption>
      <div className="sales-chart__frame">
        <ul className="sales-chart__values" aria-hidden="true">
          {chart.ticks.map((tick) => (
            <li key={tick.value} style={{ bottom: `${tick.at}%` }}>
              {AXIS.format(tick.value)}
            </li>
          ))}
        </ul>
        <div className="sales-chart__plot">
          <svg viewBox="0 0 100 100" preserveAspectRatio="none" role="img" aria-labelledby={ids.title} aria-describedby={ids.summary}>
            {chart.ticks.map((tick) => (
              <line key={tick.value} className="sales-chart__line" x1="0" x2="100" y1={100 - tick.at} y2={100 - tick.at} vectorEffect="non-scaling-stroke" />
            ))}
            {chart.bars.map((bar) => (
              <rect key={bar.date} className="sales-chart__bar" x={bar.x} width={bar.width} y={100 - bar.height} height={bar.height}>
                <title>{`${formatDate(bar.date)}: ${formatRupees(bar.revenue)} from ${ordersText(bar.orders)}`}</title>
              </rect>
            ))}
          </svg>
          <ol className="sales-chart__days" aria-hidden="true">
            {chart.labels.map((label) => (
              <li key={label.date} className={label.minor ? 'sales-chart__day--minor' : undefined} style={{ left: `${label.at}%` }}>
                {dayName(label.date)}
              </li>
            ))}
          </ol>
        </div>
      </div>
      <p id={ids.summary} className="sales-chart__summary">
        {summary}
      </p>
      <details className="sales-chart__table">
        <summary>Show the numbers</summary>
        <div className="table-wrap" role="region" aria-label="Revenue per day" tabIndex={0}>
          <table className="data-table">
            <caption className="visually-hidden">Paid orders and revenue per day, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Orders</th>
                <th scope="col">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((day) => (
                <tr key={day.date}>
                  <th scope="row">
                    <Link to={dayLink(day.date)}>{formatDate(day.date)}</Link>
                  </th>
                  <td>{day.orders.toLocaleString('en-IN')}</td>
                  <td>{formatRupees(day.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
