import { useRouteError } from 'react-router-dom';
import { StateMessage } from '@persona/web-kit/state-message';

/** Last line of defence: a render error or a chunk that failed to load. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <main className="admin-standalone" id="main-content">
      <StateMessage headingLevel={1} icon="alert" title="Something went wrong" message="This page could not be shown. Please reload and try again.">
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </StateMessage>
    </main>
  );
}
