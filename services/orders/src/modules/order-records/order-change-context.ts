// What an administrator's change to an order (or a coupon) needs besides its input: shared by the
// changes' own files, so none imports another for the type.
import type { EventOrigin, UnitOfWork } from '@persona/bus';
import type { OrdersDB } from '../../db';

export interface OrderChangeContext extends EventOrigin {
  /** Runs the change and its event as one transaction; the relay is woken after it commits. */
  uow: UnitOfWork<OrdersDB>;
}
