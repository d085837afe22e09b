// A printed copy's address as the admin shows it (issue 24): whom the courier asks for (the
// address's name and phone: a gift's recipient), and the rest on one line as a courier reads it.
import { INDIAN_STATES, type Order } from '@persona/contracts';

type ShippingAddress = NonNullable<Order['address']>;

/** "Flat 4B, Marine Drive, Opposite the jetty, Kochi, Kerala, 682016, India" (the name and phone apart). */
export function addressLine(address: ShippingAddress): string {
  const state = address.state ? INDIAN_STATES.find((s) => s.code === address.state)?.name : undefined;
  return [address.line1, address.line2, address.landmark, address.city, state, address.zip, address.country].filter(Boolean).join(', ');
}

/** "Meera Nair, +91 94470 12345": whom the courier delivers to. */
export function addressee(address: ShippingAddress): string {
  return [address.name, address.phone].filter(Boolean).join(', ');
}
