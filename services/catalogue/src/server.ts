// The catalogue as its own process (distributed mode): PostgreSQL + RabbitMQ.
import { runServiceProcess } from '@persona/service-process';
import { catalogueConfig, catalogueServiceOptions } from './config';
import { CATALOGUE_SCHEMA, startCatalogueService } from './service';

runServiceProcess({
  name: 'catalogue',
  schema: CATALOGUE_SCHEMA,
  loadConfig: catalogueConfig.loadProcess,
  options: catalogueServiceOptions,
  start: startCatalogueService,
});
