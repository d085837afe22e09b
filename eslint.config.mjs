// One lint for the whole house, run by each workspace's `lint` task (so by
// `npm test` and CI): typescript-eslint with type information, React's hook
// rules, the import boundaries of STYLE.md (no service imports another
// service; no route imports a route; no feature of an app imports another
// feature; shared packages import no service and no app), and no import cycle inside a workspace
// (import-x; the cycles between folders are scripts/check-folder-cycles.mjs).
import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SERVICES = ['admin', 'catalogue', 'gateway', 'orders', 'personalization'];
const APPS = { 'admin-app': 'apps/admin', storefront: 'apps/storefront' };

/** Where a file sits: which service, app feature or shared package owns it. */
function ownerOf(file) {
  const rel = path.relative(import.meta.dirname, file).split(path.sep);
  if (rel[0] === 'services') return { kind: 'service', name: rel[1] };
  if (rel[0] === 'packages') return { kind: 'package', name: rel[1] };
  if (rel[0] === 'apps' && rel[2] === 'src' && rel[3] === 'features') return { kind: 'feature', app: rel[1], name: rel[4] };
  return { kind: 'other' };
}

/** Whether a file (or an import's resolved path, without its extension) is one of a service's routes. */
function isRoute(file) {
  const rel = path.relative(import.meta.dirname, file).split(path.sep);
  return rel[0] === 'services' && rel[2] === 'src' && rel[3] === 'routes';
}

const boundaries = {
  rules: {
    'no-crossing': {
      meta: { type: 'problem', schema: [], messages: { crossing: '{{what}}' } },
      create(context) {
        const file = context.filename;
        const owner = ownerOf(file);
        const check = (node, source) => {
          if (typeof source !== 'string') return;
          const pkg = /^@persona\/([\w-]+)/.exec(source)?.[1];
          if (pkg && SERVICES.includes(pkg) && (owner.kind === 'service' || owner.kind === 'package') && pkg !== owner.name) {
            const what =
              owner.kind === 'service'
                ? `a service does not import another service (${owner.name} → ${pkg}): talk over HTTP or events, share through packages/*`
                : `a shared package does not import a service (${owner.name} → ${pkg})`;
            context.report({ node, messageId: 'crossing', data: { what } });
          }
          if (pkg && pkg in APPS && owner.kind === 'package') {
            context.report({ node, messageId: 'crossing', data: { what: `a shared package does not import an app (${owner.name} → ${pkg})` } });
          }
          if (owner.kind === 'service' && source.startsWith('.') && isRoute(file) && isRoute(path.resolve(path.dirname(file), source))) {
            const what = 'a route does not import a route: move what both need into a module (src/modules/…)';
            context.report({ node, messageId: 'crossing', data: { what } });
          }
          if (owner.kind === 'feature' && source.startsWith('.')) {
            const target = ownerOf(path.resolve(path.dirname(file), source));
            if (target.kind === 'feature' && target.app === owner.app && target.name !== owner.name) {
              const what = `a feature does not import another feature (${owner.name} → ${target.name}): move what both need to src/components, src/hooks or src/lib`;
              context.report({ node, messageId: 'crossing', data: { what } });
            }
          }
        };
        return {
          ImportDeclaration: (node) => check(node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
          ExportAllDeclaration: (node) => check(node, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'bench/web/**', 'bench/.tmp/**', '**/*.d.ts', '**/public/**', '.scratch/**', 'data/**'],
  },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    // Type information from one TypeScript program per platform (tsconfig.node.json: every package,
    // service and the launcher; tsconfig.web.json: the apps and web-kit; e2e's own), the programs
    // `npm run typecheck` checks: one program loads Node's, Fastify's and kysely's types once, where
    // a project per workspace loaded them twenty times (ESLint alone: 128 → 73 s of CPU, 2026-12-07).
    languageOptions: {
      parserOptions: { project: './tsconfig.node.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { boundaries, 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts', '.cts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: {
      'boundaries/no-crossing': 'error',
      // A module never reaches itself through its runtime imports (type-only imports erase; the
      // folder check counts them). Another workspace is external: workspaces depend one way (npm).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A `let` a closure reads before its one assignment (a handler wired before the app exists) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // With type information: a promise is awaited, returned or explicitly voided; never handed where a
      // plain function is expected (an event handler, a callback) without its rejection handled.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Data from outside is typed by TypeBox at the edge, the database by the types generated from
      // the migrations (scripts/db-types.mjs), the rest by `unknown` and narrowing.
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Migrations are frozen in time: they see a schema of that day, not today's types.
    files: ['services/*/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['e2e/**/*.ts'],
    languageOptions: { parserOptions: { project: './e2e/tsconfig.json' } },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/web-kit/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { project: './tsconfig.web.json' } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { boundaries },
    rules: { 'boundaries/no-crossing': 'error', 'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
);
