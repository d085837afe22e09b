// Coupons (issue 23): the owner's codes, made and changed here (each change audited; a new code's
// id is made with the form, so a second press creates it once), switched off and on, and each
// code's redemptions: which order, whose e-mail, what it took off, and whether it is reserved (a
// checkout under way), final (paid) or released (the payment failed, the checkout was left, or the
// order was refunded in full).
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Coupon, CouponRedemption } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { randomUuid } from '@persona/web-kit/random-uuid';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { ListView } from '../../../components/list-view';
import { PageHeader } from '../../../components/page-header';
import { paths } from '../../../config/paths';
import { formatDateTime, formatInr } from '../../../lib/format';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { couponRedemptions, listBooksForCoupons, listCoupons, saveCoupon } from '../api/coupons';
import { couponBodyFrom, EMPTY_COUPON_FORM, offerText, valuesFromCoupon, type CouponFormValues } from '../lib/coupon-form';

const STATE_WORDS: Record<CouponRedemption['state'], { label: string; tone: string }> = {
  reserved: { label: 'Reserved', tone: 'info' },
  final: { label: 'Final', tone: 'success' },
  released: { label: 'Released', tone: 'muted' },
};

const paise = (amount: number) => formatInr(amount / 100);

function validity(coupon: Coupon): string {
  if (coupon.validFrom && coupon.validTo) return `${formatDateTime(coupon.validFrom)} to ${formatDateTime(coupon.validTo)}`;
  if (coupon.validFrom) return `from ${formatDateTime(coupon.validFrom)}`;
  if (coupon.validTo) return `until ${formatDateTime(coupon.validTo)}`;
  return 'no end date';
}

export function CouponsPage() {
  usePageTitle('Coupons');
  const coupons = useAsync('coupons', listCoupons);
  useFailureToast(coupons.error, 'Failed to load coupons');
  const books = useAsync('coupon-books', listBooksForCoupons);
  const { toast } = useToast();
  const [editing, setEditing] = useState<Coupon | null>(null);
  const [values, setValues] = useState<CouponFormValues>(EMPTY_COUPON_FORM);
  // A new code's id is made with the form: a second press, or a retry after a lost answer, is one code.
  const [couponId, setCouponId] = useState(randomUuid);
  const [saving, setSaving] = useState(false);
  const [switching, setSwitching] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [shown, setShown] = useState<Coupon | null>(null);
  const ids = {
    heading: useId(),
    code: useId(),
    percent: useId(),
    amount: useId(),
    minOrder: useId(),
    from: useId(),
    to: useId(),
    total: useId(),
    perEmail: useId(),
    books: useId(),
  };
  const set = <K extends keyof CouponFormValues>(key: K, value: CouponFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  function startEdit(coupon: Coupon) {
    setEditing(coupon);
    setValues(valuesFromCoupon(coupon));
    setProblem(null);
  }

  function reset() {
    setEditing(null);
    setValues(EMPTY_COUPON_FORM);
    setCouponId(randomUuid());
    setProblem(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const checked = couponBodyFrom(values);
    if ('problem' in checked) return setProblem(checked.problem);
    setProblem(null);
    setSaving(true);
    try {
      const saved = await saveCoupon(checked.body, editing ? { editing: editing._id } : { couponId });
      toast({ title: editing ? 'Coupon updated' : 'Coupon created', description: `${saved.code}: ${offerText(saved)}` });
      reset();
      coupons.reload();
    } catch (error) {
      toast({ title: 'The coupon was not saved', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  /** Switches a code off (or on again): every other setting as it is. */
  async function switchActive(coupon: Coupon) {
    if (switching) return;
    const checked = couponBodyFrom({ ...valuesFromCoupon(coupon), active: !coupon.active });
    if ('problem' in checked) return;
    setSwitching(coupon._id);
    try {
      await saveCoupon(checked.body, { editing: coupon._id });
      toast({ title: coupon.active ? `${coupon.code} deactivated` : `${coupon.code} active again` });
      if (editing?._id === coupon._id) reset();
      coupons.reload();
    } catch (error) {
      toast({ title: 'The coupon was not changed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSwitching(null);
    }
  }

  const bookList = books.data ?? [];
  return (
    <>
      <PageHeader title="Coupons" />
      <div className="split">
        <form className="panel" onSubmit={submit} aria-labelledby={ids.heading} noValidate>
          <h2 id={ids.heading} className="section-title">
            {editing ? `Edit ${editing.code}` : 'Add a code'}
          </h2>
          <div className="field">
            <label htmlFor={ids.code}>Code</label>
            <input id={ids.code} name="code" maxLength={32} autoCapitalize="characters" value={values.code} onChange={(e) => set('code', e.target.value)} />
            <p className="form-note">Letters, digits and dashes; buyers may type it in any case.</p>
          </div>
          <fieldset className="segmented" aria-label="What the code takes off">
            <label className="checkbox">
              <input type="radio" name="kind" checked={values.kind === 'percent'} onChange={() => set('kind', 'percent')} /> Percent off
            </label>
            <label className="checkbox">
              <input type="radio" name="kind" checked={values.kind === 'amount'} onChange={() => set('kind', 'amount')} /> Amount off
            </label>
          </fieldset>
          <div className="form-grid">
            {values.kind === 'percent' ? (
              <div className="field">
                <label htmlFor={ids.percent}>Percent off the book's price (1–100)</label>
                <input id={ids.percent} inputMode="numeric" value={values.percentOff} onChange={(e) => set('percentOff', e.target.value)} />
              </div>
            ) : (
              <div className="field">
                <label htmlFor={ids.amount}>Amount off the book's price (₹)</label>
                <input id={ids.amount} inputMode="decimal" value={values.amountOff} onChange={(e) => set('amountOff', e.target.value)} />
              </div>
            )}
            <div className="field">
              <label htmlFor={ids.minOrder}>Minimum order (₹; empty: none)</label>
              <input id={ids.minOrder} inputMode="decimal" value={values.minOrder} onChange={(e) => set('minOrder', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={ids.from}>Valid from (India time; empty: now)</label>
              <input id={ids.from} type="datetime-local" value={values.validFrom} onChange={(e) => set('validFrom', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={ids.to}>Valid until (India time; empty: no end)</label>
              <input id={ids.to} type="datetime-local" value={values.validTo} onChange={(e) => set('validTo', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={ids.total}>Uses in all (empty: no limit)</label>
              <input id={ids.total} inputMode="numeric" value={values.totalLimit} onChange={(e) => set('totalLimit', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={ids.perEmail}>Uses per e-mail (empty: no limit)</label>
              <input id={ids.perEmail} inputMode="numeric" value={values.perEmailLimit} onChange={(e) => set('perEmailLimit', e.target.value)} />
            </div>
          </div>
          <div className="field">
            <label htmlFor={ids.books}>Books (none chosen: every book)</label>
            <select
              id={ids.books}
              multiple
              size={Math.min(6, Math.max(3, bookList.length))}
              value={values.bookIds}
              onChange={(e) =>
                set(
                  'bookIds',
                  Array.from(e.target.selectedOptions, (o) => o.value),
                )
              }
            >
              {bookList.map((book) => (
                <option key={book._id} value={book._id}>
                  {book.title} — {book.author}
                </option>
              ))}
            </select>
            {books.status === 'error' && <p className="form-note">The books could not be loaded: the code will be for every book unless you try again.</p>}
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={values.active} onChange={(e) => set('active', e.target.checked)} /> Active
          </label>
          {problem && (
            <p className="load-error" role="alert">
              {problem}
            </p>
          )}
          <div className="form-actions">
            <button type="submit" className="btn btn--primary" disabled={saving}>
              {saving ? 'Saving...' : editing ? 'Update Coupon' : 'Create Coupon'}
            </button>
            {editing && (
              <button type="button" className="btn btn--outline" onClick={reset}>
                Cancel
              </button>
            )}
          </div>
        </form>

        <section className="panel" aria-label="Codes">
          <ListView list={coupons} what="Coupons" loading="Loading coupons..." empty="No codes yet. Add the first one.">
            {(list) => (
              <ul className="item-list">
                {list.map((coupon) => (
                  <li key={coupon._id} className="item-list__item" data-coupon={coupon.code}>
                    <div>
                      <p className="item-list__title">
                        {coupon.code} <span className={`badge badge--${coupon.active ? 'success' : 'muted'}`}>{coupon.active ? 'Active' : 'Inactive'}</span>
                      </p>
                      <p className="item-list__text">
                        {offerText(coupon)}
                        {coupon.minOrderPaise > 0 && <> · orders of {paise(coupon.minOrderPaise)} or more</>} ·{' '}
                        {coupon.bookIds.length === 0 ? 'every book' : `${coupon.bookIds.length} book${coupon.bookIds.length === 1 ? '' : 's'}`}
                      </p>
                      <p className="item-list__text">
                        Used {coupon.used}
                        {coupon.totalLimit !== null && <> of {coupon.totalLimit}</>}
                        {coupon.perEmailLimit !== null && <> · {coupon.perEmailLimit} per e-mail</>} · {validity(coupon)}
                      </p>
                    </div>
                    <div className="item-list__actions">
                      <button type="button" className="btn btn--outline btn--sm" onClick={() => startEdit(coupon)}>
                        Edit<span className="visually-hidden"> {coupon.code}</span>
                      </button>
                      <button type="button" className="btn btn--outline btn--sm" onClick={() => switchActive(coupon)} disabled={switching === coupon._id}>
                        {coupon.active ? 'Deactivate' : 'Activate'}
                        <span className="visually-hidden"> {coupon.code}</span>
                      </button>
                      <button type="button" className="btn btn--outline btn--sm" onClick={() => setShown(coupon)} aria-pressed={shown?._id === coupon._id}>
                        Redemptions<span className="visually-hidden"> of {coupon.code}</span>
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </ListView>
        </section>
      </div>
      {shown && <Redemptions key={shown._id} coupon={shown} />}
    </>
  );
}

function Redemptions({ coupon }: { coupon: Coupon }) {
  const redemptions = useAsync(`coupon-redemptions:${coupon._id}`, (signal) => couponRedemptions(coupon._id, signal));
  useFailureToast(redemptions.error, 'Failed to load the redemptions');
  const heading = useId();
  return (
    <section className="panel" aria-labelledby={heading}>
      <h2 className="section-title" id={heading}>
        Redemptions of {coupon.code}
      </h2>
      <ListView list={redemptions} what="Redemptions" loading="Loading redemptions..." empty="Nobody has used this code yet.">
        {(list) => (
          <div className="table-wrap">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Order</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Discount</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {list.map((r) => (
                  <tr key={r.orderId} data-redemption-state={r.state}>
                    <td>
                      <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                    </td>
                    <td>
                      <Link to={paths.order(r.orderId)}>{r.personaId}</Link>
                    </td>
                    <td>{r.email}</td>
                    <td>{paise(r.discountPaise)}</td>
                    <td>
                      <span className={`badge badge--${STATE_WORDS[r.state].tone}`}>{STATE_WORDS[r.state].label}</span>
                      {r.state !== 'reserved' && <span className="cell-sub">since {formatDateTime(r.updatedAt)}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListView>
    </section>
  );
}
