// India's states and union territories with their GST state codes: the checkout's state picker
// (the buyer's state is an invoice's place of supply) and the orders service's tax (issue 23).
import { Type } from '@sinclair/typebox';

export interface IndianState {
  code: string;
  name: string;
  kind: 'state' | 'union-territory';
}

/**
 * The states and union territories of today with their GST state codes, for the checkout's state
 * picker. Retired codes are left out: 25 (Daman and Diu, merged into 26 in 2020) and 28 (undivided
 * Andhra Pradesh, now 37), as are 97 (other territory) and 96 (other country), which are nobody's home.
 */
export const INDIAN_STATES: readonly IndianState[] = [
  { code: '01', name: 'Jammu and Kashmir', kind: 'union-territory' },
  { code: '02', name: 'Himachal Pradesh', kind: 'state' },
  { code: '03', name: 'Punjab', kind: 'state' },
  { code: '04', name: 'Chandigarh', kind: 'union-territory' },
  { code: '05', name: 'Uttarakhand', kind: 'state' },
  { code: '06', name: 'Haryana', kind: 'state' },
  { code: '07', name: 'Delhi', kind: 'union-territory' },
  { code: '08', name: 'Rajasthan', kind: 'state' },
  { code: '09', name: 'Uttar Pradesh', kind: 'state' },
  { code: '10', name: 'Bihar', kind: 'state' },
  { code: '11', name: 'Sikkim', kind: 'state' },
  { code: '12', name: 'Arunachal Pradesh', kind: 'state' },
  { code: '13', name: 'Nagaland', kind: 'state' },
  { code: '14', name: 'Manipur', kind: 'state' },
  { code: '15', name: 'Mizoram', kind: 'state' },
  { code: '16', name: 'Tripura', kind: 'state' },
  { code: '17', name: 'Meghalaya', kind: 'state' },
  { code: '18', name: 'Assam', kind: 'state' },
  { code: '19', name: 'West Bengal', kind: 'state' },
  { code: '20', name: 'Jharkhand', kind: 'state' },
  { code: '21', name: 'Odisha', kind: 'state' },
  { code: '22', name: 'Chhattisgarh', kind: 'state' },
  { code: '23', name: 'Madhya Pradesh', kind: 'state' },
  { code: '24', name: 'Gujarat', kind: 'state' },
  { code: '26', name: 'Dadra and Nagar Haveli and Daman and Diu', kind: 'union-territory' },
  { code: '27', name: 'Maharashtra', kind: 'state' },
  { code: '29', name: 'Karnataka', kind: 'state' },
  { code: '30', name: 'Goa', kind: 'state' },
  { code: '31', name: 'Lakshadweep', kind: 'union-territory' },
  { code: '32', name: 'Kerala', kind: 'state' },
  { code: '33', name: 'Tamil Nadu', kind: 'state' },
  { code: '34', name: 'Puducherry', kind: 'union-territory' },
  { code: '35', name: 'Andaman and Nicobar Islands', kind: 'union-territory' },
  { code: '36', name: 'Telangana', kind: 'state' },
  { code: '37', name: 'Andhra Pradesh', kind: 'state' },
  { code: '38', name: 'Ladakh', kind: 'union-territory' },
];

/** A GST state code of today's list ("29"), as a checkout sends it. */
export const GstStateCode = Type.Union(
  INDIAN_STATES.map((state) => Type.Literal(state.code)),
  { description: 'GST state code of the buyer (place of supply)' },
);

/**
 * India's PIN codes by their first three digits (the postal circle and sorting district): the
 * states and union territories a PIN code starting so can be in, most first. Where a sorting
 * district straddles a border (Mohali and Chandigarh, Puducherry's enclaves, Daman, the
 * Bihar–Jharkhand and Uttar Pradesh–Uttarakhand districts, Diu inside Gujarat's 362, the villages
 * of Telangana's 507 that went to Andhra Pradesh) it lists each: every PIN code of India Post's
 * directory (the storefront's pin-directory.json) is in a state its prefix allows. Ranges of prefixes,
 * both ends included; a prefix in none (Army Post Offices' 9, unused series) is unknown.
 */
const PIN_PREFIX_STATES: readonly (readonly [from: number, to: number, states: readonly string[]])[] = [
  [110, 110, ['07']],
  [121, 136, ['06']],
  [140, 159, ['03']],
  [160, 160, ['04', '03']],
  [161, 169, ['03']],
  [171, 177, ['02']],
  [180, 193, ['01']],
  [194, 194, ['38', '01']],
  [201, 243, ['09']],
  [244, 244, ['09', '05']],
  [245, 245, ['09']],
  [246, 246, ['05', '09']],
  [247, 247, ['09', '05']],
  [248, 249, ['05']],
  [250, 261, ['09']],
  [262, 262, ['09', '05']],
  [263, 263, ['05']],
  [264, 285, ['09']],
  [301, 345, ['08']],
  [360, 361, ['24']],
  [362, 362, ['24', '26']],
  [363, 395, ['24']],
  [396, 396, ['24', '26']],
  [400, 402, ['27']],
  [403, 403, ['30']],
  [404, 445, ['27']],
  [450, 488, ['23']],
  [490, 497, ['22']],
  [500, 506, ['36']],
  [507, 507, ['36', '37']],
  [508, 509, ['36']],
  [515, 532, ['37']],
  [533, 533, ['37', '34']],
  [534, 535, ['37']],
  [560, 591, ['29']],
  [600, 604, ['33']],
  [605, 605, ['34', '33']],
  [606, 606, ['33']],
  [607, 607, ['33', '34']],
  [608, 608, ['33']],
  [609, 609, ['33', '34']],
  [610, 643, ['33']],
  [670, 672, ['32']],
  [673, 673, ['32', '34']],
  [674, 681, ['32']],
  [682, 682, ['32', '31']],
  [683, 695, ['32']],
  [700, 736, ['19']],
  [737, 737, ['11']],
  [738, 743, ['19']],
  [744, 744, ['35']],
  [751, 770, ['21']],
  [781, 788, ['18']],
  [790, 792, ['12']],
  [793, 794, ['17']],
  [795, 795, ['14']],
  [796, 796, ['15']],
  [797, 798, ['13']],
  [799, 799, ['16']],
  [800, 812, ['10']],
  [813, 813, ['10', '20']],
  [814, 814, ['20', '10']],
  [815, 816, ['20']],
  [817, 821, ['10']],
  [822, 822, ['20']],
  [823, 824, ['10']],
  [825, 835, ['20']],
  [841, 855, ['10']],
];

/** A PIN code: six digits, never starting with 0. */
export const PIN_CODE = /^[1-9][0-9]{5}$/;

/**
 * The GST state codes a PIN code can be in (its circle's, most likely first); empty when the
 * code is malformed or its series unknown. Fills the checkout's state and lets the orders service
 * refuse an address whose state and PIN code disagree.
 */
export function pinCodeStates(pin: string): readonly string[] {
  if (!PIN_CODE.test(pin)) return [];
  const prefix = Number(pin.slice(0, 3));
  return PIN_PREFIX_STATES.find(([from, to]) => prefix >= from && prefix <= to)?.[2] ?? [];
}

/** A state's name by its GST state code. */
export function indianStateName(code: string): string | undefined {
  return INDIAN_STATES.find((state) => state.code === code)?.name;
}
