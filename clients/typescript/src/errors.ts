import type { components } from "./generated/openapi.js";

/** A stable error code of the service (spec §7), e.g. "file_not_found", "too_many_jobs", "internal_error". */
export type ErrorCode = components["schemas"]["ErrorCode"];
type Job = components["schemas"]["Job"];

/**
 * An error answer of the service: `{error: {code, message}}` (spec §2.7), or a job that finished `failed`.
 * `status` is the HTTP status (the status the service would answer for a failed job: 502, or 503 for `interrupted`
 * and `service_unavailable`); `job` is set when a job ran and failed; `retryAfter` (seconds) when the answer carried
 * Retry-After (429).
 */
export class DocapiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly job?: Job;
  readonly retryAfter?: number;

  constructor(status: number, code: ErrorCode, message: string, job?: Job, retryAfter?: number) {
    super(`${code}: ${message}`);
    this.name = "DocapiError";
    this.status = status;
    this.code = code;
    this.job = job;
    this.retryAfter = retryAfter;
  }

  /** From an error answer; a body that is not the service's error object (e.g. from a proxy) keeps the status. */
  static fromResponse(status: number, body: unknown, retryAfter?: number): DocapiError {
    const e = body as { error?: { code?: ErrorCode; message?: string }; job?: Job } | undefined;
    const code = e?.error?.code ?? (status >= 500 ? "service_unavailable" : "invalid_request");
    return new DocapiError(status, code, e?.error?.message ?? `HTTP ${status}`, e?.job, retryAfter);
  }

  /** From a job whose status is `failed`: its `error` and the job. */
  static fromJob(job: Job): DocapiError {
    const code = job.error?.code ?? "internal_error";
    const status = code === "interrupted" || code === "service_unavailable" ? 503 : 502;
    return new DocapiError(status, code, job.error?.message ?? `job ${job.id} failed`, job);
  }
}
