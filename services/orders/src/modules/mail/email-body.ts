// One description of an e-mail, written out twice: as plain text and as HTML, so the two parts
// always say the same. The HTML is a single centred column with inline styles (what mail
// programs render alike), every value escaped.

export interface EmailBody {
  /** The greeting line, e.g. "Dear Asha,". */
  greeting: string;
  heading: string;
  paragraphs: readonly string[];
  /** Label and value pairs, shown as a table. */
  facts?: ReadonlyArray<readonly [string, string]>;
  /** The one thing to do, as a button (and a link in the text part). */
  action?: { label: string; url: string };
  /** After the action: what happens next. */
  after?: readonly string[];
  /** The shop's signature and contact lines. */
  footer: readonly string[];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function emailText(body: EmailBody): string {
  const width = Math.max(0, ...(body.facts ?? []).map(([label]) => label.length));
  return [
    body.greeting,
    '',
    body.heading,
    '',
    ...body.paragraphs.flatMap((p) => [p, '']),
    ...(body.facts?.length ? [...body.facts.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`), ''] : []),
    ...(body.action ? [`${body.action.label}: ${body.action.url}`, ''] : []),
    ...(body.after ?? []).flatMap((p) => [p, '']),
    '--',
    ...body.footer,
  ].join('\n');
}

export function emailHtml(body: EmailBody): string {
  const p = (text: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(text)}</p>`;
  const facts = body.facts?.length
    ? `<table role="presentation" style="width:100%;border-collapse:collapse;margin:0 0 20px">${body.facts
        .map(
          ([label, value]) =>
            `<tr><td style="padding:8px 12px 8px 0;border-bottom:1px solid #e4e4e7;color:#52525b;vertical-align:top">${escapeHtml(label)}</td>` +
            `<td style="padding:8px 0;border-bottom:1px solid #e4e4e7;font-weight:600;text-align:right">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const action = body.action
    ? `<p style="margin:0 0 20px"><a href="${escapeHtml(body.action.url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#4f46e5;color:#ffffff;font-weight:700;text-decoration:none">${escapeHtml(body.action.label)}</a></p>`
    : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:24px 12px;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b">',
    '<div style="max-width:560px;margin:0 auto;padding:28px 24px;background:#ffffff;border-radius:12px">',
    `<p style="margin:0 0 20px;font-weight:700;color:#4f46e5">Persona Books</p>`,
    p(body.greeting),
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${escapeHtml(body.heading)}</h1>`,
    ...body.paragraphs.map(p),
    facts,
    action,
    ...(body.after ?? []).map(p),
    `<hr style="border:0;border-top:1px solid #e4e4e7;margin:24px 0 16px">`,
    ...body.footer.map((line) => `<p style="margin:0 0 4px;font-size:13px;color:#52525b">${escapeHtml(line)}</p>`),
    '</div></body></html>',
  ].join('\n');
}
