import { Skeleton } from '../../components/ui/skeleton';

/** Shown while a route's code chunk loads. */
export function PageFallback() {
  return (
    <div className="container page-pending" style={{ padding: '3rem 1rem' }} aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading page
      </p>
      <Skeleton style={{ height: '2.5rem', width: '40%' }} />
      <Skeleton className="skeleton--line" style={{ width: '70%', marginTop: '1rem' }} />
      <Skeleton className="skeleton--line" style={{ width: '55%', marginTop: '0.75rem' }} />
    </div>
  );
}
