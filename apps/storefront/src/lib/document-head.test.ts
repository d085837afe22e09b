import { headTags, scriptJson } from './document-head';

describe('head tags rendered on the server', () => {
  it('escape every text, and make image and canonical links absolute', () => {
    const html = headTags(
      {
        title: '</title><script>alert(1)</script>',
        description: 'A "quoted" & <b>bold</b> book',
        image: '/api/files/covers/x.jpg',
        type: 'book',
        path: '/book/1',
        preloadImage: { url: '/api/files/covers/x.jpg', sizes: '26rem' },
      },
      'https://shop.example',
      '/ignored',
    );
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).toContain('<meta name="description" content="A &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; book" />');
    expect(html).toContain('<link rel="canonical" href="https://shop.example/book/1" />');
    expect(html).toContain('<meta property="og:image" content="https://shop.example/api/files/covers/x.jpg" />');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    // The preload names the sized copies, so it fetches the one the <img> will pick, not the upload.
    const srcset = [160, 240, 320, 480, 640].map((w) => `/api/files/covers/x.jpg?w=${w} ${w}w`).join(', ');
    expect(html).toContain(`<link rel="preload" as="image" href="/api/files/covers/x.jpg" imagesrcset="${srcset}" imagesizes="26rem" fetchpriority="high" />`);
    expect(html.match(/<title>/g)).toHaveLength(1);
  });

  it('preload an image from elsewhere as it is', () => {
    const html = headTags({ title: 'T', description: 'D', preloadImage: { url: 'https://cdn.example/c.jpg', sizes: '26rem' } }, 'https://shop.example', '/');
    expect(html).toContain('<link rel="preload" as="image" href="https://cdn.example/c.jpg" fetchpriority="high" />');
  });

  it('mark a page noindex and point canonical at the current path by default', () => {
    const html = headTags({ title: 'Page not found', description: 'Gone', robots: 'noindex' }, 'https://shop.example', '/nope');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).toContain('<link rel="canonical" href="https://shop.example/nope" />');
  });

  it('carry structured data that cannot close its script element', () => {
    const html = headTags({ title: 'T', description: 'D', jsonLd: { name: '</script><script>alert(1)</script>' } }, 'https://shop.example', '/');
    const script = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(script).not.toContain('<');
    expect(JSON.parse(script)).toEqual({ name: '</script><script>alert(1)</script>' });
    expect(scriptJson('\u2028&')).toBe('"\\u2028\\u0026"');
  });
});
