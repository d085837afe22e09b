// One description of an e-mail, written out twice: as plain text and as HTML, so the two parts
// always say the same. The HTML is a single centred column with inline styles (what mail
// programs render alike), every value escaped. On a phone (390 px wide) nothing may be wider
// than the screen: an address is never shown as visible text in the HTML (a button or a short
// link text carries it; the text part has to spell it out), and a long word breaks.

/** A link: what the reader sees, and where it goes. */
export interface EmailLink {
  label: string;
  url: string;
}

/** A fact's value: words, or a short link text (the address is in the text part only). */
export type FactValue = string | EmailLink;

/** A picture in the e-mail (the book's cover, a dedication page): absolute address, its words for those who see no picture. */
export interface EmailImage {
  url: string;
  alt: string;
  /** How wide it shows, CSS pixels (it shrinks to the column on a narrower screen). */
  width: number;
}

export interface EmailBody {
  /** The greeting line, e.g. "Dear Asha,". */
  greeting: string;
  heading: string;
  paragraphs: readonly string[];
  /** Pictures, side by side when there is room, after the paragraphs (HTML only; the text part names nothing it cannot show). */
  images?: readonly EmailImage[];
  /** Label and value pairs, shown as a table. */
  facts?: ReadonlyArray<readonly [string, FactValue]>;
  /** What to do, as buttons, the first the main one (and as links in the text part). */
  actions?: readonly EmailLink[];
  /** After the actions: what happens next. */
  after?: readonly string[];
  /** The shop's signature and contact lines. */
  footer: readonly string[];
  /** The shop's address, linked under the footer by its name. */
  shopUrl?: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const factText = (value: FactValue) => (typeof value === 'string' ? value : `${value.label}: ${value.url}`);

export function emailText(body: EmailBody): string {
  const width = Math.max(0, ...(body.facts ?? []).map(([label]) => label.length));
  return [
    body.greeting,
    '',
    body.heading,
    '',
    ...body.paragraphs.flatMap((p) => [p, '']),
    ...(body.facts?.length ? [...body.facts.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${factText(value)}`), ''] : []),
    ...(body.actions ?? []).flatMap((action) => [`${action.label}: ${action.url}`, '']),
    ...(body.after ?? []).flatMap((p) => [p, '']),
    '--',
    ...body.footer,
    ...(body.shopUrl ? [body.shopUrl] : []),
  ].join('\n');
}

/** Long words (an e-mail address, a Persona ID, a book's title) break rather than widen the column. */
const BREAK = 'overflow-wrap:anywhere;word-break:break-word';
const link = (to: EmailLink, style = 'color:#4f46e5') => `<a href="${escapeHtml(to.url)}" style="${style}">${escapeHtml(to.label)}</a>`;

export function emailHtml(body: EmailBody): string {
  const p = (text: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(text)}</p>`;
  const images = body.images?.length
    ? `<p style="margin:0 0 20px;text-align:center">${body.images
        .map(
          (image) =>
            `<img src="${escapeHtml(image.url)}" alt="${escapeHtml(image.alt)}" width="${image.width}" style="display:inline-block;width:${image.width}px;max-width:100%;height:auto;margin:0 4px 8px;border:1px solid #e4e4e7;border-radius:6px;vertical-align:top">`,
        )
        .join('')}</p>`
    : '';
  const facts = body.facts?.length
    ? `<table role="presentation" style="width:100%;border-collapse:collapse;table-layout:fixed;margin:0 0 20px">${body.facts
        .map(
          ([label, value]) =>
            `<tr><td style="width:34%;padding:8px 12px 8px 0;font-size:15px;border-bottom:1px solid #e4e4e7;color:#52525b;vertical-align:top;${BREAK}">${escapeHtml(label)}</td>` +
            `<td style="padding:8px 0;border-bottom:1px solid #e4e4e7;font-size:15px;font-weight:600;text-align:right;${BREAK}">${typeof value === 'string' ? escapeHtml(value) : link(value)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const actions = body.actions?.length
    ? `<p style="margin:0 0 20px">${body.actions
        .map((action, i) =>
          link(
            action,
            `display:inline-block;margin:0 8px 8px 0;padding:12px 20px;border-radius:8px;font-weight:700;text-decoration:none;${
              i === 0 ? 'background:#4f46e5;color:#ffffff' : 'background:#ffffff;color:#4f46e5;border:2px solid #4f46e5;padding:10px 18px'
            }`,
          ),
        )
        .join('')}</p>`
    : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>',
    `<body style="margin:0;padding:16px 8px;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b;${BREAK}">`,
    '<div style="max-width:560px;margin:0 auto;padding:24px 16px;background:#ffffff;border-radius:12px">',
    `<p style="margin:0 0 20px;font-weight:700;color:#4f46e5">Persona Books</p>`,
    p(body.greeting),
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${escapeHtml(body.heading)}</h1>`,
    ...body.paragraphs.map(p),
    images,
    facts,
    actions,
    ...(body.after ?? []).map(p),
    `<hr style="border:0;border-top:1px solid #e4e4e7;margin:24px 0 16px">`,
    ...body.footer.map((line) => `<p style="margin:0 0 4px;font-size:13px;color:#52525b">${escapeHtml(line)}</p>`),
    ...(body.shopUrl ? [`<p style="margin:0 0 4px;font-size:13px">${link({ label: 'Visit Persona Books', url: body.shopUrl })}</p>`] : []),
    '</div></body></html>',
  ].join('\n');
}
