"""Errors of the service as exceptions: `{error: {code, message}}` (spec §7), or a job that finished `failed`.

One class per error family of the spec, all `DocapiError`s with `status`, `code` and `message`:

    400 BadRequestError            invalid_request, invalid_file, empty_file, fetch_failed
    401 AuthenticationError        missing_api_key, invalid_api_key
    402 QuotaExceededError         quota_exceeded
    403 PermissionDeniedError      link_expired
    404 NotFoundError              file_not_found, job_not_found, unknown_operation, not_found
    410 GoneError                  file_expired
    413 PayloadTooLargeError       file_too_large
    415 UnsupportedMediaTypeError  unsupported_file_type
    429 RateLimitError             rate_limited, too_many_jobs (with retry_after)
    5xx ServerError                service_unavailable, internal_error, interrupted
        JobFailedError             a job that ran and failed (502; 503 when interrupted), with the job
"""
from __future__ import annotations

from typing import Any, Mapping


class DocapiError(Exception):
    """An error answer, or a failed job.

    Attributes:
        status: the HTTP status (for a failed job, what the service answers for it: 502, or 503 for
            `interrupted` and `service_unavailable`)
        code: the service's stable error code, e.g. "file_not_found", "too_many_jobs", "internal_error"
        message: the service's message, for a person
        job: the failed job (a dict), when a job ran and failed
        retry_after: seconds from the Retry-After header, when the answer carried one
    """

    def __init__(self, status: int, code: str, message: str, job: dict[str, Any] | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.job = job
        self.retry_after = retry_after

    @classmethod
    def from_response(cls, status: int, body: Any, retry_after: float | None = None) -> DocapiError:
        """From an error answer, as the class of its status; a body that is not the service's error object (a
        proxy's) keeps the status."""
        fields: dict[str, Any] = body if isinstance(body, dict) else {}
        error: dict[str, Any] = fields["error"] if isinstance(fields.get("error"), dict) else {}
        job: dict[str, Any] | None = fields["job"] if isinstance(fields.get("job"), dict) else None
        code = str(error.get("code") or ("service_unavailable" if status >= 500 else "invalid_request"))
        kind = _BY_STATUS.get(status, ServerError if status >= 500 else DocapiError)
        if job is not None and status >= 500:
            kind = JobFailedError
        return kind(status, code, str(error.get("message") or f"HTTP {status}"), job, retry_after)

    @classmethod
    def from_job(cls, job: Mapping[str, Any]) -> JobFailedError:
        """From a job whose status is `failed`: its error and the job."""
        error: dict[str, Any] = job.get("error") or {}
        code = str(error.get("code") or "internal_error")
        status = 503 if code in ("interrupted", "service_unavailable") else 502
        return JobFailedError(status, code, str(error.get("message") or f"job {job.get('id')} failed"), dict(job))


class BadRequestError(DocapiError):
    """400: `invalid_request` (the message names the member), `invalid_file`, `empty_file`, `fetch_failed`."""


class AuthenticationError(DocapiError):
    """401: `missing_api_key` or `invalid_api_key`."""


class QuotaExceededError(DocapiError):
    """402 `quota_exceeded`: this month's operations (or AI operations) of the plan are used."""


class PermissionDeniedError(DocapiError):
    """403 `link_expired`: a download_url older than one hour; `files.get` gives a fresh one."""


class NotFoundError(DocapiError):
    """404: `file_not_found`, `job_not_found`, `unknown_operation` (or a workflow that does not exist)."""


class GoneError(DocapiError):
    """410 `file_expired`: files are deleted 24 hours after creation."""


class PayloadTooLargeError(DocapiError):
    """413 `file_too_large`."""


class UnsupportedMediaTypeError(DocapiError):
    """415 `unsupported_file_type`: the contents are not a type the service (or this operation) takes."""


class RateLimitError(DocapiError):
    """429: `rate_limited` (requests per minute) or `too_many_jobs`; `retry_after` says when to try again."""


class ServerError(DocapiError):
    """5xx: `service_unavailable`, `internal_error`, `interrupted`; safe to retry."""


class JobFailedError(ServerError):
    """A job that ran and failed: `job` is the failed job (its `error` is this error), `status` 502 (503 when it was
    `interrupted`)."""

    job: dict[str, Any]


_BY_STATUS: dict[int, type[DocapiError]] = {
    400: BadRequestError, 401: AuthenticationError, 402: QuotaExceededError, 403: PermissionDeniedError,
    404: NotFoundError, 410: GoneError, 413: PayloadTooLargeError, 415: UnsupportedMediaTypeError, 429: RateLimitError,
}
