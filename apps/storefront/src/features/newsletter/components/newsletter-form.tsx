// Footer newsletter sign-up: POST /api/newsletter/subscribe {email}; shows the answer or the failure.
import { useId, useState, type FormEvent } from 'react';
import { subscribeToNewsletter, subscriptionErrorText } from '../api/subscribe';
import './newsletter-form.css';

type Status = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; text: string } | { kind: 'failed'; text: string };

export function NewsletterForm() {
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const inputId = useId();
  const messageId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = email.trim();
    if (!value || status.kind === 'busy') return;
    setStatus({ kind: 'busy' });
    try {
      const text = await subscribeToNewsletter(value);
      setStatus({ kind: 'done', text });
      setEmail('');
    } catch (error) {
      setStatus({ kind: 'failed', text: subscriptionErrorText(error) });
    }
  }

  return (
    <form className="newsletter" onSubmit={submit} aria-describedby={messageId}>
      <h2 className="site-footer__heading">Stay in the loop</h2>
      <p className="newsletter__lead">New books and author signings, straight to your inbox.</p>
      <div className="newsletter__row">
        <label htmlFor={inputId} className="visually-hidden">
          Email address
        </label>
        <input
          id={inputId}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          className="newsletter__input"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="btn btn--primary" disabled={status.kind === 'busy'}>
          {status.kind === 'busy' ? 'Subscribing...' : 'Subscribe'}
        </button>
      </div>
      <p id={messageId} className={`newsletter__message newsletter__message--${status.kind}`} role="status" aria-live="polite">
        {status.kind === 'done' || status.kind === 'failed' ? status.text : ''}
      </p>
    </form>
  );
}
