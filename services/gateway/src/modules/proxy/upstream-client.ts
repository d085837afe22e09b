// The proxy's way to the services: one keep-alive undici pool per upstream, driven through
// undici's own dispatch handler (no request wrapper, no header copies beyond the one the
// proxy needs). A small answer of known length arrives as one Buffer (written to the client
// in one write, headers and body together); anything larger or of unknown length (files,
// CSV exports, PDFs) as a stream that asks the upstream for more only when the client reads.
import { Readable } from 'node:stream';
import { Pool, util } from 'undici';
import type { Dispatcher } from 'undici';

export type AnswerHeaders = Record<string, string | string[] | undefined>;

export interface UpstreamAnswer {
  statusCode: number;
  headers: AnswerHeaders;
  /** The whole body (small answers of known length), or a stream of it. */
  body: Buffer | Readable;
}

export interface UpstreamRequest {
  method: string;
  /** The path and query, as the client sent them. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Readable;
  /** Answers of known length up to this many bytes arrive whole (default SMALL_BODY_BYTES); longer ones stream. */
  bufferUpTo?: number;
  /** Answers of unknown length (chunked) arrive whole too, so a failure midway is an error, not a cut stream. */
  bufferUnknownLength?: boolean;
}

/** Answers up to this size are buffered instead of streamed: one write instead of a stream's several. */
export const SMALL_BODY_BYTES = 64 * 1024;

/** Thrown (or a stream destroyed with it) when the upstream's socket closed before its answer was whole. */
export class CutShortError extends Error {
  constructor(cause: Error) {
    super(`the answer was cut short: ${cause.message}`, { cause });
  }
}

const POOL_OPTIONS: Pool.Options = {
  connections: 128,
  pipelining: 1,
  keepAliveTimeout: 60_000,
  keepAliveMaxTimeout: 600_000,
  headersTimeout: 30_000,
  bodyTimeout: 60_000,
};

/** A stream the upstream's chunks are pushed into; reading it resumes a paused upstream. */
class AnswerStream extends Readable {
  resumeUpstream: (() => void) | null = null;
  abortUpstream: ((err: Error) => void) | null = null;

  override _read(): void {
    const resume = this.resumeUpstream;
    this.resumeUpstream = null;
    resume?.();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    // The client went away (or the answer failed): the upstream stops sending.
    if (!this.readableEnded) this.abortUpstream?.(err ?? new Error('the client closed the connection'));
    callback(err);
  }
}

/**
 * One request's handler, in undici's dispatch protocol: settles its promise with the status and
 * headers as soon as a large answer starts, or with the whole body once a small one is complete.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private chunks: Buffer[] = [];
  private size = 0;
  private answer: UpstreamAnswer | null = null;
  private stream: AnswerStream | null = null;
  private abort: ((err?: Error) => void) | null = null;
  /** undici's resume, kept for when the client has read what it has (see AnswerStream._read). */
  private resumeLater: (() => void) | null = null;

  constructor(
    private readonly bufferUpTo: number,
    private readonly bufferUnknownLength: boolean,
    private readonly resolve: (answer: UpstreamAnswer) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    const headers = util.parseHeaders(rawHeaders) as AnswerHeaders;
    const length = headers['content-length'];
    if (length === undefined ? this.bufferUnknownLength : Number(length) <= this.bufferUpTo) {
      this.answer = { statusCode, headers, body: Buffer.alloc(0) };
      return true;
    }
    const stream = new AnswerStream();
    stream.abortUpstream = (err) => this.abort?.(err);
    this.stream = stream;
    this.resumeLater = resume;
    this.resolve({ statusCode, headers, body: stream });
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.stream) {
      if (this.stream.push(chunk)) return true;
      this.stream.resumeUpstream = this.resumeLater;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  onComplete(): void {
    if (this.stream) {
      this.stream.push(null);
      return;
    }
    const answer = this.answer!;
    answer.body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    this.resolve(answer);
  }

  onError(err: Error): void {
    if (this.stream) {
      this.stream.destroy(new CutShortError(err));
      return;
    }
    // Headers had arrived: the body is what failed.
    this.reject(this.answer ? new CutShortError(err) : err);
  }
}

/** The services' pools, by base URL. */
export class UpstreamClient {
  private readonly pools = new Map<string, Pool>();

  private poolFor(base: string): Pool {
    let pool = this.pools.get(base);
    if (!pool) {
      pool = new Pool(base, POOL_OPTIONS);
      this.pools.set(base, pool);
    }
    return pool;
  }

  /** Sends a request to the service at `base`; rejects with undici's error when no answer came (a CutShortError when one began). */
  send(base: string, request: UpstreamRequest): Promise<UpstreamAnswer> {
    const pool = this.poolFor(base);
    return new Promise((resolve, reject) => {
      pool.dispatch(
        { path: request.path, method: request.method as Dispatcher.HttpMethod, headers: request.headers, body: request.body ?? null },
        new Exchange(request.bufferUpTo ?? SMALL_BODY_BYTES, request.bufferUnknownLength ?? false, resolve, reject),
      );
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }
}
