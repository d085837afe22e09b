// "Did you mean …?": the title a search most likely meant (the catalogue's meta.didYouMean), as a
// search for that title. Said above the books when they matched only once a typo was corrected,
// and in the empty state when nothing matched at all.
import { Link } from 'react-router-dom';

export function DidYouMean({
  title,
  href,
  onFollow,
  corrected = false,
}: {
  title: string;
  href: string;
  onFollow: (title: string) => void;
  corrected?: boolean;
}) {
  return (
    <p className={`explore__did-you-mean${corrected ? ' explore__did-you-mean--corrected' : ''}`}>
      {corrected && <span>No book matches your search as typed. </span>}
      Did you mean{' '}
      <Link to={href} onClick={() => onFollow(title)}>
        {title}
      </Link>
      ?
    </p>
  );
}
