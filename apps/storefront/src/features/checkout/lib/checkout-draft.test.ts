import { EMPTY_CHECKOUT, type CheckoutValues } from './checkout-form';
import { CHECKOUT_DRAFT_KEY, clearCheckoutDraft, readCheckoutDraft, saveCheckoutDraft } from './checkout-draft';
import { brokenStorage, memoryStorage } from '../../../test-storage';

const typed: CheckoutValues = {
  ...EMPTY_CHECKOUT,
  fullName: 'Asha Rao',
  email: 'asha.rao@example.com',
  phone: '+91 98765 43210',
  deliveryType: 'physical',
  line1: '12 MG Road',
  city: 'Bengaluru',
  zip: '560001',
  country: 'India',
  isGift: true,
  recipientName: 'अनन्या',
  message: 'जन्मदिन मुबारक!\nWith love',
  deliverOn: '2026-12-01',
};

describe('the checkout draft', () => {
  it('gives back what the buyer typed, and nothing once cleared', () => {
    const storage = memoryStorage();
    expect(readCheckoutDraft(storage)).toBeNull();
    saveCheckoutDraft(storage, typed);
    expect(readCheckoutDraft(storage)).toEqual(typed);
    clearCheckoutDraft(storage);
    expect(readCheckoutDraft(storage)).toBeNull();
  });

  it('fills what an older draft lacks from the empty form', () => {
    const storage = memoryStorage({ [CHECKOUT_DRAFT_KEY]: JSON.stringify({ fullName: 'Asha Rao' }) });
    expect(readCheckoutDraft(storage)).toEqual({ ...EMPTY_CHECKOUT, fullName: 'Asha Rao' });
  });

  it('ignores what this form did not write: broken JSON, wrong types, an unknown delivery, an oversized value', () => {
    for (const text of [
      '{',
      '"text"',
      '[1]',
      JSON.stringify({ fullName: 7 }),
      JSON.stringify({ deliveryType: 'drone' }),
      JSON.stringify({ city: 'x'.repeat(501) }),
    ]) {
      expect(readCheckoutDraft(memoryStorage({ [CHECKOUT_DRAFT_KEY]: text }))).toBeNull();
    }
  });

  it('survives storage that refuses to be written or read', () => {
    const broken = brokenStorage();
    expect(() => saveCheckoutDraft(broken, typed)).not.toThrow();
    expect(() => clearCheckoutDraft(broken)).not.toThrow();
    expect(readCheckoutDraft(broken)).toBeNull();
  });
});
