export * from './types';
export { createEvent } from './create-event';
export { matchesRoutingKey } from './routing-key';
export { createRabbitBus, deadLetterQueueName, retryQueueName, queuesOf, type RabbitBusOptions } from './rabbit-bus';
export { createInProcessBus, type InProcessBusOptions } from './in-process-bus';
export { inProcessBusMigrations } from './in-process-migrations';
export { outboxMigrations } from './outbox-migrations';
export { enqueueEvent, createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox';
export { handleOnce } from './inbox';
