// The checkout's PIN directory (issue 24): the town and state of every PIN code, shipped with the
// shop (pin-directory.json, made from India Post's directory by scripts/pin-directory.mjs; no network
// at run time) and loaded only when a buyer types a PIN code, in its own chunk (about 20 kB
// compressed), so the storefront's first load does not carry it. The states a PIN code can be in
// come from its first three digits (pinCodeStates, which the orders service checks too), the
// directory's own first; the town is its district, or for the big cities' PIN codes the city
// people write (the post files Kochi under Ernakulam). A PIN code the directory lacks (a new one)
// still gets its state; the buyer types the town.
import { pinCodeStates } from '@persona/contracts';
import type { PinPlace } from './checkout-form';
import directory from './pin-directory.json';

/** The big cities' PIN codes by their beginning → the city people write, over the district's name. */
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

/** PIN code → [town, state code], decoded once from the shipped file's "delta.place" pairs. */
let places: Map<number, readonly [string, string]> | undefined;
function placeOf(pin: number): readonly [string, string] | undefined {
  if (!places) {
    places = new Map();
    let code = 0;
    for (const entry of directory.pins.split(' ')) {
      const [delta, place] = entry.split('.');
      code += parseInt(delta!, 36);
      places.set(code, directory.places[parseInt(place!, 36)] as [string, string]);
    }
  }
  return places.get(pin);
}

/** What the directory knows of a PIN code: its states (the likeliest first), and its town when it knows it. */
export function lookUpPin(pin: string): PinPlace {
  const states = pinCodeStates(pin);
  if (states.length === 0) return { states };
  const [town, state] = placeOf(Number(pin)) ?? [];
  // The directory's state first, where the PIN code's first digits allow it.
  const ordered = state && states.includes(state) ? [state, ...states.filter((s) => s !== state)] : [...states];
  for (let length = 4; length >= 3; length -= 1) {
    const city = TOWNS[pin.slice(0, length)];
    if (city) return { states: ordered, city };
  }
  return town ? { states: ordered, city: town } : { states: ordered };
}
