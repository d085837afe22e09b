// Shipping a gift far ahead of its ship-by date (issue 24): the ship dialog warns and asks to confirm.
import { shipsTooEarly, shopDate, type Order } from '@persona/contracts';

/**
 * How many business days early shipping `order` on `today` (the shop's day) would be, when that
 * earns the warning; null otherwise. Only a gift: it has a day it should arrive on, not long before;
 * any other printed copy is welcome early.
 */
export function earlyGiftShipment(order: Pick<Order, 'gift' | 'shipBy'>, today = shopDate(new Date())): number | null {
  return order.gift && order.shipBy ? shipsTooEarly(today, order.shipBy) : null;
}
