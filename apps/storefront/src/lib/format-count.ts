// Counts as an Indian reader writes them ("1,00,016 books"); Intl gives the browser and the
// server's render the same text.
const COUNT = new Intl.NumberFormat('en-IN');

export function formatCount(n: number): string {
  return COUNT.format(n);
}
