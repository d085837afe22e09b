import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pinCodeStates, ZIP_MESSAGE } from '@persona/contracts';
import { makeBook } from '../../../test-fixtures';
import {
  buildInitiateBody,
  CHECKOUT_MESSAGES,
  couponCodeFrom,
  emailForCoupon,
  checkoutTotals,
  totalsFromBreakdown,
  EMPTY_CHECKOUT,
  checkoutDelivery,
  fillFromPin,
  firstInvalidField,
  followShipping,
  formatDeliveryDay,
  pinPlaceLabel,
  validateCheckout,
  visibleFields,
  withShippingDefaults,
  type CheckoutValues,
} from './checkout-form';
import { lookUpPin } from './pin-directory';
import directory from './pin-directory.json';

const digital: CheckoutValues = { ...EMPTY_CHECKOUT, fullName: 'Asha Rao', email: 'asha@example.com', phone: '+91 98765 43210' };
const physical: CheckoutValues = {
  ...digital,
  deliveryType: 'physical',
  shipName: 'Asha Rao',
  shipPhone: '+91 98765 43210',
  line1: '12 MG Road',
  city: 'Bengaluru',
  zip: '560001',
  state: '29',
  country: 'India',
};

describe('checkout validation', () => {
  it('defaults to digital delivery', () => {
    expect(EMPTY_CHECKOUT.deliveryType).toBe('digital');
  });

  it('accepts a complete digital or physical form', () => {
    expect(validateCheckout(digital)).toEqual({});
    expect(validateCheckout(physical)).toEqual({});
  });

  it('requires full name, email and phone for every delivery type', () => {
    const errors = validateCheckout({ ...EMPTY_CHECKOUT });
    expect(errors).toEqual({ fullName: CHECKOUT_MESSAGES.fullName, email: CHECKOUT_MESSAGES.email, phone: CHECKOUT_MESSAGES.phone });
    expect(validateCheckout({ ...digital, fullName: '   ' }).fullName).toBe(CHECKOUT_MESSAGES.fullName);
    // The state is optional; when given, one of the list.
    expect(validateCheckout({ ...digital, state: '29' })).toEqual({});
    expect(validateCheckout({ ...digital, state: '99' }).state).toBe(CHECKOUT_MESSAGES.state);
  });

  it('requires the address only for physical delivery, and ignores hidden address fields', () => {
    expect(validateCheckout({ ...digital, line1: '', city: '', zip: 'abc', country: '' })).toEqual({});
    expect(validateCheckout({ ...digital, deliveryType: 'physical', line1: ' ', city: '', zip: '' })).toEqual({
      shipName: CHECKOUT_MESSAGES.shipName,
      shipPhone: CHECKOUT_MESSAGES.shipPhone,
      line1: CHECKOUT_MESSAGES.line1,
      city: CHECKOUT_MESSAGES.city,
      zip: ZIP_MESSAGE,
      // A printed copy's state is its address's: required.
      state: CHECKOUT_MESSAGES.state,
    });
    expect(visibleFields('digital')).toEqual(['fullName', 'email', 'phone', 'state']);
    // The state moves into the address, after the city; the country is India, shown and not typed.
    expect(visibleFields('physical')).toEqual(['fullName', 'email', 'phone', 'shipName', 'shipPhone', 'zip', 'city', 'state', 'line1', 'line2', 'landmark']);
  });

  it('wants an Indian PIN code of 6 digits, saying PIN code, and a state it is in', () => {
    expect(ZIP_MESSAGE).toBe('Please enter a valid 6-digit PIN code');
    for (const zip of ['12345', '1234567', '12a456', '12 3456', '', '５６０００１', '000000', '012345']) {
      expect({ zip, error: validateCheckout({ ...physical, zip }).zip }).toEqual({ zip, error: ZIP_MESSAGE });
    }
    expect(validateCheckout({ ...physical, zip: ' 560001 ' }).zip).toBeUndefined();
    expect(validateCheckout({ ...physical, zip: '682001' }).state).toBe(
      'The PIN code 682001 is in Kerala or Lakshadweep: please check the PIN code or the state',
    );
    expect(validateCheckout({ ...physical, shipPhone: 'ring' }).shipPhone).toBe(CHECKOUT_MESSAGES.shipPhone);
  });

  it("addresses a printed copy to the buyer, or a gift's recipient, until another name or phone is typed", () => {
    let values = withShippingDefaults({ ...EMPTY_CHECKOUT, fullName: 'Asha Rao', phone: '98765 43210', deliveryType: 'physical' });
    expect([values.shipName, values.shipPhone]).toEqual(['Asha Rao', '98765 43210']);
    const change = (over: Partial<CheckoutValues>) => (values = followShipping(values, { ...values, ...over }));
    change({ fullName: 'Asha R. Rao' });
    expect(values.shipName).toBe('Asha R. Rao');
    // A gift: the recipient's name, and their phone asked (never the giver's on their door).
    change({ isGift: true });
    expect([values.shipName, values.shipPhone]).toEqual(['', '']);
    change({ recipientName: 'Meera' });
    expect(values.shipName).toBe('Meera');
    change({ shipName: 'Meera Nair' });
    change({ recipientName: 'Meera N' });
    expect(values.shipName).toBe('Meera Nair');
    change({ shipPhone: '94470 12345' });
    change({ phone: '90000 00000' });
    expect(values.shipPhone).toBe('94470 12345');
  });

  it('fills the state and the city from the PIN code, never over what the buyer typed', () => {
    expect(lookUpPin('682016')).toEqual({ states: ['32', '31'], city: 'Kochi' });
    expect(lookUpPin('673001')).toEqual({ states: ['32', '34'], city: 'Kozhikode' });
    expect(lookUpPin('686001')).toEqual({ states: ['32'], city: 'Kottayam' });
    expect(lookUpPin('999999')).toEqual({ states: [] });
    const kochi = fillFromPin({ ...physical, city: '', state: '' }, lookUpPin('682016'), null);
    expect([kochi.values.city, kochi.values.state]).toEqual(['Kochi', '32']);
    // Another PIN code replaces what the last one filled.
    const bengaluru = fillFromPin({ ...kochi.values, zip: '560034' }, lookUpPin('560034'), kochi.filled);
    expect([bengaluru.values.city, bengaluru.values.state]).toEqual(['Bengaluru', '29']);
    // A town typed stays; a state the PIN code cannot be in is corrected.
    const typed = fillFromPin({ ...physical, city: 'Whitefield', state: '32' }, lookUpPin('560066'), null);
    expect([typed.values.city, typed.values.state]).toEqual(['Whitefield', '29']);
    expect(pinPlaceLabel(lookUpPin('682016'))).toBe('Kochi, Kerala or Lakshadweep');
    expect(pinPlaceLabel(lookUpPin('686001'))).toBe('Kottayam, Kerala');
    expect(pinPlaceLabel(lookUpPin('999999'))).toBeNull();
  });

  it('knows the town of every PIN code of India Post, and a state its first digits allow', () => {
    // Small towns, not only the big cities: a district's town, under the name it has today.
    expect(lookUpPin('571401')).toEqual({ states: ['29'], city: 'Mandya' });
    expect(lookUpPin('591101')).toEqual({ states: ['29'], city: 'Belagavi' });
    expect(lookUpPin('122001')).toEqual({ states: ['06'], city: 'Gurugram' });
    expect(lookUpPin('110092')).toEqual({ states: ['07'], city: 'New Delhi' });
    // Leh is Ladakh's; Diu, inside Gujarat's series, is the union territory's.
    expect(lookUpPin('194101')).toEqual({ states: ['38', '01'], city: 'Leh' });
    expect(lookUpPin('362520')).toEqual({ states: ['26', '24'], city: 'Diu' });
    // A PIN code the directory lacks still gets its state.
    expect(lookUpPin('686999')).toEqual({ states: ['32'] });
    let code = 0;
    const refused: string[] = [];
    for (const entry of directory.pins.split(' ')) {
      const [delta, place] = entry.split('.');
      code += parseInt(delta!, 36);
      const pin = String(code);
      const found = lookUpPin(pin);
      // The state the form fills is one the orders service accepts for the PIN code.
      if (!found.city || found.states[0] !== directory.places[parseInt(place!, 36)]![1] || !pinCodeStates(pin).includes(found.states[0]!)) refused.push(pin);
    }
    expect({ pins: directory.pins.split(' ').length, last: code, refused }).toEqual({ pins: 19159, last: 855117, refused: [] });
  });

  it("ships the directory its script makes from India Post's data", () => {
    const made = execFileSync(process.execPath, [path.join(__dirname, '../../../../scripts/pin-directory.mjs'), '--print'], { maxBuffer: 1 << 24 }).toString();
    expect(JSON.parse(made)).toEqual(directory);
  });

  it('says when a printed copy arrives, and when a gift day is too close to meet', () => {
    const now = new Date('2026-11-27T06:00:00Z'); // a Friday
    expect(checkoutDelivery({ isGift: false, deliverOn: '' }, now)).toMatchObject({ shipBy: '2026-11-30', arrivesBy: '2026-12-08', late: false });
    expect(checkoutDelivery({ isGift: true, deliverOn: '2026-12-24' }, now)).toMatchObject({ arrivesBy: '2026-12-24', late: false });
    expect(checkoutDelivery({ isGift: true, deliverOn: '2026-12-01' }, now)).toMatchObject({ arrivesBy: '2026-12-08', late: true });
    expect(formatDeliveryDay('2026-12-24')).toBe('Thursday, 24 December');
  });

  it('checks the email shape', () => {
    for (const email of ['asha', 'asha@', '@example.com', 'asha@example', 'a b@example.com']) {
      expect({ email, error: validateCheckout({ ...digital, email }).email }).toEqual({ email, error: CHECKOUT_MESSAGES.email });
    }
    expect(validateCheckout({ ...digital, email: ' asha.rao+books@example.co.in ' }).email).toBeUndefined();
  });

  it('checks the phone shape the server accepts', () => {
    for (const phone of ['123', 'phone', '98765-4321x', '+', '(080) 2345-6789', '12345678901234567890123']) {
      expect({ phone, error: validateCheckout({ ...digital, phone }).phone }).toEqual({ phone, error: CHECKOUT_MESSAGES.phone });
    }
    for (const phone of ['9876543210', '+91 98765 43210', '080-2345 6789']) {
      expect({ phone, error: validateCheckout({ ...digital, phone }).phone }).toEqual({ phone, error: undefined });
    }
  });

  it('names the first invalid field in form order', () => {
    expect(firstInvalidField(validateCheckout({ ...physical, zip: '1', email: 'x' }))).toBe('email');
    expect(firstInvalidField(validateCheckout({ ...physical, zip: '1' }))).toBe('zip');
    expect(firstInvalidField(validateCheckout({ ...physical, state: '', line1: '' }), 'physical', false)).toBe('state');
    expect(firstInvalidField({})).toBeNull();
  });
});

describe('checkout totals', () => {
  const book = makeBook({ price: 349.5, printingCost: 120.25 });

  it('digital: the base price only; no fee lines', () => {
    expect(checkoutTotals(book, 'digital')).toEqual({ base: 349.5, printing: 0, delivery: 0, total: 349.5, showFees: false });
  });

  it('physical: base + printing cost + ₹50 delivery', () => {
    expect(checkoutTotals(book, 'physical')).toEqual({ base: 349.5, printing: 120.25, delivery: 50, total: 519.75, showFees: true });
  });

  it('adds in whole paise (no float drift)', () => {
    expect(checkoutTotals(makeBook({ price: 0.1, printingCost: 0.2 }), 'physical').total).toBe(50.3);
  });
});

describe('initiation request', () => {
  const book = makeBook({ price: 300, printingCost: 40 });

  it('digital: address null, persona id null, trimmed values', () => {
    expect(buildInitiateBody(book, { ...digital, fullName: '  Asha Rao ', line1: 'ignored' })).toEqual({
      book: book._id,
      fullName: 'Asha Rao',
      email: 'asha@example.com',
      phone: '+91 98765 43210',
      deliveryType: 'digital',
      address: null,
      amount: 300,
      shippingFee: 0,
      personaId: null,
    });
  });

  it("carries the buyer's state when chosen (the invoice's place of supply), and nothing when not", () => {
    expect(buildInitiateBody(book, { ...digital, state: '32' }).state).toBe('32');
    expect(buildInitiateBody(book, digital)).not.toHaveProperty('state');
  });

  it('physical: the address object and the delivery fee', () => {
    const body = buildInitiateBody(book, physical);
    expect(body.address).toEqual({
      name: 'Asha Rao',
      phone: '+91 98765 43210',
      line1: '12 MG Road',
      city: 'Bengaluru',
      zip: '560001',
      state: '29',
      country: 'India',
    });
    expect(buildInitiateBody(book, { ...physical, line2: ' 2nd Cross ', landmark: ' ', country: 'Nowhere' }).address).toMatchObject({
      line2: '2nd Cross',
      country: 'India',
    });
    expect(body.amount).toBe(390);
    expect(body.shippingFee).toBe(50);
  });
});

describe("the server's charge", () => {
  it('reads as the summary does, fee lines for a printed copy only', () => {
    expect(totalsFromBreakdown({ basePaise: 39900, printingPaise: 0, deliveryPaise: 0, totalPaise: 39900 }, 'digital')).toEqual({
      base: 399,
      printing: 0,
      delivery: 0,
      total: 399,
      showFees: false,
    });
    expect(totalsFromBreakdown({ basePaise: 34950, printingPaise: 12025, deliveryPaise: 5000, totalPaise: 51975 }, 'physical')).toEqual({
      base: 349.5,
      printing: 120.25,
      delivery: 50,
      total: 519.75,
      showFees: true,
    });
  });
});

describe('a gift at checkout', () => {
  const book = makeBook({ price: 300, printingCost: 40 });
  const now = new Date('2026-11-25T06:00:00Z');
  const gift: CheckoutValues = { ...digital, isGift: true, recipientName: 'अनन्या शर्मा', message: 'जन्मदिन मुबारक!\nWith love', deliverOn: '2026-11-28' };

  it('checks the gift fields only when it is a gift, in the order they appear', () => {
    expect(validateCheckout({ ...digital, recipientName: '', recipientEmail: 'not an address' }, now)).toEqual({});
    expect(validateCheckout(gift, now)).toEqual({});
    expect(visibleFields('digital', true)).toEqual(['fullName', 'email', 'phone', 'state', 'recipientName', 'message', 'recipientEmail', 'deliverOn']);
    const errors = validateCheckout({ ...gift, recipientName: '  ', recipientEmail: 'ananya@', deliverOn: '2026-11-24' }, now);
    expect(errors).toEqual({
      recipientName: CHECKOUT_MESSAGES.recipientName,
      recipientEmail: CHECKOUT_MESSAGES.recipientEmail,
      deliverOn: CHECKOUT_MESSAGES.deliverOn,
    });
    expect(firstInvalidField(errors)).toBe('recipientName');
  });

  it("applies the Persona's printing rules to the names and the message, with the server's messages", () => {
    expect(validateCheckout({ ...gift, recipientName: 'Аnna' }, now).recipientName).toBe(
      'Write each word in one script: “Аnna” mixes Cyrillic and Latin letters',
    );
    expect(validateCheckout({ ...gift, message: 'Happy birthday 🎉' }, now).message).toMatch(/^We cannot print “🎉”/);
    expect(validateCheckout({ ...gift, message: 'm'.repeat(301) }, now).message).toBe('The message must be at most 300 characters');
    expect(validateCheckout({ ...gift, fullName: 'Asha\u0007' }, now).fullName).toMatch(/without control characters/);
    // India's day: at 20:00 UTC on the 24th it is already the 25th there.
    expect(validateCheckout({ ...gift, deliverOn: '2026-11-25' }, new Date('2026-11-24T20:00:00Z')).deliverOn).toBeUndefined();
  });

  it('sends the gift with what was filled in, and nothing of it when the box is unticked', () => {
    expect(buildInitiateBody(book, gift).gift).toEqual({ recipientName: 'अनन्या शर्मा', message: 'जन्मदिन मुबारक!\nWith love', deliverOn: '2026-11-28' });
    expect(buildInitiateBody(book, { ...gift, recipientEmail: ' ananya@example.com ', message: '  ' }).gift).toEqual({
      recipientName: 'अनन्या शर्मा',
      recipientEmail: 'ananya@example.com',
      deliverOn: '2026-11-28',
    });
    expect('gift' in buildInitiateBody(book, { ...gift, isGift: false })).toBe(false);
  });
});

describe('a coupon code at checkout', () => {
  const book = makeBook({ price: 349.5, printingCost: 120.25 });

  it('sends the code only, in capitals, and no figure of it', () => {
    expect(couponCodeFrom(' diwali-20 ')).toBe('DIWALI-20');
    expect(couponCodeFrom('two words')).toBeNull();
    expect(couponCodeFrom('-DASH')).toBeNull();
    expect(couponCodeFrom('X'.repeat(33))).toBeNull();
    const body = buildInitiateBody(book, digital, 'DIWALI-20');
    expect(body.coupon).toBe('DIWALI-20');
    expect(body.amount).toBe(349.5);
    expect(buildInitiateBody(book, digital)).not.toHaveProperty('coupon');
  });

  it("shows the shop's discount and the total after it", () => {
    expect(totalsFromBreakdown({ basePaise: 34950, printingPaise: 0, deliveryPaise: 0, discountPaise: 6990, totalPaise: 27960 }, 'digital')).toEqual({
      base: 349.5,
      printing: 0,
      delivery: 0,
      discount: 69.9,
      total: 279.6,
      showFees: false,
    });
    expect(totalsFromBreakdown({ basePaise: 34950, printingPaise: 0, deliveryPaise: 0, totalPaise: 34950 }, 'digital')).not.toHaveProperty('discount');
  });

  it("judges a code's per-buyer share with the e-mail only once it looks like one", () => {
    expect(emailForCoupon(' asha@example.com ')).toBe('asha@example.com');
    expect(emailForCoupon('asha@')).toBeUndefined();
  });
});
