export { startShop, type ShopOptions, type RunningShop } from './start-shop';
export { startDistributed, type DistributedOptions, type RunningDistributed } from './start-distributed';
export { seedScale, type SeedArgs, type SeedSummary } from './seed-scale';
export { allocatorEnv, ARENA_MAX } from './allocator';
