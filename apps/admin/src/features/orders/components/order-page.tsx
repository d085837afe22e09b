// The order page (issue 23): one order whole — buyer, recipient, book, format, amounts by part,
// payment and its attempts, the Persona, delivery, the e-mails sent, private notes — and one
// timeline of everything that happened to it, with who. Its actions are safe to press twice:
// each carries an id the page made for that press (a note's id, an e-mail copy's request id).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { formatInr, orderInvoiceUrl, type AuditEntry, type OrderDetail, type OrderEmail, type OrderRefund } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { randomUuid } from '@persona/web-kit/random-uuid';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { useConfirm } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { capitalize, formatDate, formatDateTime, paiseFromTyped } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { addOrderNote, getOrderDetail, getOrderTimeline, refundOrder, resendOrderEmail, retryPersona } from '../api/orders';
import { emailKindLabel, orderTimeline } from '../lib/order-timeline';
import { addressee, addressLine } from '../lib/address-line';
import { PaymentBadge, PersonaBadge } from './order-badges';
import { CancelPrintSection, DownloadsSection, ReissueSection } from './after-sale';

const paise = (value: number) => formatInr(value / 100);

/** How often the page reads the order again while a refund is on its way (Razorpay answers within seconds to days). */
const UNSETTLED_REFRESH_MS = 3000;

export function OrderPage() {
  const { id = '' } = useParams();
  const detail = useAsync(`detail:${id}`, (signal) => getOrderDetail(id, signal));
  const timeline = useAsync(`timeline:${id}`, (signal) => getOrderTimeline(id, signal));
  // What was last read stays on screen while the page reads the order again (after an action, or
  // while a refund settles): no flash of "Loading", no form emptied under the owner's hands.
  const [shown, setShown] = useState<{ id: string; detail: OrderDetail; audit: AuditEntry[] | null } | null>(null);
  useEffect(() => {
    if (detail.status === 'success')
      setShown((last) => ({ id, detail: detail.data, audit: timeline.status === 'success' ? timeline.data : last?.id === id ? last.audit : null }));
  }, [id, detail.status, detail.data, timeline.status, timeline.data]);
  const current = shown?.id === id ? shown : null;
  const unsettled = current?.detail.refunds.some((r) => r.status === 'requested' || r.status === 'pending') ?? false;
  const { reload: reloadDetail } = detail;
  const { reload: reloadTimeline } = timeline;
  useEffect(() => {
    if (!unsettled) return;
    const timer = window.setInterval(() => {
      reloadDetail();
      reloadTimeline();
    }, UNSETTLED_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [unsettled, reloadDetail, reloadTimeline]);
  usePageTitle(current ? `Order ${current.detail.order.personaId}` : 'Order');
  const reload = () => {
    detail.reload();
    timeline.reload();
  };

  // A failed read again keeps what was shown (the next one may succeed); a first read that fails says so.
  if (detail.status === 'error' && !current)
    return (
      <>
        <PageHeader title="Order" />
        <LoadError what="This order" error={detail.error} onRetry={detail.reload} />
        <p>
          <Link to={paths.orders}>Back to the orders</Link>
        </p>
      </>
    );
  if (!current) return <PageLoading text="Loading the order..." />;
  return <OrderView detail={current.detail} audit={current.audit} timelineFailed={timeline.status === 'error'} onChanged={reload} />;
}

function OrderView({
  detail,
  audit,
  timelineFailed,
  onChanged,
}: {
  detail: OrderDetail;
  audit: Parameters<typeof orderTimeline>[1] | null;
  timelineFailed: boolean;
  onChanged: () => void;
}) {
  const { order, amounts, payment } = detail;
  const { toast } = useToast();
  const [retrying, setRetrying] = useState(false);

  async function retry() {
    if (retrying) return;
    setRetrying(true);
    try {
      await retryPersona(order._id);
      toast({ title: 'Persona retry started', description: `The Persona ${order.personaId} is being made again.` });
      onChanged();
    } catch (error) {
      toast({ title: 'Retry failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setRetrying(false);
    }
  }

  return (
    <>
      <p className="back-link">
        <Link to={paths.orders}>← Orders</Link>
      </p>
      <PageHeader title={`Order ${order.personaId}`}>
        <PaymentBadge status={order.paymentStatus} />
        <PersonaBadge status={order.personaStatus} />
      </PageHeader>
      <p className="page-sub">
        Placed {formatDateTime(order.createdAt)}
        {order.paidAt && <> · paid {formatDateTime(order.paidAt)}</>} · <span className="mono">{order._id}</span>
      </p>

      <div className="order-grid">
        <section className="panel" aria-labelledby="order-buyer">
          <h2 className="section-title" id="order-buyer">
            Buyer
          </h2>
          <dl className="detail-list">
            <Row term="Name">{order.fullName}</Row>
            <Row term="E-mail">
              <a href={`mailto:${order.email}`}>{order.email}</a>
            </Row>
            <Row term="Phone">{order.phone}</Row>
            {order.address && <Row term="Deliver to">{addressee(order.address)}</Row>}
            {order.address && <Row term="Address">{addressLine(order.address)}</Row>}
            {order.shipBy && <Row term="Ship by">{formatDate(order.shipBy)}</Row>}
            {order.gift && (
              <>
                <Row term="Gift for">{order.gift.recipientName}</Row>
                {order.gift.recipientEmail && (
                  <Row term="Sent to">
                    {order.gift.recipientEmail} on {formatDate(order.gift.deliverOn)}
                  </Row>
                )}
                {order.gift.message && (
                  <Row term="Message">
                    <span className="pre-wrap">{order.gift.message}</span>
                  </Row>
                )}
              </>
            )}
          </dl>
        </section>

        <section className="panel" aria-labelledby="order-book">
          <h2 className="section-title" id="order-book">
            Book and amounts
          </h2>
          <dl className="detail-list">
            <Row term="Book">
              {order.book.title}
              <span className="cell-sub">{order.book.author}</span>
            </Row>
            <Row term="Format">{order.deliveryType === 'physical' ? 'Printed copy' : 'Digital'}</Row>
            <Row term="Price">{paise(amounts.basePaise)}</Row>
            {amounts.printingPaise > 0 && <Row term="Printing">{paise(amounts.printingPaise)}</Row>}
            {amounts.deliveryPaise > 0 && <Row term="Delivery">{paise(amounts.deliveryPaise)}</Row>}
            {amounts.discountPaise > 0 && <Row term={`Discount (${amounts.couponCode ?? 'coupon'})`}>−{paise(amounts.discountPaise)}</Row>}
            <Row term="Total">
              <strong>{paise(amounts.totalPaise)}</strong>
            </Row>
            {detail.invoices.map((document) => (
              <Row key={document._id} term={document.kind === 'invoice' ? 'Tax invoice' : 'Credit note'}>
                {/* By Persona ID: the same link the buyer has, no token needed to open it. */}
                <a href={orderInvoiceUrl(order.personaId, document.kind === 'invoice' ? undefined : document._id)} target="_blank" rel="noreferrer">
                  {document.number}
                </a>
                <span className="cell-sub">
                  {formatDate(document.issuedAt)} · {paise(document.totalPaise)} · place of supply {document.placeOfSupply}
                </span>
              </Row>
            ))}
            {detail.invoices.length === 0 && order.paymentStatus === 'paid' && <Row term="Tax invoice">Being issued</Row>}
          </dl>
        </section>

        <section className="panel" aria-labelledby="order-payment">
          <h2 className="section-title" id="order-payment">
            Payment
          </h2>
          <dl className="detail-list">
            <Row term="Status">
              <PaymentBadge status={order.paymentStatus} />
            </Row>
            <Row term="Razorpay order">
              <span className="mono">{payment.razorpayOrderId ?? '—'}</span>
            </Row>
            <Row term="Payment">
              <span className="mono">{payment.razorpayPaymentId ?? '—'}</span>
            </Row>
            {payment.paidVia && <Row term="Confirmed by">{payment.paidVia}</Row>}
          </dl>
          {detail.attempts.length > 0 && (
            <>
              <h3 className="subsection-title">Attempts</h3>
              <ol className="timeline">
                {detail.attempts.map((a, i) => (
                  <li key={i} className="timeline__item">
                    <time dateTime={a.at}>{formatDateTime(a.at)}</time>
                    <span>
                      {capitalize(a.outcome.replace('-', ' '))} <span className="muted">({a.source})</span>
                      {a.detail && <span className="cell-sub">{a.detail}</span>}
                      {a.razorpayPaymentId && <span className="cell-sub mono">{a.razorpayPaymentId}</span>}
                    </span>
                  </li>
                ))}
              </ol>
            </>
          )}
        </section>

        <section className="panel" aria-labelledby="order-persona">
          <h2 className="section-title" id="order-persona">
            Persona and delivery
          </h2>
          <dl className="detail-list">
            <Row term="Persona">
              <PersonaBadge status={order.personaStatus} />
              {order.personaError && <span className="cell-sub">{order.personaError}</span>}
            </Row>
            {order.downloads.length > 0 && <Row term="Files">{order.downloads.map((d) => d.format.toUpperCase()).join(', ')}</Row>}
            <Row term="Verify page">
              <a href={`/verify/${encodeURIComponent(order.personaId)}`} target="_blank" rel="noreferrer">
                /verify/{order.personaId}
              </a>
            </Row>
            {order.deliveryType === 'physical' && (
              <>
                <Row term="Delivery">{capitalize(order.deliveryStatus ?? 'pending')}</Row>
                {order.shipment && (
                  <Row term="Shipment">
                    {[order.shipment.carrier, order.shipment.trackingNumber].filter(Boolean).join(' · ') || 'Shipped'}
                    {order.shipment.shippedAt && <span className="cell-sub">{formatDateTime(order.shipment.shippedAt)}</span>}
                  </Row>
                )}
              </>
            )}
          </dl>
          {order.personaStatus === 'failed' && (
            <button type="button" className="btn btn--outline btn--sm" onClick={retry} disabled={retrying}>
              {retrying ? 'Retrying...' : 'Make the Persona again'}
            </button>
          )}
        </section>
      </div>

      <RefundsSection detail={detail} onChanged={onChanged} />
      <DownloadsSection detail={detail} onChanged={onChanged} />
      <ReissueSection detail={detail} onChanged={onChanged} />
      <CancelPrintSection detail={detail} onChanged={onChanged} />
      <EmailsSection orderId={order._id} emails={detail.emails} onChanged={onChanged} />
      <div className="order-grid">
        <NotesSection orderId={order._id} notes={detail.notes} onChanged={onChanged} />
        <section className="panel" aria-labelledby="order-timeline">
          <h2 className="section-title" id="order-timeline">
            Timeline
          </h2>
          {timelineFailed && <p className="cell-sub">The audit log could not be read: only what the orders service knows is shown.</p>}
          <ol className="timeline">
            {orderTimeline(detail, audit ?? []).map((item) => (
              <li key={item.key} className="timeline__item">
                <time dateTime={item.at}>{formatDateTime(item.at)}</time>
                <span>
                  {item.text}
                  {item.actor && <span className="cell-sub">by {item.actor}</span>}
                </span>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </>
  );
}

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function emailState(email: OrderEmail): string {
  if (email.sentAt) return `Sent ${formatDateTime(email.sentAt)}`;
  if (email.sendAfter && Date.parse(email.sendAfter) > Date.now()) return `Waits for ${formatDate(email.sendAfter)}`;
  if (email.lastError) return `Not sent yet (${email.attempts} tries): ${email.lastError}`;
  return 'Being sent';
}

function EmailsSection({ orderId, emails, onChanged }: { orderId: string; emails: OrderEmail[]; onChanged: () => void }) {
  const { toast } = useToast();
  // One request id per press of one e-mail's button: a retried request sends one copy.
  const [sending, setSending] = useState<Record<string, string>>({});

  async function resend(email: OrderEmail) {
    if (sending[email._id]) return;
    const requestId = randomUuid();
    setSending((m) => ({ ...m, [email._id]: requestId }));
    try {
      const copy = await resendOrderEmail(orderId, email._id, requestId);
      toast({ title: 'E-mail sent again', description: `A copy of the ${emailKindLabel(email.kind)} is on its way to ${copy.to}.` });
      onChanged();
    } catch (error) {
      toast({ title: 'Could not send it again', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSending((m) => {
        const { [email._id]: _done, ...rest } = m;
        return rest;
      });
    }
  }

  return (
    <section className="panel order-section" aria-labelledby="order-emails">
      <h2 className="section-title" id="order-emails">
        E-mails
      </h2>
      {emails.length === 0 ? (
        <p className="cell-sub">No e-mail about this order yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table">
            <caption className="visually-hidden">E-mails about this order</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">To</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {emails.map((email) => (
                <tr key={email._id} data-email-kind={email.kind}>
                  <td>
                    {capitalize(emailKindLabel(email.kind))}
                    {email.resendOf && <span className="cell-sub">a copy sent again</span>}
                    <span className="cell-sub">{email.subject}</span>
                  </td>
                  <td>{email.to}</td>
                  <td>{emailState(email)}</td>
                  <td>
                    {email.sentAt && (
                      <button type="button" className="btn btn--outline btn--xs" onClick={() => resend(email)} disabled={sending[email._id] !== undefined}>
                        {sending[email._id] ? 'Sending...' : 'Send again'}
                        <span className="visually-hidden">
                          {' '}
                          the {emailKindLabel(email.kind)} to {email.to}
                        </span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function NotesSection({ orderId, notes, onChanged }: { orderId: string; notes: OrderDetail['notes']; onChanged: () => void }) {
  const { toast } = useToast();
  const fieldId = useId();
  const [text, setText] = useState('');
  // The note's id is made with the form, kept through a failed try, new once the note is added.
  const [noteId, setNoteId] = useState(randomUuid);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving || !text.trim()) return;
    setSaving(true);
    try {
      await addOrderNote(orderId, { noteId, text });
      setText('');
      setNoteId(randomUuid());
      onChanged();
    } catch (error) {
      toast({ title: 'The note was not added', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="order-notes">
      <h2 className="section-title" id="order-notes">
        Private notes
      </h2>
      {notes.length > 0 && (
        <ul className="notes">
          {notes.map((note) => (
            <li key={note._id} className="notes__item">
              <p>{note.text}</p>
              <span className="cell-sub">
                {note.author}, {formatDateTime(note.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="notes__form">
        <label htmlFor={fieldId}>Add a note (only administrators see it)</label>
        <textarea id={fieldId} value={text} maxLength={2000} rows={3} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="btn btn--primary btn--sm" disabled={saving || !text.trim()}>
          {saving ? 'Adding...' : 'Add note'}
        </button>
      </form>
    </section>
  );
}

const REFUND_STATE: Record<OrderRefund['status'], string> = {
  requested: 'Asked for: waiting for Razorpay',
  pending: 'Accepted by Razorpay: on its way',
  processed: 'Refunded',
  failed: 'Failed',
};

function RefundsSection({ detail, onChanged }: { detail: OrderDetail; onChanged: () => void }) {
  const { order, amounts, refunds } = detail;
  const { toast } = useToast();
  const confirm = useConfirm();
  const amountId = useId();
  const reasonId = useId();
  const refunded = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amountPaise, 0);
  const left = amounts.totalPaise - refunded;
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  // The refund's id is made with the form: a second press, or a retry after a lost answer, is the same refund.
  const [refundId, setRefundId] = useState(randomUuid);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const paid = order.paymentStatus === 'paid';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const paise = amount.trim() ? paiseFromTyped(amount) : left;
    if (paise === null || paise < 100) return setProblem('Type an amount in rupees, at least ₹1.00 (for example 120 or 120.50).');
    if (paise > left) return setProblem(`At most ${formatInr(left / 100)} is left to refund.`);
    if (!reason.trim()) return setProblem('Say why: the buyer and the audit log read it.');
    setProblem(null);
    const whole = refunded + paise === amounts.totalPaise;
    if (
      !(await confirm({
        message: `Refund ${formatInr(paise / 100)} to ${order.fullName}${whole ? ' (all that is left: the whole payment)' : ''}?`,
        confirmLabel: 'Refund',
      }))
    )
      return;
    setSending(true);
    try {
      const { refund, message } = await refundOrder(order._id, { refundId, amountPaise: paise, reason: reason.trim() });
      if (refund.status === 'failed') toast({ title: 'The refund failed', description: message, variant: 'destructive' });
      else toast({ title: 'Refund sent', description: message });
      setAmount('');
      setReason('');
      setRefundId(randomUuid());
      onChanged();
    } catch (error) {
      toast({ title: 'The refund was not sent', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="panel order-section" aria-labelledby="order-refunds">
      <h2 className="section-title" id="order-refunds">
        Refunds
      </h2>
      {refunds.length > 0 && (
        <ol className="timeline">
          {refunds.map((r) => (
            <li key={r._id} className="timeline__item" data-refund-status={r.status}>
              <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
              <span>
                <strong>{paise(r.amountPaise)}</strong> · {REFUND_STATE[r.status]}
                {r.processedAt && <> on {formatDateTime(r.processedAt)}</>}
                <span className="cell-sub">
                  {r.reason} · by {r.requestedBy} · {r.speed} speed{r.razorpayRefundId && <> · {r.razorpayRefundId}</>}
                </span>
                {r.failure && <span className="cell-sub">{r.failure}</span>}
              </span>
            </li>
          ))}
        </ol>
      )}
      {paid ? (
        left > 0 ? (
          <form className="refund-form" onSubmit={submit} noValidate>
            <p className="cell-sub">
              {formatInr(left / 100)} of {paise(amounts.totalPaise)} is left to refund.
            </p>
            <div className="refund-form__fields">
              <div className="field">
                <label htmlFor={amountId}>Amount (₹; empty: all that is left)</label>
                <input id={amountId} inputMode="decimal" value={amount} placeholder={(left / 100).toFixed(2)} onChange={(e) => setAmount(e.target.value)} />
              </div>
              <div className="field">
                <label htmlFor={reasonId}>Reason</label>
                <input id={reasonId} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
              </div>
            </div>
            {problem && (
              <p className="load-error" role="alert">
                {problem}
              </p>
            )}
            <button type="submit" className="btn btn--outline btn--sm" disabled={sending}>
              {sending ? 'Refunding...' : 'Refund'}
            </button>
          </form>
        ) : (
          <p className="cell-sub">The whole payment is refunded.</p>
        )
      ) : (
        <p className="cell-sub">Only a paid order can be refunded.</p>
      )}
    </section>
  );
}
