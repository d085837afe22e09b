import { Link } from 'react-router-dom';
import { StateMessage } from '@persona/web-kit/state-message';
import { paths } from '../../config/paths';
import { usePageTitle } from '../../lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <StateMessage headingLevel={1} icon="search" title="Oops! Page not found" message="This admin page does not exist.">
      <Link to={paths.dashboard} className="btn btn--primary">
        Back to the dashboard
      </Link>
    </StateMessage>
  );
}
