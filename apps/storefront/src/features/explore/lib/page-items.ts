// Which page numbers a paged list shows: the first, the last, and a window around the
// current one, with gaps between (1 … 4 5 [6] 7 8 … 4167).
export type PageItem = number | 'gap';

export function pageItems(current: number, pages: number, around = 2): PageItem[] {
  if (pages <= 1) return [];
  const wanted = new Set<number>([1, pages]);
  for (let p = current - around; p <= current + around; p += 1) if (p >= 1 && p <= pages) wanted.add(p);
  const sorted = [...wanted].sort((a, b) => a - b);
  const items: PageItem[] = [];
  for (const [i, p] of sorted.entries()) {
    const previous = sorted[i - 1];
    if (previous !== undefined && p - previous === 2) items.push(previous + 1);
    else if (previous !== undefined && p - previous > 2) items.push('gap');
    items.push(p);
  }
  return items;
}
