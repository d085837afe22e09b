// No two folders of a workspace's src import each other, however indirectly (issue 26): a room's
// data flows one way. The rooms are src's top-level folders (routes, modules, …), each module under
// src/modules or src/features, and each file that stands alone at those levels (app.ts, deps.ts).
// Every relative import counts, type-only ones too: `import type` erases at run time, but the
// dependency between rooms is still there for the reader. A cycle is printed with one import per
// step, and the check fails. Import cycles between single files are ESLint's (import-x/no-cycle).
//
//   node scripts/check-folder-cycles.mjs [workspace …] [--except workspace …]
//   (default: every workspace with a src; --except leaves out one whose knots are being untied)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const WORKSPACE_GROUPS = ['services', 'packages', 'apps', 'infra', 'e2e'];
const SOURCE = /\.(ts|tsx|mts|cts)$/;
const MODULE_FOLDERS = new Set(['modules', 'features']);

/** The workspaces to check: those named, or every folder of the workspace groups with a src; less those after --except. */
function workspaces(args) {
  const at = args.indexOf('--except');
  const named = (at < 0 ? args : args.slice(0, at)).map((arg) => path.resolve(arg));
  const except = new Set(at < 0 ? [] : args.slice(at + 1).map((arg) => path.resolve(arg)));
  return (named.length > 0 ? named : everyWorkspace()).filter((ws) => !except.has(ws));
}

function everyWorkspace() {
  const found = [];
  for (const group of WORKSPACE_GROUPS) {
    const dir = path.join(ROOT, group);
    if (!existsSync(dir)) continue;
    if (existsSync(path.join(dir, 'src'))) found.push(dir);
    for (const name of readdirSync(dir)) {
      const ws = path.join(dir, name);
      if (statSync(ws).isDirectory() && existsSync(path.join(ws, 'src'))) found.push(ws);
    }
  }
  return found;
}

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...sourceFiles(full));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The room a file of `src` belongs to: `routes`, `modules/books`, or the file itself when it stands alone. */
export function roomOf(src, file) {
  const parts = path.relative(src, file).split(path.sep);
  if (parts.length === 1) return parts[0];
  if (MODULE_FOLDERS.has(parts[0])) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

/** Relative specifiers a file imports or re-exports (static, dynamic, require; type-only included). */
export function relativeImports(text) {
  const specs = [];
  const patterns = [
    /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"](\.[^'"]*)['"]/gm,
    /^\s*import\s*['"](\.[^'"]*)['"]/gm,
    /\b(?:import|require)\(\s*['"](\.[^'"]*)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) specs.push(match[1]);
  return specs;
}

function resolveImport(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(js|jsx|mjs|cjs)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((c) => SOURCE.test(c) && existsSync(c) && statSync(c).isFile()) ?? null;
}

/** The rooms' graph: for each pair of rooms, one import that joins them. */
export function roomGraph(src) {
  const edges = new Map();
  for (const file of sourceFiles(src)) {
    const from = roomOf(src, file);
    for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, spec);
      if (!target || path.relative(src, target).startsWith('..')) continue;
      const to = roomOf(src, target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, { file: path.relative(src, file), spec });
    }
  }
  return edges;
}

/** Each knot of rooms (a strongly connected group, by Tarjan) and one shortest cycle through it (breadth first). */
export function roomCycles(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.map((group) => {
    const members = new Set(group);
    const start = group.sort()[0];
    const previous = new Map([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift();
      for (const w of edges.get(v)?.keys() ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const path = [v];
          for (let p = previous.get(v); p !== null; p = previous.get(p)) path.unshift(p);
          return { cycle: path, group };
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    return { cycle: group, group };
  });
}

if (process.argv[1] === import.meta.filename) {
  const found = [];
  const checked = workspaces(process.argv.slice(2));
  for (const ws of checked) {
    const src = path.join(ws, 'src');
    const edges = roomGraph(src);
    for (const { cycle, group } of roomCycles(edges)) {
      const steps = cycle.map((room, i) => {
        const to = cycle[(i + 1) % cycle.length];
        const { file, spec } = edges.get(room).get(to);
        return `  ${room} → ${to}   (${file} imports '${spec}')`;
      });
      const others = group.filter((room) => !cycle.includes(room));
      const also = others.length > 0 ? `\n  (in the same knot: ${others.join(', ')})` : '';
      found.push(`${path.relative(ROOT, src)}: ${[...cycle, cycle[0]].join(' → ')}\n${steps.join('\n')}${also}`);
    }
  }
  if (found.length > 0) {
    console.error(`folder cycles: ${found.length} (rooms of src that import each other; move what both need where both can import it):\n${found.join('\n')}`);
    process.exit(1);
  }
  console.log(`folder cycles: none in ${checked.length} workspaces`);
}
