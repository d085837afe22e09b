import { errorMessage } from '@persona/web-kit/api-client';

/** A list that could not be loaded: says so in place, with the reason and a way to try again. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <div className="load-error" role="alert">
      <p>
        {what} could not be loaded. {errorMessage(error)}
      </p>
      <button type="button" className="btn btn--outline btn--sm" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
