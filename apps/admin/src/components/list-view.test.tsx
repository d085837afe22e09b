// The list states every admin list page shows, rendered as the server would.
import { renderToStaticMarkup } from 'react-dom/server';
import { DataTable, ListView } from './list-view';

type Page = { data: string[] };
const reload = () => undefined;
const view = (list: Parameters<typeof ListView<Page>>[0]['list']) =>
  renderToStaticMarkup(
    <ListView list={list} what="Orders" loading="Loading orders..." empty="No orders yet.">
      {(answer) => (
        <DataTable caption="Orders, newest first" columns={['Book', 'Date']}>
          {answer.data.map((title) => (
            <tr key={title}>
              <td>{title}</td>
              <td>today</td>
            </tr>
          ))}
        </DataTable>
      )}
    </ListView>,
  );

describe('ListView', () => {
  it('says it is loading, names a failure with a retry, and says when there is nothing', () => {
    expect(view({ status: 'loading', data: undefined, error: undefined, reload })).toContain('Loading orders...');
    const failed = view({ status: 'error', data: undefined, error: new Error('boom'), reload });
    expect(failed).toContain('Orders');
    expect(failed).toMatch(/<button[^>]*>[^<]*(Retry|Try again)/i);
    expect(view({ status: 'success', data: { data: [] }, error: undefined, reload })).toBe('<p class="empty-text">No orders yet.</p>');
  });

  it('shows the rows in a captioned table with a header row', () => {
    const html = view({ status: 'success', data: { data: ['Gitanjali', 'Godaan'] }, error: undefined, reload });
    expect(html).toContain('<caption class="visually-hidden">Orders, newest first</caption>');
    // The box it scrolls in on a phone is a named, focusable region (a keyboard scrolls it).
    expect(html).toContain('<div class="table-wrap" role="region" aria-label="Orders, newest first" tabindex="0">');
    expect(html).toContain('<th scope="col">Book</th><th scope="col">Date</th>');
    expect(html.match(/<tr>/g)).toHaveLength(3);
  });
});
