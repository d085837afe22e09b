import './tag-list.css';

/** Tags as small pills; `max` keeps the first N (cards show up to 2). */
export function TagList({ tags, max }: { tags: readonly string[]; max?: number }) {
  const shown = max === undefined ? tags : tags.slice(0, max);
  if (shown.length === 0) return null;
  return (
    <ul className="tag-list" aria-label="Tags">
      {shown.map((tag) => (
        <li key={tag} className="tag-list__tag">
          {tag}
        </li>
      ))}
    </ul>
  );
}
