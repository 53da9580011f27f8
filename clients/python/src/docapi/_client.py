"""The clients: `Docapi` (blocking) and `AsyncDocapi` (asyncio), the same methods on both."""
from __future__ import annotations

import asyncio
import os
import threading
import time
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import IO, Any, AsyncIterator, Callable, Iterator, Mapping, Sequence, Union

import httpx

from ._operations import AsyncOperations, SyncOperations
from .errors import DocapiError, RateLimitError, ServerError
from .types import File, Job, List

#: A file to upload: a path, its bytes, or an open binary file.
Source = Union[str, os.PathLike, bytes, IO[bytes]]
CHUNK = 1 << 20
FINISHED = ("succeeded", "failed")
#: Seconds between the job polls of one client, together: at least this, and doubled on a 429 up to the maximum.
POLL_INTERVAL, MAX_POLL_INTERVAL = 0.5, 30.0


def _clean(body: dict[str, Any]) -> dict[str, Any]:
    """The request body without members left as None (the service's defaults then apply)."""
    return {k: v for k, v in body.items() if v is not None}


def _retry_after(response: httpx.Response) -> float | None:
    """Retry-After in seconds (delay-seconds or an HTTP date), or None."""
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


def _error(response: httpx.Response) -> DocapiError:
    try:
        body = response.json()
    except ValueError:
        body = None
    return DocapiError.from_response(response.status_code, body, _retry_after(response))


def _upload_parts(source: Source, name: str | None) -> tuple[str, int | None, Callable[[], Iterator[bytes]] | bytes]:
    """The file name, size (None when unknown) and a body: bytes, or a factory of chunk iterators (one per attempt)."""
    if isinstance(source, bytes):
        if not name:
            raise TypeError("upload(bytes) needs name=: the service checks the contents against it")
        return name, len(source), source
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)

        def from_path() -> Iterator[bytes]:
            with path.open("rb") as f:
                while chunk := f.read(CHUNK):
                    yield chunk
        return name or path.name, path.stat().st_size, from_path
    stream = source
    file_name = name or os.path.basename(getattr(stream, "name", "") or "")
    if not file_name:
        raise TypeError("upload(file object) needs name=: the service checks the contents against it")
    start = stream.tell() if stream.seekable() else None

    def from_stream() -> Iterator[bytes]:
        if start is not None:
            stream.seek(start)
        while chunk := stream.read(CHUNK):
            yield chunk
    return file_name, None, from_stream


class _PollPace:
    """The one budget of a client's job polls, shared by every `jobs.wait` running at once (threads or tasks): polls
    are spaced at least `interval` apart, the interval doubles on each 429 (and the next poll waits Retry-After) and
    shrinks back by a tenth on each poll that passes. So 30 waits at once poll about twice a second together, not 30
    times, and a rate limit slows them down instead of failing them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._interval = POLL_INTERVAL
        self._next = 0.0

    def reserve(self, earliest: float) -> float:
        """Seconds from now to the caller's poll slot, at least `earliest`; the slot is then taken."""
        with self._lock:
            now = time.monotonic()
            at = max(now + earliest, self._next)
            self._next = at + self._interval
            return at - now

    def passed(self) -> None:
        with self._lock:
            self._interval = max(POLL_INTERVAL, self._interval * 0.9)

    def limited(self, retry_after: float | None) -> None:
        """A poll was answered 429 (or 503): no poll before Retry-After, and slower from now on."""
        with self._lock:
            self._interval = min(MAX_POLL_INTERVAL, self._interval * 2)
            self._next = max(self._next, time.monotonic() + (retry_after if retry_after is not None else self._interval))


def _poll_refused(e: DocapiError) -> bool:
    """Whether a poll's error says "later" (429, or 503 without a job) rather than anything about the job."""
    return isinstance(e, RateLimitError) or (isinstance(e, ServerError) and e.status == 503 and e.job is None)


class _Base:
    def __init__(self, api_key: str, base_url: str, max_retries: int) -> None:
        if not api_key:
            raise ValueError("an API key is needed (dk_...)")
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self._headers = {"Authorization": f"Bearer {api_key}", "User-Agent": "docapi-python/1.0"}
        self._poll_pace = _PollPace()

    def _url(self, path: str) -> str:
        return self.base_url + path

    def _backoff(self, attempt: int, response: httpx.Response) -> float:
        given = _retry_after(response)
        return given if given is not None else min(0.5 * 2 ** attempt, 10.0)


class Docapi(_Base, SyncOperations):
    """A blocking client. Every request answered 429 or 503 is sent again after Retry-After (at most
    `max_retries` times); any other error answer raises the `DocapiError` subclass of its status (`BadRequestError`,
    `NotFoundError`, … `JobFailedError` for a job that failed; see `docapi.errors`).

    Args:
        api_key: the account's API key (dk_...)
        base_url: the service's base address, ending in /v1
        max_retries: how often a 429 or 503 answer is retried
        timeout: seconds for one HTTP request (operations wait server-side up to 300 s)
    """

    def __init__(self, api_key: str, base_url: str = "http://localhost:8080/v1", *, max_retries: int = 5,
                 timeout: float = 330, http: httpx.Client | None = None) -> None:
        super().__init__(api_key, base_url, max_retries)
        self._http = http or httpx.Client(timeout=timeout)
        self.files = Files(self)
        self.jobs = Jobs(self)
        self.workflows = Workflows(self)

    def __enter__(self) -> "Docapi":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def request(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None,
                content: Callable[[], Iterator[bytes]] | bytes | None = None, headers: dict[str, str] | None = None,
                max_retries: int | None = None) -> Any:
        """Sends one API request (path after /v1) and returns its JSON answer.

        Args:
            max_retries: how often a 429 or 503 answer is sent again; default the client's

        Raises:
            DocapiError: for an error answer (after the retries of 429 and 503), as the class of its status
        """
        retries = self.max_retries if max_retries is None else max_retries
        for attempt in range(retries + 1):
            body = content() if callable(content) else content
            response = self._http.request(method, self._url(path), json=json, params=params, content=body,
                                          headers={**self._headers, **(headers or {})})
            if response.status_code in (429, 503) and attempt < retries:
                time.sleep(self._backoff(attempt, response))
                continue
            if response.status_code >= 400:
                raise _error(response)
            return response.json()
        raise AssertionError("unreachable")

    def run(self, operation: str, request: dict[str, Any], *, wait: bool = True, timeout: float = 900) -> Job:
        """Runs an operation (e.g. "rotate") with its request body and, by default, polls its job to the end.

        Raises:
            DocapiError: the request was refused (400, 402, 404, 410, 429 after retries) or the job failed
        """
        body = _clean(request)
        if not wait:
            body["wait"] = 0
        job = self.request("POST", f"/{operation}", json=body)
        return self.jobs.wait(job, timeout=timeout) if wait else job

    def usage(self) -> dict[str, Any]:
        """This month's operations and AI operations with the plan's limits (GET /usage)."""
        return self.request("GET", "/usage")

    def models(self) -> List:
        """The models the account can use, by pipeline (GET /models)."""
        return self.request("GET", "/models")


class Files:
    """Files (spec §4.1): upload, fetch from a URL, get, list, delete, download."""

    def __init__(self, client: Docapi) -> None:
        self._c = client

    def upload(self, source: Source, *, name: str | None = None) -> File:
        """Uploads a path, bytes or an open binary file as raw bytes, streamed (a 100 MB file is never in memory).

        Raises:
            DocapiError: invalid_file, file_too_large (413), unsupported_file_type (415), empty_file
        """
        file_name, size, body = _upload_parts(source, name)
        headers = {"Content-Type": "application/octet-stream"}
        if size is not None:
            headers["Content-Length"] = str(size)
        return self._c.request("POST", "/files", params={"name": file_name}, content=body, headers=headers)

    def upload_url(self, url: str, *, name: str | None = None) -> File:
        """Has the service fetch a public http(s) URL as a new file. Raises DocapiError (fetch_failed, ...)."""
        return self._c.request("POST", "/files", json=_clean({"url": url, "name": name}))

    def get(self, file_id: str) -> File:
        """The file with a fresh download_url. Raises DocapiError file_not_found (404), file_expired (410)."""
        return self._c.request("GET", f"/files/{file_id}")

    def list(self, *, limit: int | None = None) -> List:
        """The account's files of the last 24 hours, newest first (limit 1-200, default 50)."""
        return self._c.request("GET", "/files", params=_clean({"limit": limit}))

    def delete(self, file_id: str) -> dict[str, Any]:
        return self._c.request("DELETE", f"/files/{file_id}")

    def download(self, file: File | str, to: str | os.PathLike) -> Path:
        """Streams a file's bytes to the path `to` (a job's output file, or a file id) and returns the path."""
        file_id = file if isinstance(file, str) else file["id"]
        target = Path(to)
        for attempt in range(self._c.max_retries + 1):
            with self._c._http.stream("GET", self._c._url(f"/files/{file_id}/content"), headers=self._c._headers) as r:
                if r.status_code in (429, 503) and attempt < self._c.max_retries:
                    time.sleep(self._c._backoff(attempt, r))
                    continue
                if r.status_code >= 400:
                    r.read()
                    raise _error(r)
                with target.open("wb") as out:
                    for chunk in r.iter_bytes(CHUNK):
                        out.write(chunk)
                return target
        raise AssertionError("unreachable")


class Jobs:
    """Jobs (spec §3): get, list, and wait for one to end."""

    def __init__(self, client: Docapi) -> None:
        self._c = client

    def get(self, job_id: str) -> Job:
        """The job now. Raises DocapiError job_not_found (404)."""
        return self._c.request("GET", f"/jobs/{job_id}")

    def list(self, *, limit: int | None = None) -> List:
        """The account's jobs, newest first (limit 1-100, default 20)."""
        return self._c.request("GET", "/jobs", params=_clean({"limit": limit}))

    def wait(self, job: Job | str, *, timeout: float = 900) -> Job:
        """Polls the job until it succeeded or failed, with backoff from 0.5 s to 5 s, within the client's one poll
        budget (see `_PollPace`): a 429 answer to a poll waits Retry-After and slows every wait of the client down,
        it is never raised.

        Raises:
            JobFailedError: the job failed (its code and the job)
            NotFoundError: there is no such job
            TimeoutError: it is still queued or running after `timeout` seconds
        """
        current = self.get(job) if isinstance(job, str) else job
        end, delay = time.monotonic() + timeout, 0.5
        while current["status"] not in FINISHED:
            pause = self._c._poll_pace.reserve(delay)
            if time.monotonic() + pause > end:
                raise TimeoutError(f"job {current['id']} is still {current['status']} after {timeout:g} s")
            time.sleep(pause)
            delay = min(delay * 1.5, 5.0)
            try:
                current = self._c.request("GET", f"/jobs/{current['id']}", max_retries=0)
                self._c._poll_pace.passed()
            except DocapiError as e:
                if not _poll_refused(e):
                    raise
                self._c._poll_pace.limited(e.retry_after)
        if current["status"] == "failed":
            raise DocapiError.from_job(current)
        return current


class Workflows:
    """Saved workflows (spec §4.3): 1-10 steps run as one job."""

    def __init__(self, client: Docapi) -> None:
        self._c = client

    def create(self, name: str, steps: list[dict[str, Any]]) -> dict[str, Any]:
        return self._c.request("POST", "/workflows", json={"name": name, "steps": steps})

    def list(self) -> List:
        return self._c.request("GET", "/workflows")

    def get(self, workflow_id: str) -> dict[str, Any]:
        return self._c.request("GET", f"/workflows/{workflow_id}")

    def delete(self, workflow_id: str) -> dict[str, Any]:
        return self._c.request("DELETE", f"/workflows/{workflow_id}")

    def run(self, workflow_id: str, *, file: str | None = None, files: Sequence[str] | None = None,
            webhook_url: str | None = None, wait: bool = True, timeout: float = 900) -> Job:
        """Runs a saved workflow on the file(s) as one job, by default to its end."""
        return self._c.run(f"workflows/{workflow_id}/run", {"file": file, "files": files, "webhook_url": webhook_url},
                           wait=wait, timeout=timeout)

    def run_steps(self, steps: Sequence[Mapping[str, Any]], *, file: str | None = None, files: Sequence[str] | None = None,
                  webhook_url: str | None = None, wait: bool = True, timeout: float = 900) -> Job:
        """Runs 1-10 steps without saving them (POST /workflows/run) as one job, by default to its end.

        Args:
            steps: `[{"operation": "compress", "options": {"level": "high"}}, ...]`: each an operation and its options
                (without `file`: each step takes the previous step's files)
            file, files: the input file id(s)

        Raises:
            BadRequestError: a step names an unknown operation or options it does not take (before any job runs)
            JobFailedError: a step failed (the message names it; the job's output.steps says what each did)
        """
        return self._c.run("workflows/run", {"steps": steps, "file": file, "files": files, "webhook_url": webhook_url},
                           wait=wait, timeout=timeout)


class AsyncDocapi(_Base, AsyncOperations):
    """The asyncio client: the same methods as `Docapi`, awaited."""

    def __init__(self, api_key: str, base_url: str = "http://localhost:8080/v1", *, max_retries: int = 5,
                 timeout: float = 330, http: httpx.AsyncClient | None = None) -> None:
        super().__init__(api_key, base_url, max_retries)
        self._http = http or httpx.AsyncClient(timeout=timeout)
        self.files = AsyncFiles(self)
        self.jobs = AsyncJobs(self)
        self.workflows = AsyncWorkflows(self)

    async def __aenter__(self) -> "AsyncDocapi":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def request(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None,
                      content: Callable[[], Iterator[bytes]] | bytes | None = None, headers: dict[str, str] | None = None,
                      max_retries: int | None = None) -> Any:
        """As `Docapi.request`, awaited; a file is read in a worker thread, never in the event loop."""
        retries = self.max_retries if max_retries is None else max_retries
        for attempt in range(retries + 1):
            body = _aiter(content()) if callable(content) else content
            response = await self._http.request(method, self._url(path), json=json, params=params, content=body,
                                                 headers={**self._headers, **(headers or {})})
            if response.status_code in (429, 503) and attempt < retries:
                await asyncio.sleep(self._backoff(attempt, response))
                continue
            if response.status_code >= 400:
                raise _error(response)
            return response.json()
        raise AssertionError("unreachable")

    async def run(self, operation: str, request: dict[str, Any], *, wait: bool = True, timeout: float = 900) -> Job:
        """As `Docapi.run`, awaited."""
        body = _clean(request)
        if not wait:
            body["wait"] = 0
        job = await self.request("POST", f"/{operation}", json=body)
        return await self.jobs.wait(job, timeout=timeout) if wait else job

    async def usage(self) -> dict[str, Any]:
        return await self.request("GET", "/usage")

    async def models(self) -> List:
        return await self.request("GET", "/models")


def _open_for_writing(path: Path) -> IO[bytes]:
    return path.open("wb")


async def _aiter(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    """The chunks, each read in a worker thread: a file read never stalls the event loop."""
    while (chunk := await asyncio.to_thread(_next_chunk, chunks)) is not None:
        yield chunk


def _next_chunk(chunks: Iterator[bytes]) -> bytes | None:
    return next(chunks, None)


class AsyncFiles:
    """As `Files`, awaited."""

    def __init__(self, client: AsyncDocapi) -> None:
        self._c = client

    async def upload(self, source: Source, *, name: str | None = None) -> File:
        """As `Files.upload`, awaited; the file is opened and read in worker threads, off the event loop."""
        file_name, size, body = await asyncio.to_thread(_upload_parts, source, name)
        headers = {"Content-Type": "application/octet-stream"}
        if size is not None:
            headers["Content-Length"] = str(size)
        return await self._c.request("POST", "/files", params={"name": file_name}, content=body, headers=headers)

    async def upload_url(self, url: str, *, name: str | None = None) -> File:
        return await self._c.request("POST", "/files", json=_clean({"url": url, "name": name}))

    async def get(self, file_id: str) -> File:
        return await self._c.request("GET", f"/files/{file_id}")

    async def list(self, *, limit: int | None = None) -> List:
        return await self._c.request("GET", "/files", params=_clean({"limit": limit}))

    async def delete(self, file_id: str) -> dict[str, Any]:
        return await self._c.request("DELETE", f"/files/{file_id}")

    async def download(self, file: File | str, to: str | os.PathLike) -> Path:
        file_id = file if isinstance(file, str) else file["id"]
        target = Path(to)
        for attempt in range(self._c.max_retries + 1):
            async with self._c._http.stream("GET", self._c._url(f"/files/{file_id}/content"), headers=self._c._headers) as r:
                if r.status_code in (429, 503) and attempt < self._c.max_retries:
                    await asyncio.sleep(self._c._backoff(attempt, r))
                    continue
                if r.status_code >= 400:
                    await r.aread()
                    raise _error(r)
                # written in a worker thread: a disk write never stalls the event loop
                out = await asyncio.to_thread(_open_for_writing, target)
                try:
                    async for chunk in r.aiter_bytes(CHUNK):
                        await asyncio.to_thread(out.write, chunk)
                finally:
                    await asyncio.to_thread(out.close)
                return target
        raise AssertionError("unreachable")


class AsyncJobs:
    """As `Jobs`, awaited."""

    def __init__(self, client: AsyncDocapi) -> None:
        self._c = client

    async def get(self, job_id: str) -> Job:
        return await self._c.request("GET", f"/jobs/{job_id}")

    async def list(self, *, limit: int | None = None) -> List:
        return await self._c.request("GET", "/jobs", params=_clean({"limit": limit}))

    async def wait(self, job: Job | str, *, timeout: float = 900) -> Job:
        """As `Jobs.wait`, awaited: the tasks waiting at once share the client's one poll budget."""
        current = await self.get(job) if isinstance(job, str) else job
        end, delay = time.monotonic() + timeout, 0.5
        while current["status"] not in FINISHED:
            pause = self._c._poll_pace.reserve(delay)
            if time.monotonic() + pause > end:
                raise TimeoutError(f"job {current['id']} is still {current['status']} after {timeout:g} s")
            await asyncio.sleep(pause)
            delay = min(delay * 1.5, 5.0)
            try:
                current = await self._c.request("GET", f"/jobs/{current['id']}", max_retries=0)
                self._c._poll_pace.passed()
            except DocapiError as e:
                if not _poll_refused(e):
                    raise
                self._c._poll_pace.limited(e.retry_after)
        if current["status"] == "failed":
            raise DocapiError.from_job(current)
        return current


class AsyncWorkflows:
    """As `Workflows`, awaited."""

    def __init__(self, client: AsyncDocapi) -> None:
        self._c = client

    async def create(self, name: str, steps: list[dict[str, Any]]) -> dict[str, Any]:
        return await self._c.request("POST", "/workflows", json={"name": name, "steps": steps})

    async def list(self) -> List:
        return await self._c.request("GET", "/workflows")

    async def get(self, workflow_id: str) -> dict[str, Any]:
        return await self._c.request("GET", f"/workflows/{workflow_id}")

    async def delete(self, workflow_id: str) -> dict[str, Any]:
        return await self._c.request("DELETE", f"/workflows/{workflow_id}")

    async def run(self, workflow_id: str, *, file: str | None = None, files: Sequence[str] | None = None,
                  webhook_url: str | None = None, wait: bool = True, timeout: float = 900) -> Job:
        return await self._c.run(f"workflows/{workflow_id}/run", {"file": file, "files": files, "webhook_url": webhook_url},
                                 wait=wait, timeout=timeout)

    async def run_steps(self, steps: Sequence[Mapping[str, Any]], *, file: str | None = None, files: Sequence[str] | None = None,
                        webhook_url: str | None = None, wait: bool = True, timeout: float = 900) -> Job:
        """As `Workflows.run_steps`, awaited."""
        return await self._c.run("workflows/run", {"steps": steps, "file": file, "files": files, "webhook_url": webhook_url},
                                 wait=wait, timeout=timeout)
