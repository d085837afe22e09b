// Test mode (DESIGN §4): stands in for checkout.js. A modal dialog whose three choices end the
// payment exactly as Razorpay's pop-up would: paid (handler), declined (payment.failed), or
// closed (modal.ondismiss).
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { formatInr, paiseToRupees } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { declineInTestMode, payInTestMode } from '../api/payments';
import type { PaymentOpener, PaymentOutcome, PaymentRequest } from '../lib/payment';

interface Pending {
  request: PaymentRequest;
  resolve: (outcome: PaymentOutcome) => void;
}

/** The test-mode opener and the dialog element the page renders for it. */
export function useTestModePayment(): { opener: PaymentOpener; dialog: ReactNode } {
  const [pending, setPending] = useState<Pending | null>(null);
  const opener = useMemo<PaymentOpener>(
    () => ({
      open: (request) => new Promise<PaymentOutcome>((resolve) => setPending({ request, resolve })),
    }),
    [],
  );
  const settle = useCallback((outcome: PaymentOutcome) => {
    setPending((current) => {
      current?.resolve(outcome);
      return null;
    });
  }, []);
  const dialog = pending ? <TestModeDialog request={pending.request} onSettle={settle} /> : null;
  return { opener, dialog };
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), [tabindex]:not([tabindex="-1"])';

function TestModeDialog({ request, onSettle }: { request: PaymentRequest; onSettle: (outcome: PaymentOutcome) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const [busy, setBusy] = useState<'pay' | 'decline' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const settled = useRef(false);
  const busyRef = useRef(busy);
  busyRef.current = busy;

  const finish = useCallback(
    (outcome: PaymentOutcome) => {
      if (settled.current) return;
      settled.current = true;
      ref.current?.close();
      onSettle(outcome);
    },
    [onSettle],
  );

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const onCancel = (event: Event) => {
      // Escape: like Razorpay's ondismiss, unless a choice is already being carried out.
      event.preventDefault();
      if (!busyRef.current) finish({ kind: 'dismissed' });
    };
    const onClose = () => finish({ kind: 'dismissed' });
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onClose);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onClose);
      // No close() here: unmounting removes the dialog from the top layer without a close
      // event, which a StrictMode re-run would otherwise read as a dismissal.
    };
  }, [finish]);

  async function pay() {
    setBusy('pay');
    setFailure(null);
    try {
      finish({ kind: 'paid', response: await payInTestMode(request.razorpayOrderId) });
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(null);
    }
  }

  async function decline() {
    setBusy('decline');
    setFailure(null);
    try {
      finish({ kind: 'failed', error: await declineInTestMode(request.razorpayOrderId) });
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(null);
    }
  }

  /** Keeps Tab and Shift+Tab inside the dialog. */
  function trapFocus(event: ReactKeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab' || !ref.current) return;
    const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !ref.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !ref.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog ref={ref} className="test-pay" aria-labelledby={titleId} aria-describedby={textId} aria-busy={busy ? 'true' : undefined} onKeyDown={trapFocus}>
      <p className="test-pay__badge">Test mode</p>
      <h2 id={titleId} className="test-pay__title">
        Test-mode payment
      </h2>
      <p id={textId} className="test-pay__text">
        This shop is running in test mode: no real money moves and no card is charged. Choose how this payment ends.
      </p>
      <dl className="test-pay__summary">
        <div>
          <dt>Book</dt>
          <dd>{request.bookTitle}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd className="price">{formatInr(paiseToRupees(request.amount))}</dd>
        </div>
      </dl>
      {failure && (
        <p className="test-pay__error" role="alert">
          {failure}
        </p>
      )}
      <div className="test-pay__actions">
        <button type="button" className="btn btn--primary" onClick={pay} disabled={busy !== null} autoFocus>
          {busy === 'pay' ? 'Processing...' : 'Pay successfully'}
        </button>
        <button type="button" className="btn btn--outline" onClick={decline} disabled={busy !== null}>
          {busy === 'decline' ? 'Processing...' : 'Decline payment'}
        </button>
        <button type="button" className="btn btn--ghost" onClick={() => finish({ kind: 'dismissed' })} disabled={busy !== null}>
          Close
        </button>
      </div>
    </dialog>
  );
}
