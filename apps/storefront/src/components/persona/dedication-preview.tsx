// The dedication page as it will be printed, drawn by the Persona engine as the buyer types: on
// the book page and at checkout.
import { useDedicationPreview } from './use-dedication-preview';
import './dedication-preview.css';

interface DedicationPreviewProps {
  bookId: string;
  /** The name printed: the buyer's, or a gift's recipient. */
  name: string;
  message?: string;
  /** What to type to see the page. */
  hint: string;
}

export function DedicationPreview({ bookId, name, message, hint }: DedicationPreviewProps) {
  const state = useDedicationPreview(bookId, name, message);
  const url = 'url' in state ? state.url : null;
  const busy = state.status === 'loading';
  return (
    <figure className="dedication-preview" aria-busy={busy || undefined}>
      <div className={`dedication-preview__page${busy ? ' dedication-preview__page--busy' : ''}`}>
        {url ? (
          <img
            src={url}
            width={600}
            height={850}
            alt={state.status === 'ready' ? `Your dedication page, printed for ${state.name}` : 'Your dedication page'}
            className="dedication-preview__image"
          />
        ) : (
          <p className="dedication-preview__placeholder">{state.status === 'invalid' ? state.message : hint}</p>
        )}
      </div>
      <figcaption className="dedication-preview__caption">
        <span role="status">
          {state.status === 'invalid' || state.status === 'error'
            ? state.message
            : state.status === 'ready'
              ? 'Your dedication page, as it will be printed.'
              : busy
                ? 'Drawing your page…'
                : ''}
        </span>{' '}
        The Persona ID, its QR code and its signature are made when you buy.
      </figcaption>
    </figure>
  );
}
