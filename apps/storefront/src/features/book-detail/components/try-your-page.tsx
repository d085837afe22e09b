// "See your dedication page": the name (and, for a gift, a message) typed here is drawn by the
// Persona engine as it will be printed, and travels with the visitor (lib/persona-draft) to the
// checkout and back. A name can also arrive in the address (`?name=`, from the home page's
// "Try it with your name"), which the server's render already shows.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { GIFT_MESSAGE_MAX_CHARS } from '@persona/contracts';
import { Field } from '../../../components/ui/field';
import { DedicationPreview } from '../../../components/persona/dedication-preview';
import { readPersonaDraft, savePersonaDraft } from '../../../lib/persona-draft';

/** The section's id: where the home page's "Try it with your name" lands. */
export const TRY_YOUR_PAGE_ID = 'your-dedication-page';
/** The query parameter a name arrives in. */
export const NAME_PARAM = 'name';

export function TryYourPage({ bookId }: { bookId: string }) {
  const [params] = useSearchParams();
  const fromAddress = params.get(NAME_PARAM)?.slice(0, 120) ?? '';
  const [name, setName] = useState(fromAddress);
  const [message, setMessage] = useState('');
  const [giftOpen, setGiftOpen] = useState(false);
  const [restored, setRestored] = useState(false);

  // After the first render (the server has no sessionStorage): the draft typed here or at
  // checkout; a name in the address is newer than the draft's and replaces its name.
  useEffect(() => {
    const draft = readPersonaDraft(window.sessionStorage);
    if (draft) {
      setName(fromAddress || draft.name);
      setMessage(draft.message);
      setGiftOpen(Boolean(draft.message));
    }
    setRestored(true);
    // Only once, when the page opens: typing here must not be undone by the address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (restored) savePersonaDraft(window.sessionStorage, { name, message });
  }, [restored, name, message]);

  return (
    <section id={TRY_YOUR_PAGE_ID} aria-labelledby="try-your-page-heading" className="book-detail__try">
      <div className="book-detail__try-fields">
        <h2 id="try-your-page-heading" className="book-detail__section-title">
          See your dedication page
        </h2>
        <Field label="Name to print">
          {(control) => (
            <input {...control} className="text-input" value={name} maxLength={120} autoComplete="name" onChange={(event) => setName(event.target.value)} />
          )}
        </Field>
        {/* A message is only a gift's: folded away until wanted, open when one was typed at checkout. */}
        <details className="book-detail__gift" open={giftOpen} onToggle={(event) => setGiftOpen(event.currentTarget.open)}>
          <summary>It&apos;s a gift: add a message</summary>
          <Field label="Gift message (optional)">
            {(control) => (
              <textarea
                {...control}
                className="text-input book-detail__message"
                value={message}
                rows={3}
                maxLength={GIFT_MESSAGE_MAX_CHARS}
                onChange={(event) => setMessage(event.target.value)}
              />
            )}
          </Field>
        </details>
        <p className="book-detail__try-note">Your name and message go with you to checkout.</p>
      </div>
      <DedicationPreview bookId={bookId} name={name} message={message} hint="Type a name to see it printed on the dedication page" />
    </section>
  );
}
