// Request validation: bodies are validated strictly (no type coercion, unknown
// fields refused); query strings, params and headers are coerced from their
// string form. Errors read like sentences a UI can show.
import Ajv, { type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { PLAIN_TEXT_PATTERN } from '@persona/contracts';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    allowUnionTypes: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  // ajv-formats' uuid also takes "urn:uuid:…", which PostgreSQL's uuid type refuses (a 500): ids are bare UUIDs.
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  return ajv;
}

const strictAjv = makeAjv({ coerceTypes: false });
const coercingAjv = makeAjv({ coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  return ajv.compile(schema as object);
};

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function fieldName(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return path ? `${path}.${missing}` : missing;
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return path ? `${path}.${extra}` : extra;
  }
  return path;
}

export function describeValidationError(error: ErrorObject, part: string): string {
  const where = PART_NAMES[part] ?? part;
  const field = fieldName(error);
  const subject = field ? `${where} field "${field}"` : where;
  switch (error.keyword) {
    case 'required':
      return `${subject} is required`;
    case 'additionalProperties':
      return `${subject} is not allowed`;
    case 'type':
      return `${subject} must be ${(error.params as { type: string }).type}`;
    case 'format': {
      const format = (error.params as { format: string }).format;
      return format === 'uuid' ? `${subject} must be a valid id` : `${subject} must be a valid ${format}`;
    }
    case 'maxLength':
      return `${subject} must be at most ${(error.params as { limit: number }).limit} characters`;
    case 'minLength':
      return (error.params as { limit: number }).limit === 1 ? `${subject} must not be empty` : `${subject} ${error.message}`;
    case 'pattern': {
      const pattern = (error.params as { pattern: string }).pattern;
      if (pattern === '\\S') return `${subject} must not be blank`;
      if (pattern === PLAIN_TEXT_PATTERN) return `${subject} must be plain text (no control characters)`;
      return `${subject} has an invalid format`;
    }
    case 'enum':
      return `${subject} must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    case 'anyOf':
    case 'oneOf':
      return `${subject} has an invalid value`;
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * For a union (anyOf), ajv lists every branch's failure and then the union's.
 * A "must be string" from the branch the value was never meant for is noise:
 * prefer an error from inside the value, else the union's own.
 */
export function pickError(errors: ErrorObject[]): ErrorObject | undefined {
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  if (unions.size === 0) return errors[0];
  // A union of literals: say which values are allowed.
  for (const path of unions) {
    const branches = errors.filter((e) => e.instancePath === path && e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
    if (branches.length > 0 && branches.every((e) => e.keyword === 'const')) {
      return { ...branches[0], keyword: 'enum', params: { allowedValues: branches.map((e) => (e.params as { allowedValue: unknown }).allowedValue) } };
    }
  }
  const inside = errors.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && !(e.keyword === 'type' && unions.has(e.instancePath)));
  return inside ?? errors.find((e) => unions.has(e.instancePath) && (e.keyword === 'anyOf' || e.keyword === 'oneOf'));
}

export function schemaErrorFormatter(errors: ErrorObject[], dataVar: string): Error {
  const first = pickError(errors);
  const message = first ? describeValidationError(first, dataVar) : `${dataVar} is invalid`;
  return Object.assign(new Error(message), { statusCode: 400, code: 'VALIDATION_ERROR', validation: errors });
}

/**
 * A strict validator for data that does not arrive as a JSON body (multipart
 * fields, for instance): returns the first problem as a sentence, or null.
 */
export function compileValidator(schema: object, part = 'body'): (value: unknown) => string | null {
  const validate = strictAjv.compile(schema);
  return (value) => {
    if (validate(value)) return null;
    const first = pickError(validate.errors ?? []);
    return first ? describeValidationError(first, part) : `${part} is invalid`;
  };
}
