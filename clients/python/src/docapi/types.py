"""The shapes the service answers with (spec §2), as TypedDicts: what `GET /v1/openapi.json` describes."""
from __future__ import annotations

from typing import Any, Literal, TypedDict


class File(TypedDict, total=False):
    """A stored file: `download_url` is signed and valid one hour; `pages` counts from 1 (null for non-PDFs)."""
    object: str
    id: str
    name: str
    size: int
    content_type: str
    pages: int | None
    created_at: str
    expires_at: str
    source: str
    download_url: str


class ErrorDetail(TypedDict):
    code: str
    message: str


class JobOutput(TypedDict, total=False):
    """What a succeeded job made: `files` always; `text`, `data` (an object: the operation's structured result),
    `note`, `model`, `steps` where the operation has them."""
    files: list[File]
    text: str
    data: dict[str, Any]
    note: str
    model: str
    steps: list[Any]


class Job(TypedDict, total=False):
    """A job: queued → running → succeeded | failed; `output` once succeeded, `error` once failed."""
    object: str
    id: str
    operation: str
    status: Literal["queued", "running", "succeeded", "failed"]
    created_at: str
    started_at: str | None
    finished_at: str | None
    progress: dict[str, Any] | None
    input: dict[str, Any]
    output: JobOutput | None
    error: ErrorDetail | None
    webhook: dict[str, Any] | None


class List(TypedDict):
    """A list answer: `{object: "list", data: [...]}`."""
    object: str
    data: list[Any]
