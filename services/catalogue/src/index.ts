export { buildApp, type CatalogueAppOptions } from './app';
export { startCatalogueService, catalogueMigrations, CATALOGUE_SCHEMA, type CatalogueService, type CatalogueServiceOptions } from './service';
export { catalogueConfig, catalogueServiceOptions, type CatalogueConfig, type CatalogueSettings } from './config';
export type { CatalogueDB } from './db';
export { LocalFileStorage, StoreFileStorage, type FileStorage } from './modules/files/file-storage';
export { seedDemoCatalogue, loadDemoCatalogue } from './modules/seed/seed-demo-catalogue';
export { seedScaleCatalogue, type ScaleBook, type ScaleCatalogueOptions } from './modules/seed/seed-scale';
