// A book cover with fixed intrinsic size (no layout shift) and a designed fallback when there is none.
import { useState } from 'react';
import { hasImageCopies, imageSrcSet } from '@persona/contracts';
import { GRID_COVER_SIZES } from './cover-sizes';
import './book-cover.css';

interface BookCoverProps {
  title: string;
  author?: string;
  url: string | null | undefined;
  width?: number;
  height?: number;
  /** Loads at once instead of when it nears the screen (a cover above the fold). */
  eager?: boolean;
  /** Fetched ahead of the page's other images: its largest paint. Defaults to `eager`. */
  priority?: boolean;
  className?: string;
  /** Inside a link or card that already names the book: hidden from assistive tech. */
  decorative?: boolean;
  /** How wide the cover shows (the `sizes` attribute): the browser picks the smallest sized copy that fills it. */
  sizes?: string;
}

export function BookCover({
  title,
  author,
  url,
  width = 300,
  height = 450,
  eager = false,
  priority = eager,
  className = '',
  decorative = false,
  sizes = GRID_COVER_SIZES,
}: BookCoverProps) {
  const [failed, setFailed] = useState(false);
  if (!url || failed) {
    return (
      <div
        className={`book-cover book-cover--fallback ${className}`}
        style={{ aspectRatio: `${width} / ${height}` }}
        {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': `Cover of ${title}` })}
      >
        <span className="book-cover__fallback-title">{title}</span>
        {author && <span className="book-cover__fallback-author">{author}</span>}
      </div>
    );
  }
  return (
    <img
      className={`book-cover ${className}`}
      src={url}
      {...(hasImageCopies(url) ? { srcSet: imageSrcSet(url), sizes } : {})}
      alt={decorative ? '' : `Cover of ${title}`}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
