"""Errors of the service as exceptions: `{error: {code, message}}` (spec §2.7), or a job that finished `failed`."""
from __future__ import annotations

from typing import Any


class DocapiError(Exception):
    """An error answer, or a failed job.

    Attributes:
        status: the HTTP status (for a failed job, what the service answers for it: 502, or 503 for
            `interrupted` and `service_unavailable`)
        code: the service's stable error code, e.g. "file_not_found", "too_many_jobs", "internal_error"
        message: the service's message
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
    def from_response(cls, status: int, body: Any, retry_after: float | None = None) -> "DocapiError":
        """From an error answer; a body that is not the service's error object (a proxy's) keeps the status."""
        error = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
        code = error.get("code") or ("service_unavailable" if status >= 500 else "invalid_request")
        kind = RateLimitError if status == 429 else QuotaExceededError if code == "quota_exceeded" else cls
        job = body.get("job") if isinstance(body, dict) else None
        return kind(status, code, error.get("message") or f"HTTP {status}", job, retry_after)

    @classmethod
    def from_job(cls, job: dict[str, Any]) -> "DocapiError":
        """From a job whose status is `failed`: its error and the job."""
        error = job.get("error") or {}
        code = error.get("code") or "internal_error"
        status = 503 if code in ("interrupted", "service_unavailable") else 502
        return cls(status, code, error.get("message") or f"job {job.get('id')} failed", job)


class RateLimitError(DocapiError):
    """429: `rate_limited` (requests per minute) or `too_many_jobs`; `retry_after` says when to try again."""


class QuotaExceededError(DocapiError):
    """402 `quota_exceeded`: this month's operations (or AI operations) of the plan are used."""
