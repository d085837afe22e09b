// Every way the shop starts runs with the same C allocator setting (allocator.ts says why).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allocatorEnv, ARENA_MAX } from '../src/allocator';

const root = path.resolve(__dirname, '../../..');

describe("the shop's allocator setting", () => {
  it('is ours unless one is given', () => {
    expect(allocatorEnv({})).toEqual({ MALLOC_ARENA_MAX: ARENA_MAX });
    expect(allocatorEnv({ MALLOC_ARENA_MAX: '' })).toEqual({ MALLOC_ARENA_MAX: ARENA_MAX });
    expect(allocatorEnv({ MALLOC_ARENA_MAX: '4' })).toEqual({ MALLOC_ARENA_MAX: '4' });
  });

  it("is set by `npm start` and by the services' image, to the same value", () => {
    const start = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start as string;
    expect(start).toContain(`MALLOC_ARENA_MAX=\${MALLOC_ARENA_MAX:-${ARENA_MAX}} node infra/launcher/dist/main.js`);
    const dockerfile = readFileSync(path.join(root, 'infra/docker/Dockerfile'), 'utf8');
    expect(dockerfile.slice(dockerfile.lastIndexOf('FROM '))).toMatch(new RegExp(`^\\s+MALLOC_ARENA_MAX=${ARENA_MAX} \\\\$`, 'm'));
  });
});
