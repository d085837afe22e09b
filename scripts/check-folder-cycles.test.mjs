// The folder check on a small tree of its own: `node --test scripts/`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { relativeImports, roomCycles, roomGraph, roomOf } from './check-folder-cycles.mjs';

function tree(files) {
  const src = path.join(mkdtempSync(path.join(tmpdir(), 'folder-cycles-')), 'src');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
    writeFileSync(path.join(src, file), text);
  }
  return src;
}

test('a room is a top-level folder, a module of modules/ or features/, or a file standing alone', () => {
  assert.equal(roomOf('/s/src', '/s/src/routes/books.ts'), 'routes');
  assert.equal(roomOf('/s/src', '/s/src/modules/books/deep/x.ts'), 'modules/books');
  assert.equal(roomOf('/s/src', '/s/src/modules/compression.ts'), 'modules/compression.ts');
  assert.equal(roomOf('/s/src', '/s/src/features/cart/components/c.tsx'), 'features/cart');
  assert.equal(roomOf('/s/src', '/s/src/app.ts'), 'app.ts');
});

test('every relative import counts: type-only, re-exports, side effects, dynamic; packages do not', () => {
  const text = [
    "import type { A } from './a';",
    'import {\n  b,\n  type C,\n} from "../b";',
    "export { d } from './d';",
    "import './e';",
    "const f = await import('./f');",
    "import { sql } from 'kysely';",
  ].join('\n');
  assert.deepEqual(relativeImports(text).sort(), ['../b', './a', './d', './e', './f']);
});

test('a type-only cycle between app.ts and its routes is found, with the import of each step', () => {
  const src = tree({
    'app.ts': "import books from './routes/books';\nexport interface Deps { n: number }\n",
    'routes/books.ts': "import type { Deps } from '../app';\nexport default (d: Deps) => d;\n",
    'modules/books/list.ts': "import { x } from '../shared/x';\n",
    'modules/shared/x.ts': 'export const x = 1;\n',
  });
  try {
    const edges = roomGraph(src);
    const cycles = roomCycles(edges);
    assert.deepEqual(
      cycles.map((c) => c.cycle),
      [['app.ts', 'routes']],
    );
    assert.deepEqual(edges.get('routes').get('app.ts'), { file: path.join('routes', 'books.ts'), spec: '../app' });
  } finally {
    rmSync(path.dirname(src), { recursive: true, force: true });
  }
});

test('a knot of three modules is named whole, with one shortest cycle through it', () => {
  const src = tree({
    'modules/pdf/a.ts': "import '../mark/b';\n",
    'modules/mark/b.ts': "import '../epub/c';\nimport '../pdf/a';\n",
    'modules/epub/c.ts': "import '../pdf/a';\n",
  });
  try {
    const [knot, ...rest] = roomCycles(roomGraph(src));
    assert.equal(rest.length, 0);
    assert.deepEqual(knot.group.sort(), ['modules/epub', 'modules/mark', 'modules/pdf']);
    assert.deepEqual(knot.cycle, ['modules/epub', 'modules/pdf', 'modules/mark']);
  } finally {
    rmSync(path.dirname(src), { recursive: true, force: true });
  }
});
