// The catalogue as its own process (distributed mode): PostgreSQL + RabbitMQ.
import { runServiceProcess, type ProcessParts } from '@persona/service-process';
import { catalogueServiceOptions, loadCatalogueConfig, type CatalogueConfig } from './config';
import type { CatalogueDB } from './db';
import { CATALOGUE_SCHEMA, startCatalogueService } from './service';

runServiceProcess({
  name: 'catalogue',
  schema: CATALOGUE_SCHEMA,
  loadConfig: loadCatalogueConfig,
  start: ({ config, database, bus, logger }: ProcessParts<CatalogueConfig, CatalogueDB>) =>
    startCatalogueService({ database, bus, logger, ...catalogueServiceOptions(config) }),
});
