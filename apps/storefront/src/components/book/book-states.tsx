// The two ways a single-book page can fail to show its book (spec §2, §8).
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { StateMessage } from '@persona/web-kit/state-message';
import { useHttpStatus } from '../../lib/render-context';

export function BookNotFound() {
  // The server answers an unknown book with 404, as it does an unknown page.
  useHttpStatus(404);
  return (
    <StateMessage headingLevel={1} title="Book not found" message="We couldn't find the book you're looking for.">
      <Link to={paths.home} className="btn btn--primary">
        Return to Home
      </Link>
    </StateMessage>
  );
}

export function BookLoadError({ title, message, onRetry }: { title: string; message: string; onRetry: () => void }) {
  return (
    <StateMessage headingLevel={1} icon="alert" title={title} message={message}>
      <button type="button" className="btn btn--primary" onClick={onRetry}>
        Try again
      </button>
      <Link to={paths.home} className="btn btn--outline">
        Return to Home
      </Link>
    </StateMessage>
  );
}
