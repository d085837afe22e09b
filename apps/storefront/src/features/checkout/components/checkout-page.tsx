// /checkout/:id: the order summary and the buyer's form (spec §2, §3, §5), paid through
// Razorpay or, in test mode, the test-mode dialog (DESIGN §4).
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Book, CouponPrice, DeliveryType } from '@persona/contracts';
import { formatInr, GIFT_MAX_DAYS_AHEAD, GIFT_MESSAGE_MAX_CHARS, INDIAN_STATES, PIN_CODE, SHIPPING_COUNTRY, shopDate } from '@persona/contracts';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { paths } from '../../../config/paths';
import { isMissingBook, useBook } from '../../../hooks/use-book';
import { errorMessage } from '@persona/web-kit/api-client';
import { BookCover } from '../../../components/book/book-cover';
import { BookLoadError, BookNotFound } from '../../../components/book/book-states';
import { Skeleton } from '../../../components/ui/skeleton';
import { useCheckoutPayment } from '../hooks/use-checkout-payment';
import { priceCoupon } from '../api/coupons';
import {
  checkoutDelivery,
  checkoutTotals,
  couponCodeFrom,
  emailForCoupon,
  EMPTY_CHECKOUT,
  totalsFromBreakdown,
  fillFromPin,
  firstInvalidField,
  followShipping,
  formatDeliveryDay,
  pinPlaceLabel,
  validateCheckout,
  withShippingDefaults,
  type CheckoutErrors,
  type PinFill,
  type PinPlace,
  type CheckoutField,
  type CheckoutValues,
} from '../lib/checkout-form';
import { readCheckoutDraft, saveCheckoutDraft } from '../lib/checkout-draft';
import { checkoutWithDraft, draftFromCheckout, readPersonaDraft, savePersonaDraft } from '../../../lib/persona-draft';
import { personaFileNames, personaFormats } from '../../../lib/persona-formats';
import { useTestModePayment } from './test-mode-dialog';
import { Field } from '../../../components/ui/field';
import { DedicationPreview } from '../../../components/persona/dedication-preview';
import './checkout.css';

const HEAD = { title: 'Checkout | Persona Books', description: 'Buy your Persona: a personalised, author-signed copy of the book.', robots: 'noindex' };

export function CheckoutPage() {
  const { id = '' } = useParams();
  const book = useBook(id);
  useDocumentHead(HEAD);

  if (book.status === 'error') {
    return (
      <div className="container">
        {isMissingBook(book.error) ? (
          <BookNotFound />
        ) : (
          <BookLoadError title="Book not found" message={`We couldn't load this book. ${errorMessage(book.error)}`} onRetry={book.reload} />
        )}
      </div>
    );
  }
  return <Checkout book={book.status === 'success' ? book.data : null} />;
}

function Checkout({ book }: { book: Book | null }) {
  const [values, setValues] = useState<CheckoutValues>(EMPTY_CHECKOUT);
  const [errors, setErrors] = useState<CheckoutErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const submitRef = useRef<HTMLButtonElement>(null);
  const fieldRefs = useRef<Partial<Record<CheckoutField, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null>>>({});
  const testMode = useTestModePayment();
  const onDismissed = useCallback(() => {
    // Focus returns to the (enabled again) submit button, not to the top of the page.
    window.setTimeout(() => submitRef.current?.focus(), 0);
  }, []);
  const { pay, processing, charged } = useCheckoutPayment(testMode.opener, onDismissed);

  // A coupon code as the shop priced it for this book and format (the server's figures).
  const [coupon, setCoupon] = useState<{ price: CouponPrice; deliveryType: DeliveryType } | null>(null);
  const applied = coupon && coupon.deliveryType === values.deliveryType ? coupon.price : null;
  const computed = book ? (applied ? totalsFromBreakdown(applied.breakdown, values.deliveryType) : checkoutTotals(book, values.deliveryType)) : null;
  // Once the shop has answered, its charge is what the summary shows (the price may have changed since the page loaded).
  const totals = charged && charged.deliveryType === values.deliveryType && charged.coupon === (coupon?.price.code ?? null) ? charged.totals : computed;
  const priceChanged = Boolean(computed && totals && computed.total !== totals.total);
  const formats = book ? personaFormats(book) : null;
  // The files a Persona of this book comes as ("PDF + EPUB", or the publisher's PDF alone).
  const files = book ? personaFileNames(book) : 'PDF';

  // What the buyer typed before a declined payment (this tab only), restored after the first
  // render so the server's HTML and the hydrated form agree.
  // The name (and a gift's message) typed in the book page's preview comes in over it: it is the
  // newer, as this page writes it back whenever what it prints changes.
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    const draft = readCheckoutDraft(window.sessionStorage);
    setValues(withShippingDefaults(checkoutWithDraft(draft ?? EMPTY_CHECKOUT, readPersonaDraft(window.sessionStorage), shopDate(new Date()))));
    setRestored(true);
  }, []);
  const printed = draftFromCheckout(values);
  useEffect(() => {
    if (restored) savePersonaDraft(window.sessionStorage, { name: printed.name, message: printed.message });
  }, [restored, printed.name, printed.message]);

  // After a first submit, errors follow the buyer's corrections as they type.
  useEffect(() => {
    if (submitted) setErrors(validateCheckout(values));
  }, [submitted, values]);

  // The address's name and phone follow the buyer (or a gift's recipient) until typed over.
  function update(field: Exclude<keyof CheckoutValues, 'isGift'>, value: string) {
    setValues((current) => followShipping(current, { ...current, [field]: value }));
  }

  function setGift(isGift: boolean) {
    // The delivery day starts as today, the shop's (India's) day.
    setValues((current) => followShipping(current, { ...current, isGift, deliverOn: current.deliverOn || shopDate(new Date()) }));
  }

  // A whole PIN code fills the state and, where the directory knows it, the city; the directory is
  // its own chunk, loaded when first needed.
  const [pinPlace, setPinPlace] = useState<{ pin: string; place: PinPlace } | null>(null);
  const pinFilled = useRef<PinFill | null>(null);
  const pin = values.zip.trim();
  const physicalCopy = values.deliveryType === 'physical';
  useEffect(() => {
    if (!physicalCopy || !PIN_CODE.test(pin)) return;
    let current = true;
    void import('../lib/pin-directory').then(({ lookUpPin }) => {
      if (!current) return;
      const place = lookUpPin(pin);
      setPinPlace({ pin, place });
      setValues((now) => {
        if (now.zip.trim() !== pin) return now;
        const filled = fillFromPin(now, place, pinFilled.current);
        pinFilled.current = filled.filled;
        return filled.values;
      });
    });
    return () => {
      current = false;
    };
  }, [pin, physicalCopy]);
  const pinLabel = pinPlace && pinPlace.pin === pin ? pinPlaceLabel(pinPlace.place) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Spec §5: ignored while the book has not loaded; spec §4: ignored while processing.
    if (!book || processing) return;
    setSubmitted(true);
    const found = validateCheckout(values);
    setErrors(found);
    const first = firstInvalidField(found, values.deliveryType, values.isGift);
    if (first) {
      fieldRefs.current[first]?.focus();
      return;
    }
    saveCheckoutDraft(window.sessionStorage, values);
    void pay(book, values, coupon?.price.code);
  }

  const field = (name: CheckoutField) => ({
    name,
    value: values[name],
    error: errors[name],
    disabled: processing,
    inputRef: (el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null) => {
      fieldRefs.current[name] = el;
    },
    onChange: (value: string) => update(name, value),
  });

  const physical = values.deliveryType === 'physical';
  const today = shopDate(new Date());
  // When a printed copy would arrive, by the shop's own rule (the order's ship-by date is reckoned so at payment).
  const delivery = checkoutDelivery(values);
  const giftDay = values.isGift ? values.deliverOn.trim() : '';

  return (
    <div className="checkout container">
      <h1 className="checkout__title">Checkout</h1>
      <div className="checkout__grid">
        <section className="checkout__summary" aria-labelledby="order-summary-heading" aria-busy={book ? undefined : 'true'}>
          <h2 id="order-summary-heading" className="checkout__section-title">
            Order summary
          </h2>
          {book && totals ? (
            <>
              <div className="checkout__cover">
                <BookCover title={book.title} author={book.author} url={book.coverImage?.url} width={240} height={360} eager sizes="10rem" />
              </div>
              <dl className="checkout__lines">
                <div className="checkout__line">
                  <dt>Title</dt>
                  <dd>{book.title}</dd>
                </div>
                <div className="checkout__line">
                  <dt>Author</dt>
                  <dd>{book.author}</dd>
                </div>
                <div className="checkout__line">
                  <dt>Base Price</dt>
                  <dd className="price">{formatInr(totals.base)}</dd>
                </div>
                {totals.showFees && (
                  <>
                    <div className="checkout__line">
                      <dt>Printing Fee</dt>
                      <dd className="price">{formatInr(totals.printing)}</dd>
                    </div>
                    <div className="checkout__line">
                      <dt>Delivery Fee</dt>
                      <dd className="price">{formatInr(totals.delivery)}</dd>
                    </div>
                  </>
                )}
                {totals.discount !== undefined && (
                  <div className="checkout__line checkout__line--discount">
                    <dt>Discount{coupon ? ` (${coupon.price.code})` : ''}</dt>
                    <dd className="price">−{formatInr(totals.discount)}</dd>
                  </div>
                )}
                <div className="checkout__line checkout__line--total">
                  <dt>Total</dt>
                  <dd className="price" aria-live="polite">
                    {formatInr(totals.total)}
                  </dd>
                </div>
              </dl>
              {priceChanged && (
                <p className="checkout__notice" role="status">
                  The price changed since this page opened: the shop charges {formatInr(totals.total)}.
                </p>
              )}
              <CouponForm
                bookId={book._id}
                deliveryType={values.deliveryType}
                email={values.email}
                applied={coupon}
                disabled={processing}
                onChange={setCoupon}
              />
            </>
          ) : (
            <>
              <p className="visually-hidden" role="status">
                Loading book
              </p>
              <Skeleton className="checkout__cover-skeleton" />
              <Skeleton className="skeleton--line" style={{ width: '80%', marginTop: '1rem' }} />
              <Skeleton className="skeleton--line" style={{ width: '60%', marginTop: '0.75rem' }} />
              <Skeleton className="skeleton--line" style={{ width: '70%', marginTop: '0.75rem' }} />
            </>
          )}
        </section>

        <form className="checkout__form" onSubmit={submit} noValidate aria-labelledby="buyer-details-heading">
          <h2 id="buyer-details-heading" className="checkout__section-title">
            Your details
          </h2>
          <p className="checkout__hint">All fields are required unless marked optional.</p>
          <TextField label="Full Name" autoComplete="name" {...field('fullName')} />
          <TextField label="Email" type="email" autoComplete="email" inputMode="email" {...field('email')} />
          <TextField label="Phone Number" type="tel" autoComplete="tel" inputMode="tel" {...field('phone')} />
          {!physical && <StateField label="State (optional: named on your tax invoice)" {...field('state')} />}

          <fieldset className="checkout__gift" disabled={processing}>
            <legend className="visually-hidden">Gift</legend>
            <label className="checkout__gift-toggle">
              <input type="checkbox" name="isGift" checked={values.isGift} onChange={(event) => setGift(event.target.checked)} />
              <span>This is a gift</span>
            </label>
            <p className="checkout__hint">
              {values.isGift
                ? 'Their name is printed in the book instead of yours, with your message. You get the receipt; they get the Persona by e-mail on the day you choose.'
                : "Print someone else's name and a message in the book, and we e-mail it to them on the day you choose."}
            </p>
            {values.isGift && (
              <>
                <TextField label="Recipient's name" autoComplete="off" {...field('recipientName')} />
                <MessageField {...field('message')} />
                <TextField label="Recipient's email (optional)" type="email" autoComplete="off" inputMode="email" {...field('recipientEmail')} />
                <TextField label="Deliver on" type="date" min={today} max={shopDate(new Date(), -GIFT_MAX_DAYS_AHEAD)} {...field('deliverOn')} />
              </>
            )}
          </fieldset>

          {book && (
            <section className="checkout__preview" aria-labelledby="dedication-preview-heading">
              <h3 id="dedication-preview-heading" className="checkout__preview-title">
                Your dedication page
              </h3>
              <DedicationPreview
                bookId={book._id}
                name={values.isGift ? values.recipientName : values.fullName}
                message={values.isGift ? values.message : ''}
                hint={values.isGift ? "Type the recipient's name to see their page" : 'Type your name to see your page'}
              />
            </section>
          )}

          <fieldset className="checkout__delivery" disabled={processing}>
            <legend>Delivery</legend>
            <DeliveryOption
              value="digital"
              label="Digital"
              detail={`Your personalised ${files} to download at once`}
              price={formats ? formatInr(formats[0].total) : null}
              checked={!physical}
              onChange={(v) => update('deliveryType', v)}
            />
            <DeliveryOption
              value="physical"
              label="Physical"
              detail={`A printed copy, arriving by ${formatDeliveryDay(delivery.arrivesBy)}, and the ${files} at once`}
              price={formats ? formatInr(formats[1].total) : null}
              checked={physical}
              onChange={(v) => update('deliveryType', v)}
            />
          </fieldset>

          {physical && (
            <p className={`checkout__arrival${delivery.late && giftDay ? ' checkout__arrival--late' : ''}`} role="status">
              {giftDay && delivery.late
                ? `${formatDeliveryDay(giftDay)} is too close for the post: the printed copy may arrive after it, by ${formatDeliveryDay(delivery.arrivesBy)}. The e-book reaches them on the day.`
                : `Arrives by ${formatDeliveryDay(delivery.arrivesBy)}${giftDay ? ', in time for the day you chose' : ''}.`}
            </p>
          )}

          {physical && (
            <fieldset className="checkout__address">
              <legend>Delivery address</legend>
              <p className="checkout__hint">Printed copies are delivered within India.</p>
              <div className="checkout__row">
                <TextField
                  label={values.isGift ? "Recipient's name for the courier" : 'Name for the courier'}
                  autoComplete={values.isGift ? 'off' : 'shipping name'}
                  {...field('shipName')}
                />
                <TextField
                  label={values.isGift ? "Recipient's phone" : 'Phone for the courier'}
                  type="tel"
                  inputMode="tel"
                  autoComplete={values.isGift ? 'off' : 'shipping tel'}
                  {...field('shipPhone')}
                />
              </div>
              <TextField
                label="PIN code"
                autoComplete="shipping postal-code"
                inputMode="numeric"
                maxLength={6}
                hint={pinLabel ? `Found: ${pinLabel}` : 'Six digits: the city and state are filled from it'}
                {...field('zip')}
              />
              <div className="checkout__row">
                <TextField label="City" autoComplete="shipping address-level2" {...field('city')} />
                <StateField label="State" {...field('state')} />
              </div>
              <TextField label="Address Line 1" autoComplete="shipping address-line1" {...field('line1')} />
              <TextField label="Address Line 2 (optional)" autoComplete="shipping address-line2" {...field('line2')} />
              <TextField label="Landmark (optional)" autoComplete="off" {...field('landmark')} />
              <p className="checkout__country">
                <span className="checkout__country-label">Country</span> {SHIPPING_COUNTRY}
              </p>
            </fieldset>
          )}

          <button ref={submitRef} type="submit" className="btn btn--primary btn--lg checkout__submit" disabled={processing || !book}>
            {processing ? 'Processing...' : `Complete Purchase - ${totals ? formatInr(totals.total) : '₹…'}`}
          </button>
          <p className="checkout__secure">Payments are processed securely by Razorpay.</p>
          <p className="checkout__terms">
            By completing your purchase you agree to our <Link to={paths.terms}>Terms of Service</Link> and{' '}
            <Link to={paths.refunds}>Refund and Cancellation Policy</Link>.
          </p>
        </form>
      </div>
      {testMode.dialog}
    </div>
  );
}

/**
 * The coupon code: priced by the shop for this book, format and e-mail before paying (the discount
 * and the new total, or why not), priced again when the format changes.
 */
function CouponForm({
  bookId,
  deliveryType,
  email,
  applied,
  disabled,
  onChange,
}: {
  bookId: string;
  deliveryType: DeliveryType;
  email: string;
  applied: { price: CouponPrice; deliveryType: DeliveryType } | null;
  disabled: boolean;
  onChange: (coupon: { price: CouponPrice; deliveryType: DeliveryType } | null) => void;
}) {
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pricing, setPricing] = useState(false);
  const inputId = useId();
  const problemId = useId();

  const price = useCallback(
    async (code: string, format: DeliveryType) => {
      setPricing(true);
      try {
        const answer = await priceCoupon({ code, book: bookId, deliveryType: format, email: emailForCoupon(email) });
        if (answer.applies) {
          setProblem(null);
          onChange({ price: answer, deliveryType: format });
        } else {
          setProblem(answer.message);
          onChange(null);
        }
      } catch (error) {
        setProblem(errorMessage(error));
        onChange(null);
      } finally {
        setPricing(false);
      }
    },
    [bookId, email, onChange],
  );

  // Another format has other amounts (and a minimum may no longer be met): priced again.
  useEffect(() => {
    if (applied && applied.deliveryType !== deliveryType && !pricing) void price(applied.price.code, deliveryType);
  }, [applied, deliveryType, price, pricing]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pricing || disabled) return;
    const code = couponCodeFrom(typed);
    if (!code) {
      setProblem('A code is letters, digits and dashes, as it was given to you');
      onChange(null);
      return;
    }
    void price(code, deliveryType);
  }

  return (
    <form className="checkout__coupon" onSubmit={submit} noValidate aria-label="Coupon code">
      <label htmlFor={inputId} className="checkout__coupon-label">
        Coupon code (optional)
      </label>
      <div className="checkout__coupon-row">
        <input
          id={inputId}
          name="coupon"
          className="text-input"
          value={typed}
          maxLength={32}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          disabled={disabled}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? problemId : undefined}
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit" className="btn btn--outline" disabled={disabled || pricing}>
          {pricing ? 'Applying...' : 'Apply'}
        </button>
      </div>
      {applied && !problem && (
        <p className="checkout__coupon-applied" role="status">
          {applied.price.message}{' '}
          <button
            type="button"
            className="checkout__coupon-remove"
            disabled={disabled}
            onClick={() => {
              onChange(null);
              setTyped('');
            }}
          >
            Remove
          </button>
        </p>
      )}
      {problem && (
        <p id={problemId} className="field__error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

interface TextFieldProps {
  label: string;
  name: CheckoutField;
  value: string;
  error?: string;
  disabled: boolean;
  type?: 'text' | 'email' | 'tel' | 'date';
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric';
  maxLength?: number;
  min?: string;
  max?: string;
  /** A line under the field (what a PIN code was found to be). */
  hint?: string;
  inputRef: (el: HTMLInputElement | null) => void;
  onChange: (value: string) => void;
}

/** A gift's message: a few lines, counted as the buyer types. */
function MessageField({
  name,
  value,
  error,
  disabled,
  inputRef,
  onChange,
}: Omit<TextFieldProps, 'label' | 'inputRef'> & { inputRef: (el: HTMLTextAreaElement | null) => void }) {
  const count = [...value.trim()].length;
  const counterId = useId();
  return (
    <Field label="Message (optional)" error={error}>
      {(control) => (
        <>
          <textarea
            ref={inputRef}
            {...control}
            aria-describedby={[control['aria-describedby'], counterId].filter(Boolean).join(' ')}
            name={name}
            className="text-input checkout__message"
            rows={4}
            value={value}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value)}
          />
          <p id={counterId} className={`checkout__counter${count > GIFT_MESSAGE_MAX_CHARS ? ' checkout__counter--over' : ''}`}>
            {count}/{GIFT_MESSAGE_MAX_CHARS} characters, printed on the dedication page
          </p>
        </>
      )}
    </Field>
  );
}

function TextField({
  label,
  name,
  value,
  error,
  disabled,
  type = 'text',
  autoComplete,
  inputMode,
  maxLength,
  min,
  max,
  hint,
  inputRef,
  onChange,
}: TextFieldProps) {
  const hintId = useId();
  return (
    <Field label={label} error={error}>
      {(control) => (
        <>
          <input
            ref={inputRef}
            {...control}
            aria-describedby={[control['aria-describedby'], hint ? hintId : undefined].filter(Boolean).join(' ') || undefined}
            name={name}
            type={type}
            className="text-input"
            value={value}
            required={!label.endsWith('(optional)')}
            disabled={disabled}
            autoComplete={autoComplete}
            inputMode={inputMode}
            maxLength={maxLength}
            min={min}
            max={max}
            onChange={(event) => onChange(event.target.value)}
          />
          {hint && (
            <p id={hintId} className="checkout__field-hint" aria-live="polite">
              {hint}
            </p>
          )}
        </>
      )}
    </Field>
  );
}

function DeliveryOption({
  value,
  label,
  detail,
  price,
  checked,
  onChange,
}: {
  value: DeliveryType;
  label: string;
  detail: string;
  /** Everything included, as the total will read; null while the book loads. */
  price: string | null;
  checked: boolean;
  onChange: (value: DeliveryType) => void;
}) {
  const id = useId();
  return (
    <label className={`delivery-option${checked ? ' delivery-option--checked' : ''}`}>
      <input
        type="radio"
        name="deliveryType"
        value={value}
        checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-price ${id}-detail`}
        onChange={() => onChange(value)}
      />
      <span className="delivery-option__text">
        <span id={`${id}-label`} className="delivery-option__label">
          {label}
        </span>
        <span id={`${id}-detail`} className="delivery-option__detail">
          {detail}
        </span>
      </span>
      <span id={`${id}-price`} className="delivery-option__price price">
        {price ?? '₹…'}
      </span>
    </label>
  );
}

/**
 * The buyer's state, for the tax invoice's place of supply (GST): optional for an e-book; a printed
 * copy's is its address's, required and filled from the PIN code.
 */
function StateField({
  label,
  name,
  value,
  error,
  disabled,
  inputRef,
  onChange,
}: Omit<TextFieldProps, 'inputRef'> & { inputRef: (el: HTMLSelectElement | null) => void }) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <select
          ref={inputRef}
          {...control}
          name={name}
          className="text-input"
          value={value}
          required={!label.includes('optional')}
          disabled={disabled}
          autoComplete="address-level1"
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">Choose your state</option>
          {INDIAN_STATES.map((state) => (
            <option key={state.code} value={state.code}>
              {state.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
