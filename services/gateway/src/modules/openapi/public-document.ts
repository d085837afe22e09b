// The public API's one OpenAPI document (GET /api/openapi.json): each service's own description
// (its /openapi.json, made from its routes' schemas) read over HTTP, kept only for the paths the
// gateway routes to that service, and put together with the gateway's own /api routes.
import type { OpenApiDocument, ServiceName } from '@persona/contracts';
import { HttpError, OPENAPI_VERSION } from '@persona/service-kit';
import { ownerOf } from '../proxy/upstreams';

/** How long an assembled document is kept: a redeployed service shows within this long. */
export const DOCUMENT_TTL_MS = 10_000;
const FETCH_TIMEOUT_MS = 3_000;

const TAG_DESCRIPTIONS: Record<string, string> = {
  admin: "Needs an administrator's token: `Authorization: Bearer <token>` from POST /api/admin/login.",
};

type Part = { source: ServiceName | 'gateway'; document: OpenApiDocument };
type Components = Record<string, Record<string, unknown>>;

/** `value` with every `#/components/schemas/X` reference renamed to `#/components/schemas/<prefix>.X`. */
function renameSchemaRefs(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => renameSchemaRefs(v, prefix));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')
        ? `#/components/schemas/${prefix}.${v.slice('#/components/schemas/'.length)}`
        : renameSchemaRefs(v, prefix),
    ]),
  );
}

/**
 * One document from the parts. The rule for what is public: a path is kept when the gateway would
 * route it to the part it came from (API_OWNERS: `/api/books…` from the catalogue, and so on); the
 * gateway's own part gives its /api routes. So /internal, /healthz, /readyz and /metrics, which
 * the gateway never routes, stay out. Each part's shared schemas are named after it
 * (`catalogue.def-0`), so two services' names never collide.
 */
export function assemblePublicDocument(parts: readonly Part[]): OpenApiDocument {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const securitySchemes: Record<string, unknown> = {};
  const tags = new Set<string>();
  for (const { source, document } of parts) {
    const components = (document.components ?? {}) as Components;
    for (const [name, schema] of Object.entries(components.schemas ?? {})) schemas[`${source}.${name}`] = renameSchemaRefs(schema, source);
    Object.assign(securitySchemes, components.securitySchemes ?? {});
    for (const [path, item] of Object.entries(document.paths)) {
      const routed = source === 'gateway' ? path.startsWith('/api/') : ownerOf(path) === source;
      if (!routed) continue;
      paths[path] = renameSchemaRefs(item, source);
      for (const operation of Object.values(item as Record<string, { tags?: string[] }>)) for (const tag of operation.tags ?? []) tags.add(tag);
    }
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const document: OpenApiDocument = {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Persona Books API',
      version: '1.0.0',
      description:
        'Every route the shop serves through its gateway, from the schemas the services validate with. Answers are JSON (`{data, message?}`, lists with `meta`) unless a route says otherwise; any status a route does not list answers the error shape `{statusCode, error, message, code?, requestId?}`. Money is in rupees.',
    },
    tags: [...tags].sort().map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths: sorted,
    components: { schemas, securitySchemes },
  };
  return document;
}

export interface PublicDocumentOptions {
  upstreams: Partial<Record<ServiceName, string>>;
  /** The gateway's own description (its app.swagger()), read once it is ready. */
  own: () => OpenApiDocument;
  ttlMs?: number;
}

/**
 * The assembled document, read from the services as they run now (so it is always what they
 * serve, in the embedded shop and behind nginx alike), kept DOCUMENT_TTL_MS; concurrent readers
 * share one reading. A service that does not answer is a 503 naming it, never a document without
 * its routes.
 */
export class PublicDocument {
  private kept: { document: OpenApiDocument; until: number } | undefined;
  private reading: Promise<OpenApiDocument> | undefined;

  constructor(private readonly options: PublicDocumentOptions) {}

  /** The last document read, if it is still fresh (what the reference page's synchronous hook serves). */
  get current(): OpenApiDocument | undefined {
    return this.kept && this.kept.until > Date.now() ? this.kept.document : undefined;
  }

  async read(): Promise<OpenApiDocument> {
    const fresh = this.current;
    if (fresh) return fresh;
    this.reading ??= this.assemble().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async assemble(): Promise<OpenApiDocument> {
    const services = Object.entries(this.options.upstreams).filter((e): e is [ServiceName, string] => Boolean(e[1]));
    const parts = await Promise.all(
      services.map(async ([service, base]): Promise<Part> => {
        try {
          const res = await fetch(`${base}/openapi.json`, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
          if (!res.ok) throw new Error(`answered ${res.status}`);
          return { source: service, document: (await res.json()) as OpenApiDocument };
        } catch {
          throw new HttpError(503, `The ${service} service's part of the API description is not available, please try again shortly`, 'DOCUMENT_UNAVAILABLE');
        }
      }),
    );
    const document = assemblePublicDocument([{ source: 'gateway', document: this.options.own() }, ...parts]);
    this.kept = { document, until: Date.now() + (this.options.ttlMs ?? DOCUMENT_TTL_MS) };
    return document;
  }
}
