// The answers every process's operational routes give (/healthz, /readyz), beside /metrics' text.
import { Type, type Static } from '@sinclair/typebox';

export const Health = Type.Object({
  status: Type.Literal('ok'),
  service: Type.String(),
  pressure: Type.Optional(Type.Object({ underPressure: Type.Boolean(), reason: Type.Optional(Type.String()) })),
});

export const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
  service: Type.String(),
  checks: Type.Record(Type.String(), Type.String()),
});

/** An OpenAPI document (each service's /openapi.json, the gateway's /api/openapi.json): its frame; the rest is OpenAPI 3.1's. */
export const OpenApiDocument = Type.Object(
  {
    openapi: Type.String(),
    info: Type.Object({ title: Type.String(), version: Type.String(), description: Type.Optional(Type.String()) }, { additionalProperties: true }),
    paths: Type.Record(Type.String(), Type.Unknown()),
    components: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    tags: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: true },
);
export type OpenApiDocument = Static<typeof OpenApiDocument>;
