import {
  checkoutWithDraft,
  clearPersonaDraft,
  draftFromCheckout,
  PERSONA_DRAFT_KEY,
  readPersonaDraft,
  savePersonaDraft,
  type PrintedFields,
} from './persona-draft';
import { brokenStorage, memoryStorage } from '../test-storage';

const form: PrintedFields & { email: string } = { fullName: '', isGift: false, recipientName: '', message: '', deliverOn: '', email: 'asha@example.com' };

describe('the persona draft', () => {
  it('keeps the name and message as typed, in any script', () => {
    const storage = memoryStorage();
    savePersonaDraft(storage, { name: 'अनन्या', message: 'जन्मदिन मुबारक!\nWith love' });
    expect(readPersonaDraft(storage)).toEqual({ name: 'अनन्या', message: 'जन्मदिन मुबारक!\nWith love' });
  });

  it('is forgotten once paid: the next order starts without the last name or message', () => {
    const storage = memoryStorage();
    savePersonaDraft(storage, { name: 'Meera', message: 'For your birthday' });
    clearPersonaDraft(storage);
    expect(readPersonaDraft(storage)).toBeNull();
    expect(storage.items.has(PERSONA_DRAFT_KEY)).toBe(false);
  });

  it('reads nothing when nothing was saved, or what was saved is not a draft the shop wrote', () => {
    expect(readPersonaDraft(memoryStorage())).toBeNull();
    expect(readPersonaDraft(memoryStorage({ [PERSONA_DRAFT_KEY]: '{not json' }))).toBeNull();
    expect(readPersonaDraft(memoryStorage({ [PERSONA_DRAFT_KEY]: '["Asha"]' }))).toBeNull();
    expect(readPersonaDraft(memoryStorage({ [PERSONA_DRAFT_KEY]: JSON.stringify({ name: 42 }) }))).toBeNull();
    expect(readPersonaDraft(memoryStorage({ [PERSONA_DRAFT_KEY]: JSON.stringify({ name: 'x'.repeat(501) }) }))).toBeNull();
    expect(readPersonaDraft(memoryStorage({ [PERSONA_DRAFT_KEY]: JSON.stringify({ name: 'Asha' }) }))).toEqual({ name: 'Asha', message: '' });
  });

  it('survives storage that refuses to be written or read', () => {
    const broken = brokenStorage();
    expect(() => savePersonaDraft(broken, { name: 'Asha', message: '' })).not.toThrow();
    expect(readPersonaDraft(broken)).toBeNull();
  });

  it("takes from the checkout what it prints: the buyer's name, or a gift's recipient and message", () => {
    expect(draftFromCheckout({ ...form, fullName: 'Asha Rao', recipientName: 'Old', message: 'Old message' })).toEqual({ name: 'Asha Rao', message: '' });
    expect(draftFromCheckout({ ...form, fullName: 'Asha Rao', isGift: true, recipientName: 'Meera', message: 'Happy birthday' })).toEqual({
      name: 'Meera',
      message: 'Happy birthday',
    });
  });

  it('puts a name alone in the field the checkout prints from, leaving the rest of the form as it was', () => {
    expect(checkoutWithDraft(form, { name: 'Asha Rao', message: '' }, '2026-11-27')).toEqual({ ...form, fullName: 'Asha Rao' });
    const gift = { ...form, fullName: 'Asha Rao', isGift: true, deliverOn: '2026-12-10' };
    expect(checkoutWithDraft(gift, { name: 'Meera', message: '' }, '2026-11-27')).toEqual({ ...gift, recipientName: 'Meera' });
  });

  it('makes a draft with a message a gift, delivered today unless a day was chosen', () => {
    expect(checkoutWithDraft({ ...form, fullName: 'Asha Rao' }, { name: 'Meera', message: 'Happy birthday' }, '2026-11-27')).toEqual({
      ...form,
      fullName: 'Asha Rao',
      isGift: true,
      recipientName: 'Meera',
      message: 'Happy birthday',
      deliverOn: '2026-11-27',
    });
    expect(checkoutWithDraft({ ...form, deliverOn: '2026-12-10' }, { name: 'Meera', message: 'Hi' }, '2026-11-27').deliverOn).toBe('2026-12-10');
  });

  it('changes nothing without a name', () => {
    expect(checkoutWithDraft({ ...form, fullName: 'Asha Rao' }, null, '2026-11-27')).toEqual({ ...form, fullName: 'Asha Rao' });
    expect(checkoutWithDraft({ ...form, fullName: 'Asha Rao' }, { name: '  ', message: 'Hi' }, '2026-11-27')).toEqual({ ...form, fullName: 'Asha Rao' });
  });
});
