// The explore chips (spec §2, §5): "all" and the tags, sorted. With many tags, the most used
// show as chips and "More tags" finds the rest by their text.
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ListOf, TagCount } from '@persona/contracts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useApiData } from '../../../lib/api-data';
import { tagsPath } from '../../../lib/catalogue-api';
import { formatCount } from '../../../lib/format-count';
import type { ExploreParams } from '../api/explore-query';

export const ALL_CHIP = 'all';
const FOUND_TAGS_MAX = 60;

interface TagChipsProps {
  selected: string;
  chips: ListOf<TagCount> | undefined;
  to: (next: Partial<ExploreParams>) => string;
}

export function TagChips({ selected, chips, to }: TagChipsProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!chips || chips.data.length === 0) return null;
  const names = chips.data.map((c) => c.tag);
  // The chosen tag stays visible even when it is not among the most used.
  if (selected && !names.includes(selected)) names.push(selected);
  names.sort((a, b) => a.localeCompare(b));
  const more = chips.meta.total > chips.data.length;
  return (
    <div className="tag-filter">
      <div className="chips" role="group" aria-label="Filter by tag">
        {[ALL_CHIP, ...names].map((chip) => {
          const current = chip === ALL_CHIP ? !selected : chip === selected;
          return (
            <Link key={chip} to={to({ tag: chip === ALL_CHIP ? '' : chip })} className="chips__chip" aria-current={current ? 'true' : undefined}>
              {chip}
            </Link>
          );
        })}
        {more && (
          <button type="button" className="chips__chip chips__more" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((v) => !v)}>
            More tags ({formatCount(chips.meta.total - chips.data.length)})
          </button>
        )}
      </div>
      {more && open && <TagFinder id={panelId} to={to} />}
    </div>
  );
}

/** Finds any tag by the text it contains, alphabetically. */
function TagFinder({ id, to }: { id: string; to: TagChipsProps['to'] }) {
  const [text, setText] = useState('');
  const settled = useDebouncedValue(text, 200);
  const found = useApiData<ListOf<TagCount>>(tagsPath({ q: settled || undefined, sort: 'name', limit: FOUND_TAGS_MAX }));
  const inputId = useId();
  return (
    <div id={id} className="tag-finder" role="region" aria-label="More tags">
      <label htmlFor={inputId} className="tag-finder__label">
        Find a tag
      </label>
      <input
        id={inputId}
        type="search"
        className="text-input"
        autoComplete="off"
        maxLength={60}
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoFocus
      />
      {found.status === 'success' && (
        <>
          <p className="tag-finder__count" role="status">
            {found.data.meta.total === 0
              ? 'No tag contains that text'
              : `${formatCount(found.data.meta.total)} ${found.data.meta.total === 1 ? 'tag' : 'tags'}${found.data.meta.total > found.data.data.length ? `, the first ${found.data.data.length} shown: type to narrow` : ''}`}
          </p>
          <ul className="tag-finder__list">
            {found.data.data.map((tag) => (
              <li key={tag.tag}>
                <Link to={to({ tag: tag.tag })} className="chips__chip">
                  {tag.tag} <span className="tag-finder__n">{formatCount(tag.count)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
