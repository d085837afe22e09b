// The C allocator's setting every process of the shop runs with. glibc's malloc gives each thread
// that allocates an arena of its own (up to eight per core) and keeps what is freed there for that
// arena's later use, so the untrusted-file threads, replaced after each refused file and reading
// 10 MB at a time, left their freed buffers spread over a dozen arenas: under the `hostile` bench's
// verify bombs the embedded shop's RSS grew 54–260 MB and never came back (2026-11-27, 2 cores).
// With two arenas shared by every thread the same attack left it 55–67 MB *below* its quiet level,
// and the quiet shop itself was 90 MB smaller (585 MB against 675). Other allocators ignore it.
export const ARENA_MAX = '2';

/** The allocator's environment for a process of the shop: the one given, or ours. */
export function allocatorEnv(env: NodeJS.ProcessEnv = process.env): { MALLOC_ARENA_MAX: string } {
  return { MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || ARENA_MAX };
}
