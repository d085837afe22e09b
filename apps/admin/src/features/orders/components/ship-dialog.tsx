// Marking a printed copy shipped asks who carries it and its tracking number (both optional): the
// buyer's e-mail and their Persona page show them. It says whom the courier delivers to (the
// address's name and phone: a gift's recipient), and a gift shipped far ahead of its ship-by date
// (shipsTooEarly: it would arrive long before its day) is warned of and must be confirmed (issue
// 24). A real modal <dialog>: focus moves into it, Escape cancels, and closing gives focus back to
// the control that opened it.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { Order } from '@persona/contracts';
import { formatDate } from '../../../lib/format';
import { earlyGiftShipment } from '../lib/early-shipment';

export interface ShipmentInput {
  carrier?: string;
  trackingNumber?: string;
}

export function ShipDialog({
  order,
  onShip,
  onCancel,
}: {
  order: Order | null;
  onShip: (order: Order, shipment: ShipmentInput) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [early, setEarly] = useState(false);
  const id = useId();
  const tooEarly = order ? earlyGiftShipment(order) : null;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (order && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setCarrier(order.shipment?.carrier ?? '');
      setTracking(order.shipment?.trackingNumber ?? '');
      setEarly(false);
      element.showModal();
    }
    if (!order && element.open) {
      element.close();
      opener.current?.focus();
      opener.current = null;
    }
  }, [order]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!order || (tooEarly !== null && !early)) return;
    const shipment: ShipmentInput = {};
    if (carrier.trim()) shipment.carrier = carrier.trim();
    if (tracking.trim()) shipment.trackingNumber = tracking.trim();
    onShip(order, shipment);
  }

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <form onSubmit={submit}>
        <h2 id={`${id}-title`} className="confirm-dialog__title">
          Mark {order?.personaId} shipped
        </h2>
        <p>The buyer is e-mailed that their printed copy is on its way, with these details if you give them.</p>
        {order?.address && (
          <p className="cell-sub">
            Deliver to {order.address.name}
            {order.address.phone ? `, ${order.address.phone}` : ''}
            {order.shipBy ? ` · ship by ${formatDate(order.shipBy)}` : ''}
          </p>
        )}
        {order && tooEarly !== null && (
          <div className="confirm-dialog__warning" role="alert">
            <p>
              This is a gift for {order.gift?.deliverOn ? formatDate(order.gift.deliverOn) : 'a later day'}: its ship-by date is {formatDate(order.shipBy)},{' '}
              {tooEarly} business days away. Shipped today it may reach {order.gift?.recipientName} more than a week early.
            </p>
            <label>
              <input type="checkbox" checked={early} onChange={(e) => setEarly(e.target.checked)} required />
              <span>Ship it early anyway</span>
            </label>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-carrier`}>Carrier (optional)</label>
          <input id={`${id}-carrier`} value={carrier} maxLength={60} autoComplete="off" onChange={(e) => setCarrier(e.target.value)} placeholder="India Post" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-tracking`}>Tracking number (optional)</label>
          <input
            id={`${id}-tracking`}
            value={tracking}
            maxLength={60}
            autoComplete="off"
            pattern="[A-Za-z0-9][A-Za-z0-9 \-]*"
            title="Letters, digits, spaces and dashes"
            onChange={(e) => setTracking(e.target.value)}
          />
        </div>
        <div className="confirm-dialog__actions">
          <button type="button" className="btn btn--outline" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={tooEarly !== null && !early}>
            {tooEarly !== null ? 'Mark shipped early' : 'Mark shipped'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
