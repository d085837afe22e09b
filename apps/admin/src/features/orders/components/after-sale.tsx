// The order page's actions on what was sold (issue 23): the Persona re-issued with a corrected name
// or message (a new signed Persona; the old one says replaced and downloads no more), a printed
// copy cancelled before dispatch with its refund, and the Persona's downloads seen, reset or
// stopped (issue 24). Each form makes its id once, so a second press,
// or a retry after a lost answer, does the work once.
import { useId, useState, type FormEvent } from 'react';
import { formatInr, type OrderDetail, type PersonaDownloads } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { randomUuid } from '@persona/web-kit/random-uuid';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { useConfirm } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../lib/format';
import { cancelPrint, reissuePersona } from '../api/orders';
import { changePersonaDownloads, getPersonaDownloads } from '../api/persona-downloads';

export function ReissueSection({ detail, onChanged }: { detail: OrderDetail; onChanged: () => void }) {
  const { order, reissues } = detail;
  const { toast } = useToast();
  const confirm = useConfirm();
  const ids = { buyer: useId(), recipient: useId(), message: useId(), reason: useId() };
  const [buyerName, setBuyerName] = useState(order.fullName);
  const [recipientName, setRecipientName] = useState(order.gift?.recipientName ?? '');
  const [message, setMessage] = useState(order.gift?.message ?? '');
  const [reason, setReason] = useState('');
  const [reissueId, setReissueId] = useState(randomUuid);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const refunded = detail.refunds.filter((r) => r.status === 'processed').reduce((sum, r) => sum + r.amountPaise, 0) >= detail.amounts.totalPaise;
  const open = order.paymentStatus === 'paid' && order.personaStatus === 'ready' && !refunded;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    if (!buyerName.trim()) return setProblem("Type the buyer's name as it should be printed.");
    if (order.gift && !recipientName.trim()) return setProblem("Type the recipient's name as it should be printed.");
    if (!reason.trim()) return setProblem('Say why: the audit log reads it.');
    setProblem(null);
    if (
      !(await confirm({ message: `Make a new Persona for ${buyerName.trim()}? Persona ${order.personaId} will no longer download.`, confirmLabel: 'Re-issue' }))
    )
      return;
    setSending(true);
    try {
      const answer = await reissuePersona(order._id, {
        reissueId,
        buyerName: buyerName.trim(),
        ...(order.gift ? { recipientName: recipientName.trim(), message } : {}),
        reason: reason.trim(),
      });
      toast({ title: 'Persona re-issued', description: answer.message });
      setReason('');
      setReissueId(randomUuid());
      onChanged();
    } catch (error) {
      toast({ title: 'The Persona was not re-issued', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="panel order-section" aria-labelledby="order-reissue">
      <h2 className="section-title" id="order-reissue">
        Re-issue the Persona
      </h2>
      {reissues.length > 0 && (
        <ol className="timeline">
          {reissues.map((r) => (
            <li key={r._id} className="timeline__item">
              <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
              <span>
                <span className="mono">{r.oldPersonaId}</span> replaced by <span className="mono">{r.newPersonaId}</span>
                <span className="cell-sub">
                  For {r.buyerName}
                  {r.recipientName && <> (to {r.recipientName})</>} · {r.reason} · by {r.requestedBy}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
      {open ? (
        <form className="refund-form" onSubmit={submit} noValidate>
          <p className="cell-sub">A new signed Persona with a new ID; the buyer is e-mailed it. The tax invoice stays as issued.</p>
          <div className="refund-form__fields">
            <div className="field">
              <label htmlFor={ids.buyer}>Buyer&apos;s name</label>
              <input id={ids.buyer} value={buyerName} maxLength={120} onChange={(e) => setBuyerName(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={ids.reason}>Reason</label>
              <input id={ids.reason} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
            </div>
            {order.gift && (
              <>
                <div className="field">
                  <label htmlFor={ids.recipient}>Recipient&apos;s name</label>
                  <input id={ids.recipient} value={recipientName} maxLength={200} onChange={(e) => setRecipientName(e.target.value)} />
                </div>
                <div className="field">
                  <label htmlFor={ids.message}>Gift message</label>
                  <textarea id={ids.message} value={message} rows={3} maxLength={600} onChange={(e) => setMessage(e.target.value)} />
                </div>
              </>
            )}
          </div>
          {problem && (
            <p className="load-error" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="btn btn--outline btn--sm" disabled={sending}>
            {sending ? 'Re-issuing...' : 'Re-issue the Persona'}
          </button>
        </form>
      ) : (
        <p className="cell-sub">
          {refunded
            ? 'The order is refunded in full: its Persona’s licence has ended.'
            : order.paymentStatus !== 'paid'
              ? 'Only a paid order’s Persona can be re-issued.'
              : 'The Persona can be re-issued once it is ready.'}
        </p>
      )}
    </section>
  );
}

export function CancelPrintSection({ detail, onChanged }: { detail: OrderDetail; onChanged: () => void }) {
  const { order, amounts } = detail;
  const { toast } = useToast();
  const confirm = useConfirm();
  const reasonId = useId();
  const [refund, setRefund] = useState<'print' | 'order'>('print');
  const [reason, setReason] = useState('');
  const [cancelId, setCancelId] = useState(randomUuid);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (order.deliveryType !== 'physical' || order.paymentStatus !== 'paid') return null;
  const fees = amounts.printingPaise + amounts.deliveryPaise;
  const dispatched = order.deliveryStatus === 'shipped' || order.deliveryStatus === 'delivered';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    if (!reason.trim()) return setProblem('Say why: the buyer and the audit log read it.');
    setProblem(null);
    const what =
      refund === 'order' ? 'refund the whole order (its Persona then no longer downloads)' : `refund its printing and delivery (${formatInr(fees / 100)})`;
    if (!(await confirm({ message: `Cancel the printed copy and ${what}?`, confirmLabel: 'Cancel the copy' }))) return;
    setSending(true);
    try {
      const answer = await cancelPrint(order._id, { cancelId, refund, reason: reason.trim() });
      toast({ title: 'Printed copy cancelled', description: answer.message });
      setReason('');
      setCancelId(randomUuid());
      onChanged();
    } catch (error) {
      toast({ title: 'The copy was not cancelled', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="panel order-section" aria-labelledby="order-cancel-print">
      <h2 className="section-title" id="order-cancel-print">
        Cancel the printed copy
      </h2>
      {order.deliveryStatus === 'cancelled' ? (
        <p className="cell-sub">The printed copy is cancelled.</p>
      ) : dispatched ? (
        <p className="cell-sub">The printed copy was dispatched: it can no longer be cancelled. Refund the order once it comes back.</p>
      ) : (
        <form className="refund-form" onSubmit={submit} noValidate>
          <fieldset className="field">
            <legend>Refund</legend>
            <label className="checkbox">
              <input type="radio" name="cancel-refund" checked={refund === 'print'} onChange={() => setRefund('print')} /> Printing and delivery (
              {formatInr(fees / 100)}); the digital Persona stays the buyer&apos;s
            </label>
            <label className="checkbox">
              <input type="radio" name="cancel-refund" checked={refund === 'order'} onChange={() => setRefund('order')} /> The whole order; its Persona no
              longer downloads
            </label>
          </fieldset>
          <div className="field">
            <label htmlFor={reasonId}>Reason</label>
            <input id={reasonId} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </div>
          {problem && (
            <p className="load-error" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="btn btn--outline btn--sm" disabled={sending}>
            {sending ? 'Cancelling...' : 'Cancel the printed copy'}
          </button>
        </form>
      )}
    </section>
  );
}

const FORMAT_NAME = { pdf: 'PDF', epub: 'EPUB' } as const;

/**
 * A ready Persona's downloads (issue 24): each format's count in its allowance and ever, until
 * when it lasts; the owner gives a fresh allowance (a buyer who asked by phone, a new device) or
 * stops them (a copy seen shared; the Persona stays genuine). Each is audited.
 */
export function DownloadsSection({ detail, onChanged }: { detail: OrderDetail; onChanged: () => void }) {
  const { order } = detail;
  const { toast } = useToast();
  const confirm = useConfirm();
  const ready = order.paymentStatus === 'paid' && order.personaStatus === 'ready';
  const counts = useAsync(`downloads:${order.personaId}:${ready}`, (signal) => (ready ? getPersonaDownloads(order.personaId, signal) : Promise.resolve(null)));
  const [shown, setShown] = useState<PersonaDownloads | null>(null);
  const [sending, setSending] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const reasonId = useId();
  const allowance = shown ?? counts.data ?? null;
  if (!ready) return null;

  async function change(what: 'reset' | 'revoke') {
    if (sending) return;
    if (!reason.trim()) return setProblem('Say why: the audit log reads it.');
    setProblem(null);
    const question =
      what === 'reset'
        ? `Give Persona ${order.personaId} a fresh allowance of downloads, from today?`
        : `Stop every download of Persona ${order.personaId}? It stays a genuine Persona, and a reset starts them again.`;
    if (!(await confirm({ message: question, confirmLabel: what === 'reset' ? 'Reset downloads' : 'Stop downloads' }))) return;
    setSending(true);
    try {
      const answer = await changePersonaDownloads(order.personaId, what, { reason: reason.trim() });
      setShown(answer.data);
      setReason('');
      toast({ title: answer.message });
      onChanged();
    } catch (error) {
      toast({
        title: what === 'reset' ? 'The downloads were not reset' : 'The downloads were not stopped',
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="panel order-section" aria-labelledby="order-downloads">
      <h2 className="section-title" id="order-downloads">
        Downloads
      </h2>
      {counts.status === 'error' && !allowance ? (
        <p className="load-error" role="alert">
          The downloads could not be read: {errorMessage(counts.error)}
        </p>
      ) : !allowance ? (
        <p className="cell-sub">Reading the downloads...</p>
      ) : (
        <>
          <p className="cell-sub" data-testid="downloads-status">
            {allowance.status === 'revoked'
              ? `Stopped ${formatDateTime(allowance.revokedAt!)}: the Persona downloads nothing until its downloads are reset.`
              : allowance.status === 'expired'
                ? `The allowance ended ${formatDateTime(allowance.until)}.`
                : allowance.status === 'ended'
                  ? 'Its licence has ended (refunded or replaced): it downloads nothing.'
                  : `Each format ${allowance.formats[0]?.limit ?? 0} times, until ${formatDateTime(allowance.until)}.`}
          </p>
          <div className="table-wrap">
            <table className="data-table">
              <caption className="visually-hidden">Downloads of this Persona</caption>
              <thead>
                <tr>
                  <th scope="col">Format</th>
                  <th scope="col">This allowance</th>
                  <th scope="col">Left</th>
                  <th scope="col">Ever</th>
                  <th scope="col">Last</th>
                </tr>
              </thead>
              <tbody>
                {allowance.formats.map((f) => (
                  <tr key={f.format} data-format={f.format}>
                    <td>{FORMAT_NAME[f.format]}</td>
                    <td>
                      {f.used} of {f.limit}
                    </td>
                    <td>{f.left}</td>
                    <td>{f.total}</td>
                    <td>{f.lastAt ? formatDateTime(f.lastAt) : 'Never'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {allowance.status !== 'ended' && (
            <>
              <div className="field">
                <label htmlFor={reasonId}>Reason</label>
                <input id={reasonId} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
              </div>
              {problem && (
                <p className="load-error" role="alert">
                  {problem}
                </p>
              )}
              <div className="form-actions">
                <button type="button" className="btn btn--outline btn--sm" onClick={() => void change('reset')} disabled={sending}>
                  Reset downloads
                </button>
                {allowance.status !== 'revoked' && (
                  <button type="button" className="btn btn--outline btn--sm" onClick={() => void change('revoke')} disabled={sending}>
                    Stop downloads
                  </button>
                )}
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
