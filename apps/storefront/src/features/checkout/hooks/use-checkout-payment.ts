// The checkout's submit flow (spec §4): initiate → pop-up → verify → success page, with the
// spec §8 toasts and DESIGN §9.10's way to /payment-failed. The page code is the same for
// live Razorpay and the test-mode dialog: both are a PaymentOpener.
import { useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Book, DeliveryType } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { useToast } from '@persona/web-kit/toast';
import { errorMessage } from '@persona/web-kit/api-client';
import { initiatePayment, verifyPayment } from '../api/payments';
import { buildInitiateBody, totalsFromBreakdown, type CheckoutTotals, type CheckoutValues } from '../lib/checkout-form';
import { createIdempotencyKeys } from '../lib/idempotency';
import { buildVerifyBody, initiationErrorText, paymentRequest, verificationErrorText, type PaymentOpener } from '../lib/payment';
import { razorpayOpener } from '../lib/razorpay';
import { clearCheckoutDraft } from '../lib/checkout-draft';
import { clearPersonaDraft } from '../../../lib/persona-draft';

export function useCheckoutPayment(testModeOpener: PaymentOpener, onDismissed: () => void) {
  const navigate = useNavigate();
  const { toast } = useToast();
  const [processing, setProcessing] = useState(false);
  // What the server said it charges (its answer to the initiation), for the summary to show.
  const [charged, setCharged] = useState<{ deliveryType: DeliveryType; coupon: string | null; totals: CheckoutTotals } | null>(null);
  // A ref as well as state: a second click before React re-renders is still ignored.
  const busy = useRef(false);
  const keys = useMemo(() => createIdempotencyKeys(), []);

  const pay = useCallback(
    async (book: Book, values: CheckoutValues, coupon?: string) => {
      if (busy.current) return;
      busy.current = true;
      setProcessing(true);
      const stop = () => {
        busy.current = false;
        setProcessing(false);
      };

      const body = buildInitiateBody(book, values, coupon);
      let init;
      try {
        init = await initiatePayment(body, keys.keyFor(body));
        setCharged({ deliveryType: values.deliveryType, coupon: coupon ?? null, totals: totalsFromBreakdown(init.breakdown, values.deliveryType) });
      } catch (error) {
        toast({ title: 'Payment Error', description: initiationErrorText(error), variant: 'destructive' });
        stop();
        return;
      }

      const opener = init.testMode ? testModeOpener : razorpayOpener;
      let outcome;
      try {
        outcome = await opener.open(paymentRequest(init, book, values));
      } catch (error) {
        // checkout.js could not be loaded: say so; the order stays unpaid and the form usable.
        toast({ title: 'Payment Error', description: errorMessage(error), variant: 'destructive' });
        stop();
        return;
      }

      if (outcome.kind === 'dismissed') {
        // Razorpay's ondismiss: nothing was paid; the filled form is usable again.
        stop();
        onDismissed();
        return;
      }
      if (outcome.kind === 'failed') {
        toast({ title: 'Payment Failed', description: outcome.error.description || 'The payment was declined.', variant: 'destructive' });
        void navigate(paths.paymentFailedFor(book._id));
        return;
      }

      try {
        const verified = await verifyPayment(buildVerifyBody(init, outcome.response, values));
        // Paid: the buyer's details are not kept in the tab any longer.
        clearCheckoutDraft(window.sessionStorage);
        clearPersonaDraft(window.sessionStorage);
        toast({ title: 'Payment Successful', description: 'Your order has been placed!' });
        // The receipt travels in the navigation's state: this tab's history only, never the address.
        void navigate(paths.paymentSuccessFor(verified.data.personaId, verified.data.orderId), { state: { receipt: verified.data.receipt } });
      } catch (error) {
        toast({ title: 'Verification Failed', description: verificationErrorText(error), variant: 'destructive' });
        void navigate(paths.paymentFailedFor(book._id));
      }
    },
    [keys, navigate, onDismissed, testModeOpener, toast],
  );

  return { pay, processing, charged };
}
