import { createHash } from 'node:crypto';
import { inlineScriptHashes, IndexTemplate } from '../../../src/modules/pages/index-template';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes the scripts that run inline, as CSP computes them (UTF-8, exact text)', () => {
    const loader = '(function(){var e="é";document.title=e})();';
    const html = `<head><script type="module" crossorigin src="/assets/index.js"></script></head><body><script data-entry="/a.js">${loader}</script><script type="module">import("/b.js")</script></body>`;
    expect(inlineScriptHashes(html)).toEqual([sha(loader), sha('import("/b.js")')]);
  });

  it('leaves out data blocks, scripts with a source and empty scripts', () => {
    const html =
      '<script type="application/json" id="d">{"a":1}</script><script type="application/ld+json">{"@type":"Book"}</script><script src="/x.js"></script><script></script>';
    expect(inlineScriptHashes(html)).toEqual([]);
  });
});

describe('IndexTemplate stylesheets', () => {
  const html = '<html><head><link rel="stylesheet" crossorigin href="/assets/site.css"><!--app-head--></head><body><div id="root"></div></body></html>';
  const files: Record<string, string> = {
    '/assets/site.css': 'body{margin:0}',
    '/assets/page.css': '.page{display:grid}',
    '/assets/bad.css': 'a{}</style><script>x</script>',
  };

  it("writes the site's and the page's stylesheets into the page, each beside a disabled link that is never fetched", () => {
    const reads: string[] = [];
    const template = new IndexTemplate(html, (href) => {
      reads.push(href);
      return files[href];
    });
    const page = template.render({ head: null, assets: { scripts: [], styles: ['/assets/page.css'] }, html: '<p>x</p>' });
    expect(page).toContain('<style>body{margin:0}</style><link rel="stylesheet" crossorigin href="/assets/site.css" disabled>');
    expect(page).toContain('<style>.page{display:grid}</style><link rel="stylesheet" crossorigin href="/assets/page.css" disabled>');
    // The site's rules come first, the page's after them (the order Vite's loader would give).
    expect(page.indexOf('body{margin:0}')).toBeLessThan(page.indexOf('.page{display:grid}'));
    template.render({ head: null, assets: { scripts: [], styles: ['/assets/page.css'] } });
    // Each file is read once.
    expect(reads.filter((r) => r === '/assets/page.css')).toHaveLength(1);
  });

  it('keeps a stylesheet it cannot read, or cannot inline safely, as an ordinary link', () => {
    const template = new IndexTemplate(html, (href) => files[href]);
    const page = template.render({ head: null, assets: { scripts: [], styles: ['/assets/missing.css', '/assets/bad.css'] } });
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/missing.css">');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/bad.css">');
    expect(page).not.toContain('<script>x</script>');
  });
});
