import { readFile } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import { DocapiError } from "./errors.js";

/** A stored file (spec §2.2): id, name, size, pages, download_url (signed, one hour) ... */
export type FileObject = components["schemas"]["FileObject"];
/** A job (spec §2.3): status queued | running | succeeded | failed, input, output (files, text, data ...), error. */
export type Job = components["schemas"]["Job"];

/** An operation's name, e.g. "rotate", "compress", "extract": every `POST /{operation}` that answers with a job. */
export type Operation = {
  [P in keyof paths]: P extends `/${infer Name}`
    ? Name extends `${string}/${string}`
      ? never
      : paths[P] extends { post: { responses: { 202: { content: { "application/json": Job } } } } } ? Name : never
    : never;
}[keyof paths];

/** The request body of `POST /{operation}` without `wait`, which {@link Docapi.run} sets: input file(s) and options. */
export type OperationRequest<O extends Operation> = Omit<
  NonNullable<paths[`/${O}`]["post"]>["requestBody"]["content"]["application/json"],
  "wait"
>;

export interface DocapiOptions {
  /** API key (`Authorization: Bearer`). */
  apiKey: string;
  /** The base address, ending in /v1; default http://localhost:8080/v1. */
  baseUrl?: string;
  /** How often a request answered 429 or 503 is sent again (after Retry-After, or a backoff), default 5. */
  maxRetries?: number;
  /** The fetch to use, default globalThis.fetch. */
  fetch?: typeof fetch;
}

export interface RunOptions {
  /** true (default): poll until the job succeeded or failed; false: return the job at once (`wait: 0`). */
  wait?: boolean;
  /** Longest time to poll, in seconds (default 900); then the running job's error is a plain Error. */
  timeout?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After as milliseconds (delay-seconds or an HTTP date), or undefined. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * A docapi client. `api` is the whole interface, typed from the service's OpenAPI description (openapi-fetch); the
 * methods here are the helpers people otherwise write by hand. Every request (also through `api`) is sent again on
 * 429 and 503, after Retry-After; the helpers throw {@link DocapiError} for an error answer.
 */
export class Docapi {
  /** Every endpoint, typed: e.g. `await docapi.api.GET("/usage")`. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly maxRetries: number;
  private readonly fetch: typeof fetch;

  constructor(options: DocapiOptions) {
    this.baseUrl = (options.baseUrl ?? "http://localhost:8080/v1").replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.maxRetries = options.maxRetries ?? 5;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: { Authorization: `Bearer ${this.apiKey}` },
      fetch: (request) => this.retrying(() => this.fetch(request.clone())),
    });
  }

  /**
   * Uploads a file: a local path, bytes (then `name` is required: the service checks contents against it), or an
   * http(s) URL the service fetches (a `URL`, or a string starting with http:// or https://).
   *
   * @throws DocapiError e.g. invalid_file, file_too_large (413), unsupported_file_type (415), fetch_failed
   */
  async upload(input: string | URL | Uint8Array | Blob, options: { name?: string } = {}): Promise<FileObject> {
    const { name } = options;
    if (input instanceof URL || (typeof input === "string" && /^https?:\/\//i.test(input))) {
      return this.json(() => this.api.POST("/files", { body: { url: String(input), ...(name ? { name } : {}) } as never }));
    }
    const fileName = name ?? (typeof input === "string" ? basename(input) : input instanceof File ? input.name : undefined);
    if (!fileName) throw new TypeError("upload(bytes) needs { name }: the service checks the contents against it");
    const body = typeof input === "string" ? await readFile(input) : input;
    return this.json(() => this.api.POST("/files", {
      params: { query: { name: fileName } },
      body: body as never,
      bodySerializer: (b: unknown) => b as BodyInit,
      headers: { "Content-Type": "application/octet-stream" },
    }));
  }

  /**
   * Runs an operation, e.g. `run("rotate", { file: f.id, angle: 90 })`, and by default polls its job until it
   * succeeded, with backoff (0.5 s growing to 5 s) and Retry-After honoured.
   *
   * @returns the job; with `wait: false` as accepted (status queued or running, or already finished)
   * @throws DocapiError for a refused request (400, 402, 404, 410, 429 after retries) and for a job that failed
   *     (its code, e.g. internal_error or interrupted, and the job)
   */
  async run<O extends Operation>(operation: O, request: OperationRequest<O>, options: RunOptions = {}): Promise<Job> {
    const wait = options.wait ?? true;
    const body = wait ? request : { ...request, wait: 0 };
    const post = this.api.POST as unknown as (path: string, init: { body: unknown }) => ReturnType<Client<paths>["GET"]>;
    const job = await this.json<Job>(() => post(`/${operation}`, { body }) as never);
    return wait ? this.waitFor(job, options.timeout) : job;
  }

  /**
   * Polls a job until it succeeded or failed, with backoff from 0.5 s to 5 s.
   *
   * @param timeout seconds, default 900
   * @throws DocapiError when the job failed; Error when it is still running after `timeout`
   */
  async waitFor(job: Job | string, timeout = 900): Promise<Job> {
    let current = typeof job === "string" ? await this.job(job) : job;
    const end = Date.now() + timeout * 1000;
    let delay = 500;
    while (current.status === "queued" || current.status === "running") {
      if (Date.now() + delay > end) throw new Error(`job ${current.id} is still ${current.status} after ${timeout} s`);
      await sleep(delay);
      delay = Math.min(delay * 1.5, 5000);
      current = await this.job(current.id);
    }
    if (current.status === "failed") throw DocapiError.fromJob(current);
    return current;
  }

  /** The job now (GET /jobs/{id}). @throws DocapiError job_not_found */
  async job(id: string): Promise<Job> {
    return this.json(() => this.api.GET("/jobs/{id}", { params: { path: { id } } }));
  }

  /** The file with a fresh download_url (GET /files/{id}). @throws DocapiError file_not_found, file_expired */
  async file(id: string): Promise<FileObject> {
    return this.json(() => this.api.GET("/files/{id}", { params: { path: { id } } }));
  }

  /**
   * Writes a file's bytes to `path`: through its signed `download_url` when given a FileObject (no key; a fresh
   * link is fetched when it is past its hour), else through GET /files/{id}/content with the key.
   *
   * @returns path
   * @throws DocapiError file_not_found, file_expired
   */
  async download(file: FileObject | string, path: string): Promise<string> {
    const keyed = (id: string) => this.retrying(() => this.fetch(`${this.baseUrl}/files/${encodeURIComponent(id)}/content`,
      { headers: { Authorization: `Bearer ${this.apiKey}` } }));
    let response = typeof file === "string" ? await keyed(file) : await this.retrying(() => this.fetch(file.download_url));
    if (response.status === 403 && typeof file !== "string") response = await keyed(file.id); // link_expired
    if (!response.ok) {
      throw DocapiError.fromResponse(response.status, await response.json().catch(() => undefined), retryAfterSeconds(response));
    }
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(path));
    return path;
  }

  /** Sends until the answer is not 429 or 503 or the retries are used, waiting Retry-After (else a backoff) between. */
  private async retrying(call: () => Promise<Response>): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const response = await call();
      if ((response.status !== 429 && response.status !== 503) || attempt >= this.maxRetries) return response;
      await response.body?.cancel();
      await sleep(retryAfterMs(response.headers.get("Retry-After")) ?? Math.min(1000 * 2 ** attempt, 30_000));
    }
  }

  /** The parsed body of an openapi-fetch call's 2xx answer; an error answer becomes a DocapiError. */
  private async json<T>(call: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call();
    if (response.ok) return data as T;
    throw DocapiError.fromResponse(response.status, error, retryAfterSeconds(response));
  }
}

function retryAfterSeconds(response: Response): number | undefined {
  const ms = retryAfterMs(response.headers.get("Retry-After"));
  return ms === undefined ? undefined : ms / 1000;
}
