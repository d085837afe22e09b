import type { CSSProperties } from 'react';
import './skeleton.css';

/** A grey shimmering block; purely decorative. */
export function Skeleton({ className = '', style }: { className?: string; style?: CSSProperties }) {
  return <span className={`skeleton ${className}`} style={style} aria-hidden="true" />;
}

/** A book card placeholder shown while the catalogue loads. */
export function BookCardSkeleton() {
  return (
    <div className="book-card-skeleton" aria-hidden="true">
      <Skeleton className="book-card-skeleton__cover" />
      <Skeleton className="skeleton--line" style={{ width: '80%' }} />
      <Skeleton className="skeleton--line" style={{ width: '50%' }} />
      <Skeleton className="skeleton--line" style={{ width: '95%' }} />
      <Skeleton className="skeleton--line" style={{ width: '35%' }} />
    </div>
  );
}
