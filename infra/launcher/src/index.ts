export { startShop, type ShopOptions, type RunningShop } from './start-shop';
export { startDistributed, type DistributedOptions, type RunningDistributed, type ServiceName } from './start-distributed';
export { startCluster, type ClusterOptions, type RunningCluster } from './start-cluster';
export { seedScale, type SeedArgs, type SeedSummary } from './seed-scale';
export { allocatorEnv, ARENA_MAX } from './allocator';
