// The checkout's PIN directory (issue 24): the town of a PIN code, shipped with the shop (no network
// at run time) and loaded only when a buyer types a PIN code, in its own chunk, so the storefront's
// first load does not carry it. The state comes from the PIN code's first three digits
// (pinCodeStates, which the orders service checks too); the town from the longest prefix this
// directory knows: the head post offices of the big cities, whose PIN codes all begin so. Elsewhere
// the buyer types the town (the state is still filled).
import { pinCodeStates } from '@persona/contracts';
import type { PinPlace } from './checkout-form';

/** A PIN code's beginning → its town. Only prefixes that no other town's PIN codes share. */
const TOWNS: Readonly<Record<string, string>> = {
  '1100': 'New Delhi',
  '1101': 'New Delhi',
  '4000': 'Mumbai',
  '4001': 'Mumbai',
  '4006': 'Thane',
  '4007': 'Navi Mumbai',
  '560': 'Bengaluru',
  '6000': 'Chennai',
  '6001': 'Chennai',
  '7000': 'Kolkata',
  '7001': 'Kolkata',
  '5000': 'Hyderabad',
  '4110': 'Pune',
  '3800': 'Ahmedabad',
  '3020': 'Jaipur',
  '2260': 'Lucknow',
  '2080': 'Kanpur',
  '6820': 'Kochi',
  '6950': 'Thiruvananthapuram',
  '6730': 'Kozhikode',
  '6800': 'Thrissur',
  '8000': 'Patna',
  '7510': 'Bhubaneswar',
  '7810': 'Guwahati',
  '4520': 'Indore',
  '4620': 'Bhopal',
  '4400': 'Nagpur',
  '6410': 'Coimbatore',
  '6250': 'Madurai',
  '5300': 'Visakhapatnam',
  '5200': 'Vijayawada',
  '3950': 'Surat',
  '3900': 'Vadodara',
  '5700': 'Mysuru',
  '5750': 'Mangaluru',
  '6050': 'Puducherry',
  '7371': 'Gangtok',
  '7441': 'Port Blair',
  '2480': 'Dehradun',
  '1710': 'Shimla',
  '1800': 'Jammu',
  '1900': 'Srinagar',
  '8340': 'Ranchi',
  '4920': 'Raipur',
  '1410': 'Ludhiana',
  '1430': 'Amritsar',
  '2210': 'Varanasi',
  '2820': 'Agra',
};

/** What the directory knows of a PIN code: its states, and its town when it knows it. */
export function lookUpPin(pin: string): PinPlace {
  const states = pinCodeStates(pin);
  if (states.length === 0) return { states };
  for (let length = 4; length >= 3; length -= 1) {
    const city = TOWNS[pin.slice(0, length)];
    if (city) return { states, city };
  }
  return { states };
}
