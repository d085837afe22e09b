// What every payment use case needs besides its input.
import type { UnitOfWork } from '@persona/bus';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from '@persona/db';
import type { OrdersDB } from '../../db';
import type { BookReader } from '../catalogue/catalogue-client';
import type { PaymentProvider } from '../payment-provider/payment-provider';

export interface PaymentsContext {
  db: Kysely<OrdersDB>;
  provider: PaymentProvider;
  readBook: BookReader;
  correlationId: string;
  /** Runs a payment and its order.paid as one transaction; the relay is woken after it commits. */
  uow: UnitOfWork<OrdersDB>;
  /** The request's logger, when there is a request. */
  log?: Pick<FastifyBaseLogger, 'info'>;
}
