// Live payments need a public PUBLIC_URL: every Persona sold prints it in its QR code and links
// (signed, permanent: a copy made with http://localhost:8080 keeps it for good) and every e-mail
// links to it. While it is unset or local the shop refuses live payments (a clear 503 at
// initiation, a warning at start, the reason on the admin dashboard); test mode, and Razorpay's
// own test keys (rzp_test_), sell nothing real and keep working on a developer's machine.
import { localUrlProblem } from '@persona/service-kit';
import type { PaymentMode } from '../payment-provider/payment-provider';

/** What a buyer is told when the shop refuses to take their payment (503 NOT_SELLING). */
export const NOT_SELLING_MESSAGE = 'The shop is not configured to sell yet, so it cannot take payments. Please try again later.';

/** Why live payments are refused (for the log and the dashboard), or null when the shop may sell. */
export function livePaymentsRefusal(mode: PaymentMode, keyId: string | undefined, publicUrl: string): string | null {
  if (mode !== 'live' || keyId?.startsWith('rzp_test_')) return null;
  const problem = localUrlProblem(publicUrl);
  if (!problem) return null;
  return (
    `Live payments are refused: PUBLIC_URL is not set to the shop's public address (${problem}). ` +
    'Every Persona prints it in its QR code and links, for good, and every e-mail links to it. Set PUBLIC_URL to the address buyers use (https://…) and restart the shop.'
  );
}
