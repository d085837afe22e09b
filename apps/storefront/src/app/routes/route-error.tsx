import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { isChunkLoadError } from '../../lib/chunk-load-error';
import { StateMessage } from '@persona/web-kit/state-message';

/** Last line of defence: a render error or a chunk that failed to load. */
export function RouteError({ error }: { error: unknown }) {
  return (
    <main className="container" id="main-content">
      <StateMessage
        headingLevel={1}
        icon="alert"
        title="Something went wrong"
        message={
          isChunkLoadError(error)
            ? 'This page could not be loaded. Please check your connection and reload.'
            : 'This page could not be shown. Please reload and try again.'
        }
      >
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to={paths.home} className="btn btn--outline" reloadDocument>
          Return to Home
        </Link>
      </StateMessage>
    </main>
  );
}
