import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../hooks/use-document-head';
import { useHttpStatus } from '../../lib/render-context';
import { StateMessage } from '@persona/web-kit/state-message';

/** Any unknown path; marked noindex while shown (spec §2). */
export function NotFoundRoute() {
  useHttpStatus(404);
  useDocumentHead({
    title: 'Page not found | Persona Books',
    description: 'The page you are looking for does not exist.',
    robots: 'noindex',
  });
  return (
    <div className="container">
      <StateMessage headingLevel={1} icon="search" title="Oops! Page not found" message="The page you are looking for doesn't exist or has moved.">
        <Link to={paths.home} className="btn btn--primary">
          Return to Home
        </Link>
        <Link to={paths.books} className="btn btn--outline">
          Explore Books
        </Link>
      </StateMessage>
    </div>
  );
}
