// The sample as a list of pages (chapter, text, "this page is an ad"), as the reader shows them.
import type { SamplePage } from '@persona/contracts';

export function SamplePagesEditor({ pages, onChange }: { pages: SamplePage[]; onChange: (pages: SamplePage[]) => void }) {
  const update = (index: number, patch: Partial<SamplePage>) => onChange(pages.map((page, i) => (i === index ? { ...page, ...patch } : page)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...pages];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    onChange(next);
  };
  return (
    <div className="sample-pages">
      {pages.length === 0 && <p className="form-note">No sample pages yet.</p>}
      <ol className="sample-pages__list">
        {pages.map((page, index) => (
          <li key={index} className="sample-pages__page">
            <fieldset>
              <legend>Sample page {index + 1}</legend>
              <div className="field">
                <label htmlFor={`sample-chapter-${index}`}>Chapter</label>
                <input id={`sample-chapter-${index}`} maxLength={200} value={page.chapter} onChange={(e) => update(index, { chapter: e.target.value })} />
              </div>
              <div className="field">
                <label htmlFor={`sample-content-${index}`}>Text</label>
                <textarea id={`sample-content-${index}`} rows={4} maxLength={20000} value={page.content} onChange={(e) => update(index, { content: e.target.value })} />
              </div>
              <div className="sample-pages__row">
                <label className="checkbox">
                  <input type="checkbox" checked={page.isAd} onChange={(e) => update(index, { isAd: e.target.checked })} /> This page is an ad
                </label>
                <div className="sample-pages__buttons">
                  <button type="button" className="btn btn--ghost btn--xs" onClick={() => move(index, -1)} disabled={index === 0}>
                    Move up<span className="visually-hidden"> sample page {index + 1}</span>
                  </button>
                  <button type="button" className="btn btn--ghost btn--xs" onClick={() => move(index, 1)} disabled={index === pages.length - 1}>
                    Move down<span className="visually-hidden"> sample page {index + 1}</span>
                  </button>
                  <button type="button" className="btn btn--ghost btn--xs" onClick={() => onChange(pages.filter((_, i) => i !== index))}>
                    Remove<span className="visually-hidden"> sample page {index + 1}</span>
                  </button>
                </div>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn--outline btn--sm" onClick={() => onChange([...pages, { chapter: '', content: '', isAd: false }])}>
        Add a sample page
      </button>
    </div>
  );
}
