// Live mode: Razorpay's checkout.js, loaded once on demand, behind the PaymentOpener interface.
import { razorpayOptions, type PaymentFailure, type PaymentOpener, type PaymentOutcome, type RazorpayOptions } from './payment';

export const RAZORPAY_SCRIPT_URL = 'https://checkout.razorpay.com/v1/checkout.js';

interface RazorpayInstance {
  open(): void;
  close?(): void;
  on(event: 'payment.failed', listener: (response: { error: PaymentFailure }) => void): void;
}
type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

let scriptPromise: Promise<RazorpayConstructor> | null = null;

/** Adds the script tag once; a failed load is forgotten so the next attempt tries again. */
export function loadRazorpay(): Promise<RazorpayConstructor> {
  if (window.Razorpay) return Promise.resolve(window.Razorpay);
  scriptPromise ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = RAZORPAY_SCRIPT_URL;
    script.async = true;
    script.onload = () => (window.Razorpay ? resolve(window.Razorpay) : reject(new Error('The payment window could not be loaded.')));
    script.onerror = () => {
      script.remove();
      reject(new Error('The payment window could not be loaded. Please check your connection and try again.'));
    };
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    scriptPromise = null;
    throw error;
  });
  return scriptPromise;
}

export const razorpayOpener: PaymentOpener = {
  async open(request) {
    const Razorpay = await loadRazorpay();
    return new Promise<PaymentOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: PaymentOutcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const rzp = new Razorpay(
        razorpayOptions(request, {
          onPaid: (response) => settle({ kind: 'paid', response }),
          onDismiss: () => settle({ kind: 'dismissed' }),
        }),
      );
      rzp.on('payment.failed', (response) => {
        settle({ kind: 'failed', error: response.error });
        try {
          rzp.close?.();
        } catch {
          /* the pop-up may already be gone */
        }
      });
      rzp.open();
    });
  },
};
