// Errors a route can throw to answer with DESIGN §6's error shape.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, code?: string) => new HttpError(400, message, code);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message, 'UNAUTHORIZED');
export const forbidden = (message = 'Not allowed') => new HttpError(403, message, 'FORBIDDEN');
export const notFound = (message = 'Not found') => new HttpError(404, message, 'NOT_FOUND');
export const conflict = (message: string, code?: string) => new HttpError(409, message, code ?? 'CONFLICT');
export const payloadTooLarge = (message: string) => new HttpError(413, message, 'PAYLOAD_TOO_LARGE');
export const unsupportedMediaType = (message: string) => new HttpError(415, message, 'UNSUPPORTED_MEDIA_TYPE');
export const serviceUnavailable = (message = 'Service temporarily unavailable, please try again shortly') => new HttpError(503, message, 'UNAVAILABLE');

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}
