import type { OrderGift } from '@persona/contracts';
import { earlyGiftShipment } from './early-shipment';

const gift: OrderGift = { recipientName: 'Meera Nair', message: null, recipientEmail: null, deliverOn: '2026-12-24' };

describe('shipping a gift early', () => {
  it('warns for a gift more than three business days ahead of its ship-by date, counting no Sunday', () => {
    expect(earlyGiftShipment({ gift, shipBy: '2026-12-16' }, '2026-11-27')).toBe(16);
    // Wednesday to the next Monday: four business days over a Sunday.
    expect(earlyGiftShipment({ gift, shipBy: '2026-12-07' }, '2026-12-02')).toBe(4);
  });

  it('stays quiet a few days ahead, on the day, late, and for a copy that is not a gift or has no ship-by date', () => {
    expect(earlyGiftShipment({ gift, shipBy: '2026-12-05' }, '2026-12-02')).toBeNull();
    expect(earlyGiftShipment({ gift, shipBy: '2026-12-02' }, '2026-12-02')).toBeNull();
    expect(earlyGiftShipment({ gift, shipBy: '2026-11-30' }, '2026-12-02')).toBeNull();
    expect(earlyGiftShipment({ gift: null, shipBy: '2026-12-16' }, '2026-11-27')).toBeNull();
    expect(earlyGiftShipment({ gift, shipBy: null }, '2026-11-27')).toBeNull();
  });
});
