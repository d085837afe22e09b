// Each service's OpenAPI 3.1 description, made by @fastify/swagger from its routes' TypeBox
// schemas (packages/contracts) and served at GET /openapi.json, where the gateway reads it to
// assemble the public document (/api/openapi.json).
// Kept in the declarations: every app built on the kit has `swagger()`, and its routes may say `hide` and `tags`.
/// <reference types="@fastify/swagger" preserve="true" />
import swagger from '@fastify/swagger';
import { ErrorBody, isAdminRoute } from '@persona/contracts';
import type { FastifyInstance } from 'fastify';

/** The security scheme the admin routes name: the token POST /api/admin/login gives. */
export const ADMIN_SECURITY_SCHEME = 'adminToken';

/** The openapi version every document says, service or public. */
export const OPENAPI_VERSION = '3.1.0';

/** The first path segment after /api (books, orders…): an operation's group in the reference page. */
export function operationTag(url: string): string | undefined {
  return /^\/api\/([^/]+)/.exec(url)?.[1];
}

interface RouteSchema {
  hide?: boolean;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  response?: Record<string, unknown>;
}

/**
 * Registers @fastify/swagger on `app` (before any route, so it sees them all): every /api operation is
 * grouped by its resource, the admin ones (ADMIN_ROUTES) tagged `admin` and said to need the admin
 * token, and every operation answers any status it does not list in the error shape (`default`),
 * as createServiceApp's error handler does. Routes `describes` refuses are left out.
 */
export function registerOpenApi(app: FastifyInstance, name: string, describes: (url: string) => boolean = () => true): void {
  void app.register(swagger, {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: { title: `Persona Books: ${name}`, version: '1.0.0' },
      components: { securitySchemes: { [ADMIN_SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: ({ schema, url, route }) => {
      const given = (schema ?? {}) as RouteSchema;
      if (!describes(url)) return { url, schema: { ...given, hide: true } as typeof schema };
      const methods = ([] as string[]).concat(route.method);
      const tag = operationTag(url);
      // A template's {name} stands for any one segment, as the policy's [^/]+ does.
      const admin = tag !== undefined && methods.some((m) => isAdminRoute(m, url.replace(/:(\w+)/g, '{$1}')));
      const tags = given.tags ?? [...new Set([...(tag ? [tag] : []), ...(admin ? ['admin'] : [])])];
      return {
        url,
        schema: {
          ...given,
          ...(tags.length > 0 ? { tags } : {}),
          ...(admin ? { security: [{ [ADMIN_SECURITY_SCHEME]: [] }] } : {}),
          response: { default: { ...ErrorBody, description: 'Any other status: the error shape' }, ...given.response },
        } as typeof schema,
      };
    },
  });
}
