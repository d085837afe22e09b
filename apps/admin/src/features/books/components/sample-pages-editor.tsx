// The sample as a list of pages (chapter, text, "this page is an ad"), as the reader shows them.
// Moving, removing and adding a page keep keyboard focus with the page it concerns.
import { useEffect, useId, useState } from 'react';
import type { SamplePage } from '@persona/contracts';

export function SamplePagesEditor({ pages, onChange }: { pages: SamplePage[]; onChange: (pages: SamplePage[]) => void }) {
  const baseId = useId();
  const idOf = (what: 'chapter' | 'up' | 'down', index: number) => `${baseId}-${what}-${index}`;
  const addId = `${baseId}-add`;
  // The element to focus once the list has re-rendered (ids in order of preference).
  const [focusNext, setFocusNext] = useState<string[] | null>(null);
  useEffect(() => {
    if (!focusNext) return;
    setFocusNext(null);
    const target = focusNext.map((id) => document.getElementById(id)).find((el) => el && !(el as HTMLButtonElement).disabled);
    target?.focus();
  }, [focusNext]);

  const update = (index: number, patch: Partial<SamplePage>) => onChange(pages.map((page, i) => (i === index ? { ...page, ...patch } : page)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...pages];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    onChange(next);
    // Focus follows the page: the same button where it now is, else its other move button.
    setFocusNext([idOf(by < 0 ? 'up' : 'down', index + by), idOf(by < 0 ? 'down' : 'up', index + by)]);
  };
  const remove = (index: number) => {
    onChange(pages.filter((_, i) => i !== index));
    setFocusNext([idOf('chapter', index), idOf('chapter', index - 1), addId]);
  };
  const add = () => {
    onChange([...pages, { chapter: '', content: '', isAd: false }]);
    setFocusNext([idOf('chapter', pages.length)]);
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
                <label htmlFor={idOf('chapter', index)}>Chapter</label>
                <input id={idOf('chapter', index)} maxLength={200} value={page.chapter} onChange={(e) => update(index, { chapter: e.target.value })} />
              </div>
              <div className="field">
                <label htmlFor={`${baseId}-content-${index}`}>Text</label>
                <textarea
                  id={`${baseId}-content-${index}`}
                  rows={4}
                  maxLength={20000}
                  value={page.content}
                  onChange={(e) => update(index, { content: e.target.value })}
                />
              </div>
              <div className="sample-pages__row">
                <label className="checkbox">
                  <input type="checkbox" checked={page.isAd} onChange={(e) => update(index, { isAd: e.target.checked })} /> This page is an ad
                </label>
                <div className="sample-pages__buttons">
                  <button id={idOf('up', index)} type="button" className="btn btn--ghost btn--xs" onClick={() => move(index, -1)} disabled={index === 0}>
                    Move up<span className="visually-hidden"> sample page {index + 1}</span>
                  </button>
                  <button
                    id={idOf('down', index)}
                    type="button"
                    className="btn btn--ghost btn--xs"
                    onClick={() => move(index, 1)}
                    disabled={index === pages.length - 1}
                  >
                    Move down<span className="visually-hidden"> sample page {index + 1}</span>
                  </button>
                  <button type="button" className="btn btn--ghost btn--xs" onClick={() => remove(index)}>
                    Remove<span className="visually-hidden"> sample page {index + 1}</span>
                  </button>
                </div>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <button id={addId} type="button" className="btn btn--outline btn--sm" onClick={add}>
        Add a sample page
      </button>
    </div>
  );
}
