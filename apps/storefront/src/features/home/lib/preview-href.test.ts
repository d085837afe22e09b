import { previewHref } from './preview-href';

describe('previewHref', () => {
  it("leads to the book's page with the name, in any script, trimmed and encoded", () => {
    expect(previewHref('64b7f0c2a1b2c3d4e5f60718', '  Asha Rao ')).toBe('/book/64b7f0c2a1b2c3d4e5f60718?name=Asha+Rao');
    expect(new URL(previewHref('b1', 'अनन्या & Co'), 'https://shop.example').searchParams.get('name')).toBe('अनन्या & Co');
  });
});
