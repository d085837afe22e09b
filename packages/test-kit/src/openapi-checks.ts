// The OpenAPI contract in the tests: which routes lack request or response schemas, and whether an
// answer (status, content type, body) is one the service's document (@fastify/swagger, served at
// /openapi.json) says that route gives. inject-setup.ts puts the second on every app.inject.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { _, type ValidateFunction } from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';
import addFormats from 'ajv-formats';

/** What a route declares, as Fastify's onRoute hook sees it. */
export interface DeclaredRoute {
  method: string | string[];
  url: string;
  schema?: { params?: unknown; querystring?: unknown; body?: unknown; response?: unknown; consumes?: string[]; hide?: boolean };
}

/** The answer to one request, with the route (its pattern) that answered it. */
export interface RouteAnswer {
  method: string;
  /** The route's pattern as Fastify knows it (`/api/books/:id`). */
  route: string;
  statusCode: number;
  contentType: string | undefined;
  body: string;
}

interface FastifyLike {
  addHook(name: 'onRoute', hook: (route: DeclaredRoute) => void): unknown;
  addHook(name: 'onSend', hook: (request: SentRequest, reply: unknown, payload: unknown, done: () => void) => void): unknown;
  inject: (...args: unknown[]) => unknown;
  swagger?: () => unknown;
}
interface SentRequest {
  method: string;
  raw: object;
  routeOptions: { url?: string };
}
interface InjectedAnswer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  raw: { req: object };
}

const initialization = channel('fastify.initialization');

/** Runs `build` while recording every route each Fastify instance it creates declares (onRoute). */
export async function recordRoutes<T>(build: () => Promise<T>): Promise<{ built: T; routes: DeclaredRoute[] }> {
  const routes: DeclaredRoute[] = [];
  const listen = (message: unknown) => {
    (message as { fastify: FastifyLike }).fastify.addHook('onRoute', (route) => {
      routes.push(route);
    });
  };
  initialization.subscribe(listen);
  try {
    return { built: await build(), routes };
  } finally {
    initialization.unsubscribe(listen);
  }
}

const BODY_METHODS = ['POST', 'PUT', 'PATCH'];

/**
 * Each route without a response schema, or without a params, querystring or body schema it takes,
 * named ("GET /api/books/:id: no params schema"). Every route says what query it takes (NoQuery
 * for none, refusing what it does not know); a POST, PUT or PATCH its body (NoBody for none),
 * unless it reads a multipart form (`consumes: ['multipart/form-data']`).
 */
export function routeSchemaProblems(routes: readonly DeclaredRoute[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const methods = ([] as string[]).concat(route.method).filter((m) => m !== 'HEAD');
    if (methods.length === 0) continue;
    const name = `${methods.join(',')} ${route.url}`;
    const schema = route.schema ?? {};
    if (!schema.response) problems.push(`${name}: no response schema`);
    if (/[:*]/.test(route.url) && !schema.params) problems.push(`${name}: no params schema`);
    if (!schema.querystring) problems.push(`${name}: no querystring schema`);
    const multipart = schema.consumes?.includes('multipart/form-data') ?? false;
    if (methods.some((m) => BODY_METHODS.includes(m)) && !schema.body && !multipart) problems.push(`${name}: no body schema`);
  }
  return [...new Set(problems)].sort();
}

/** The document's path for a Fastify route pattern (`/api/books/:id` → `/api/books/{id}`). */
export function openApiPath(route: string): string {
  return route.replace(/:(\w+)(\([^)]*\))?/g, '{$1}').replace(/\*$/, '{*}');
}

const pointer = (...segments: string[]) => segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
const schemaId = (path: string, method: string, status: string, type: string) =>
  `openapi#/${pointer('paths', path, method, 'responses', status, 'content', type, 'schema')}`;
const mediaType = (type: string | undefined) => (type ?? '').split(';')[0]!.trim().toLowerCase();

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;

/** The ids of every JSON response's schema in the document (added to Ajv as `openapi`). */
function responseSchemaIds(document: { paths?: Record<string, Record<string, { responses?: Responses }>> }): string[] {
  const ids: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [key, response] of Object.entries(operation.responses ?? {})) {
        for (const type of Object.keys(response.content ?? {})) {
          if (mediaType(type) === 'application/json') ids.push(schemaId(path, method, key, type));
        }
      }
    }
  }
  return ids;
}

// Where compiled validators are kept between test files and runs: beside the Ajv they need (the
// generated code requires its runtime helpers and ajv-formats' formats), under node_modules/.cache,
// which jest does not transform.
const AJV_ROOT = path.dirname(require.resolve('ajv/package.json'));
const VALIDATORS_DIR = path.join(AJV_ROOT, '..', '.cache', 'persona-openapi-validators');
const versionOf = (pkg: string) => (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;
/** Changes whenever the code made for a document would: Ajv's and ajv-formats' versions, the options below. */
const VALIDATORS_VERSION = `1 ajv@${versionOf('ajv')} ajv-formats@${versionOf('ajv-formats')}`;

/** Where the validators of `document`'s responses are kept (see responseValidators). */
export function openApiValidatorsFile(document: object): string {
  const key = createHash('sha256').update(VALIDATORS_VERSION).update('\0').update(JSON.stringify(document)).digest('hex').slice(0, 32);
  return path.join(VALIDATORS_DIR, `${key}.js`);
}

/**
 * A validator for each JSON response of `document`, by schema id. Compiling a service's document
 * takes ~0.5 s of CPU, and every test file that injects starts a fresh module registry: the first
 * file to see a document compiles it and writes the validators as Ajv standalone code (keyed by the
 * document's hash; written under a private name and renamed into place, so two workers writing it
 * at once each leave a whole file); the others load that code (~30 ms).
 */
function responseValidators(document: object, ids: readonly string[]): Map<string, ValidateFunction> {
  const file = openApiValidatorsFile(document);
  const exportName = (i: number) => `v${i}`;
  if (existsSync(file)) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const loaded = require(file) as Record<string, ValidateFunction>;
      if (ids.every((_id, i) => typeof loaded[exportName(i)] === 'function')) return new Map(ids.map((id, i) => [id, loaded[exportName(i)]!]));
    } catch {
      // A file this code cannot use: made again below.
    }
  }
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  // The document as one schema, so a response's $ref to its components resolves.
  ajv.addSchema(document, 'openapi');
  const validators = new Map<string, ValidateFunction>();
  const exports: Record<string, string> = {};
  ids.forEach((id, i) => {
    const validate = ajv.getSchema(id);
    if (!validate) return;
    validators.set(id, validate);
    exports[exportName(i)] = id;
  });
  if (validators.size === ids.length) {
    mkdirSync(VALIDATORS_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.${randomUUID()}`;
    writeFileSync(partial, standaloneCode(ajv, exports));
    renameSync(partial, file);
  }
  return validators;
}

/** Checks answers against one OpenAPI document; validators are compiled (or loaded) once per document. */
export class AnswerChecker {
  private readonly validators: Map<string, ValidateFunction>;

  constructor(private readonly document: { paths?: Record<string, Record<string, { responses?: Responses }>> }) {
    // Every validator made now, not while a test waits for an answer: the first answer of each kind
    // would otherwise take a compile's milliseconds longer than the app took.
    this.validators = responseValidators(document, responseSchemaIds(document));
  }

  private validator(id: string): ValidateFunction | undefined {
    return this.validators.get(id);
  }

  /** Why the answer is not one the document describes, or null when it is (or the route is not described). */
  problem(answer: RouteAnswer): string | null {
    const path = openApiPath(answer.route);
    const operation = this.document.paths?.[path]?.[answer.method.toLowerCase()];
    if (!operation) return null;
    const name = `${answer.method} ${answer.route} answered ${answer.statusCode}`;
    const responses = operation.responses ?? {};
    const status = String(answer.statusCode);
    const key = [status, `${status[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key) return `${name}, a status the OpenAPI document does not list for it (${Object.keys(responses).join(', ')})`;
    // No body: a 204, a 304, a HEAD's answer.
    if (answer.body.length === 0 && (answer.statusCode === 204 || answer.statusCode === 304 || answer.method === 'HEAD')) return null;
    const content = responses[key]!.content;
    if (!content) return answer.body.length === 0 ? null : `${name} with a body, where the OpenAPI document says it has none`;
    const type = mediaType(answer.contentType);
    const declared = Object.keys(content).find((k) => mediaType(k) === type);
    if (!declared) return `${name} as ${type || 'no content type'}, where the OpenAPI document says ${Object.keys(content).join(' or ')}`;
    if (type !== 'application/json') return null;
    const id = schemaId(path, answer.method.toLowerCase(), key, declared);
    const validate = this.validator(id);
    if (!validate) return `${name}: the OpenAPI document's schema for it does not compile (${id})`;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${name} with a body that is not JSON: ${answer.body.slice(0, 80)}`;
    }
    if (validate(body)) return null;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`.trim());
    return `${name} with a body that does not match the OpenAPI document: ${errors.join('; ')}\n${answer.body.slice(0, 400)}`;
  }
}

const ROUTE = Symbol('answered by route');
const checkers = new WeakMap<object, AnswerChecker | null>();
function checkerOf(app: FastifyLike): AnswerChecker | null {
  if (checkers.has(app)) return checkers.get(app)!;
  let checker: AnswerChecker | null = null;
  // Only apps built on service-kit describe themselves; `swagger()` works once the app is ready (inject readies it).
  // Another app with the same document (a file starting its service again) loads the validators
  // the first compiled (responseValidators), so nothing is kept here by document.
  if (typeof app.swagger === 'function') checker = new AnswerChecker(app.swagger() as ConstructorParameters<typeof AnswerChecker>[0]);
  checkers.set(app, checker);
  return checker;
}

/** The answer's problem against `app`'s document, or null. */
export function injectedAnswerProblem(app: FastifyLike, res: InjectedAnswer): string | null {
  const route = (res.raw.req as Record<symbol, { method: string; url: string } | undefined>)[ROUTE];
  if (!route) return null;
  const checker = checkerOf(app);
  if (!checker) return null;
  const contentType = res.headers['content-type'];
  return checker.problem({
    method: route.method,
    route: route.url,
    statusCode: res.statusCode,
    contentType: typeof contentType === 'string' ? contentType : undefined,
    body: res.body,
  });
}

/**
 * From now on every Fastify instance made in this process checks what its `inject` answers (the
 * promise form) against its own OpenAPI document, and rejects naming the mismatch; answers of
 * routes the document does not describe, and apps that have none, pass. Returns the undo.
 */
export function checkInjectAnswers(): () => void {
  const listen = (message: unknown) => {
    const app = (message as { fastify: FastifyLike }).fastify;
    app.addHook('onSend', (request, _reply, _payload, done) => {
      if (request.routeOptions.url) (request.raw as Record<symbol, unknown>)[ROUTE] = { method: request.method, url: request.routeOptions.url };
      done();
    });
    const inject = app.inject;
    app.inject = function checkedInject(this: FastifyLike, ...args: unknown[]) {
      if (args.length === 0 || args[0] === undefined || typeof args[1] === 'function') return inject.apply(this, args);
      // The app's checker is made (its validators compiled) before its first request is sent, never between an answer and the test.
      const ready = checkers.has(app) ? Promise.resolve() : (app as unknown as { ready(): Promise<unknown> }).ready().then(() => checkerOf(app));
      return ready
        .then(() => inject.apply(this, args) as Promise<InjectedAnswer>)
        .then((res) => {
          const problem = injectedAnswerProblem(app, res);
          if (problem) throw new Error(`The answer does not match the OpenAPI document: ${problem}`);
          return res;
        });
    };
  };
  initialization.subscribe(listen);
  return () => initialization.unsubscribe(listen);
}

// The validator is an ES module, which jest's CommonJS runtime cannot load: it runs in a Node of its own.
const VALIDATE = `
import { Validator } from '@seriousme/openapi-schema-validator';
let text = '';
for await (const chunk of process.stdin) text += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(text));
process.stdout.write(JSON.stringify({ version: validator.version, valid: result.valid, errors: result.errors ?? [] }));
`;

/** The OpenAPI validator's (@seriousme/openapi-schema-validator) verdict on a document: its version and, when it is not valid, why. */
export async function openApiDocumentProblems(document: object): Promise<{ version: string; problems: string[] }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', VALIDATE], { cwd: path.join(__dirname, '..'), stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(document));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the OpenAPI validator exited with ${code}`);
  const verdict = JSON.parse(out) as { version: string; valid: boolean; errors: Array<{ instancePath?: string; message?: string; params?: unknown }> | string };
  const problems =
    typeof verdict.errors === 'string'
      ? [verdict.errors]
      : verdict.errors.map((e) => `${e.instancePath || '(document)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  return { version: verdict.version, problems: verdict.valid ? [] : problems };
}
