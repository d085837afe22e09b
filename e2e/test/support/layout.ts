// What a person sees as broken in a laid-out page, measured in the browser: a page wider than
// the window (sideways scrolling), elements sticking out of the window, images drawn outside
// the box that holds them, text drawn in a font the page did not ask for (an empty box where a
// glyph is missing is what a missing emoji font gives), and radio buttons or checkboxes blown up
// by a rule meant for text fields.
import type { Page } from 'playwright-core';

export interface LayoutReport {
  width: number;
  scrollWidth: number;
  /** Elements whose box reaches past the window's right edge (innermost first, at most 8). */
  overflowing: string[];
  /** Images whose drawn box leaves the element that clips or holds them. */
  imagesOutside: string[];
  /** Text nodes with a character drawn as an emoji (no font we ship has them; © and ✓ are text and fine). */
  emoji: string[];
  /** Radio buttons and checkboxes drawn larger than a finger's target (a rule for text fields stretched them). */
  oversizedChoices: string[];
}

export async function layoutReport(page: Page): Promise<LayoutReport> {
  return page.evaluate(() => {
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${id}${cls}`;
    };
    const width = document.documentElement.clientWidth;
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      return style.display !== 'none' && style.visibility !== 'hidden' && !el.closest('[hidden], dialog:not([open])');
    };
    // Inside a box that scrolls sideways on its own (a wide table), sticking out is by design.
    const scrollsItself = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') return true;
      }
      return false;
    };
    const overflowing: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!visible(el) || scrollsItself(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1 && ![...el.children].some((c) => c.getBoundingClientRect().right > width + 1))
        overflowing.push(`${describe(el)} (right ${Math.round(r.right)})`);
    }
    // A page that scrolls sideways with nothing reported above: name the outermost wide boxes.
    if (document.documentElement.scrollWidth > width && overflowing.length === 0) {
      for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (visible(el) && r.right > width + 1 && el.parentElement && el.parentElement.getBoundingClientRect().right <= width + 1)
          overflowing.push(`${describe(el)} (right ${Math.round(r.right)}, in ${describe(el.parentElement)})`);
      }
    }
    const imagesOutside: string[] = [];
    for (const img of document.querySelectorAll('img')) {
      if (!visible(img)) continue;
      const box = img.parentElement;
      if (!box) continue;
      const r = img.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      const clipped = getComputedStyle(box).overflow !== 'visible';
      if (!clipped && (r.top < b.top - 1 || r.bottom > b.bottom + 1 || r.left < b.left - 1 || r.right > b.right + 1))
        imagesOutside.push(`${describe(img)} in ${describe(box)}`);
    }
    const emoji: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (/\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u.test(node.textContent ?? '') && node.parentElement && visible(node.parentElement))
        emoji.push(`${describe(node.parentElement)}: ${node.textContent!.trim().slice(0, 40)}`);
    }
    const oversizedChoices: string[] = [];
    for (const input of document.querySelectorAll('input[type="radio"], input[type="checkbox"]')) {
      const r = input.getBoundingClientRect();
      if (visible(input) && (r.width > 32 || r.height > 32)) oversizedChoices.push(`${describe(input)} (${Math.round(r.width)}×${Math.round(r.height)} px)`);
    }
    return { width, scrollWidth: document.documentElement.scrollWidth, overflowing: overflowing.slice(0, 8), imagesOutside, emoji, oversizedChoices };
  });
}
