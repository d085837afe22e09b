import { ordersCsv, ORDERS_CSV_HEADER } from './orders-csv';

const lines = (csv: string) => csv.replace(/\r\n$/, '').split('\r\n');

describe('orders.csv (spec §9)', () => {
  it('has the spec columns and one numbered row per order', () => {
    const csv = ordersCsv([
      { _id: 'a1', fullName: 'Asha Rao', book: { title: 'The Quiet Garden' }, deliveryType: 'digital', deliveryStatus: 'shipped' },
      { _id: 'b2', fullName: 'Ravi', book: { title: 'Monsoon Letters' }, deliveryType: 'physical', deliveryStatus: 'delivered' },
    ]);
    expect(lines(csv)).toEqual([ORDERS_CSV_HEADER.join(','), '1,Asha Rao,The Quiet Garden,digital,shipped,a1', '2,Ravi,Monsoon Letters,physical,delivered,b2']);
  });

  it('fills missing values with Unknown, Untitled, N/A and pending', () => {
    expect(lines(ordersCsv([{ _id: 'c3', book: null }]))[1]).toBe('1,Unknown,Untitled,N/A,pending,c3');
    expect(lines(ordersCsv([{ _id: 'd4', fullName: '  ', book: { title: '' } }]))[1]).toBe('1,Unknown,Untitled,N/A,pending,d4');
  });

  it('quotes commas, quotes and line breaks, and defuses spreadsheet formulas', () => {
    const row = lines(ordersCsv([{ _id: 'e5', fullName: '=HYPERLINK("x")', book: { title: 'Tea, "Two" Ways' }, deliveryType: 'digital', deliveryStatus: 'pending' }]))[1];
    expect(row).toBe(`1,"'=HYPERLINK(""x"")","Tea, ""Two"" Ways",digital,pending,e5`);
  });
});
