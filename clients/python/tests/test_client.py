"""The Python client against the real service (scripts/check-clients starts it with DOCAPI_ALLOW_PRIVATE_URLS=true,
so webhooks reach this test's loopback receiver). Environment: DOCAPI_BASE_URL, DOCAPI_API_KEY, DOCAPI_API_KEY_2 (an
account of its own, for the rate limit), DOCAPI_WEBHOOK_SECRET, DOCAPI_CORPUS."""
import asyncio
import hashlib
import hmac
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import httpx
import pytest

import docapi
from docapi import (AsyncDocapi, AuthenticationError, BadRequestError, Docapi, DocapiError, JobFailedError,
                    NotFoundError, RateLimitError, ServerError, UnsupportedMediaTypeError, webhooks)

BASE = os.environ["DOCAPI_BASE_URL"]
KEY = os.environ["DOCAPI_API_KEY"]
PDF = Path(os.environ["DOCAPI_CORPUS"]) / "pdf-text" / "rotated-pages-20p.pdf"


@pytest.fixture(scope="module")
def client():
    with Docapi(KEY, BASE) as c:
        yield c


def pdfinfo_pages(path):
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in out.splitlines() if line.startswith("Pages:")))


def test_upload_rotate_wait_download(client, tmp_path):
    file = client.files.upload(PDF)
    assert file["pages"] == 20
    job = client.rotate(file["id"], angle=90, pages=[1, 3])
    assert job["status"] == "succeeded"
    out = client.files.download(job["output"]["files"][0], tmp_path / "rotated.pdf")
    assert pdfinfo_pages(out) == 20
    accepted = client.compress(file["id"], wait=False)        # level has a default: left out
    assert accepted["status"] in ("queued", "running", "succeeded")
    assert client.jobs.wait(accepted["id"])["status"] == "succeeded"
    assert any(j["id"] == accepted["id"] for j in client.jobs.list(limit=10)["data"])
    by_bytes = client.files.upload(PDF.read_bytes(), name="bytes.pdf")
    assert client.files.get(by_bytes["id"])["name"] == "bytes.pdf"


def test_every_operation_of_the_served_document_has_a_method(client):
    import httpx
    doc = httpx.get(BASE + "/openapi.json").json()
    served = {p[1:] for p, item in doc["paths"].items()
              if "post" in item and p.count("/") == 1
              and item["post"]["responses"].get("202", {}).get("content", {}).get("application/json", {})
              .get("schema", {}).get("$ref") == "#/components/schemas/Job"}
    assert served == set(docapi.OPERATIONS)
    for name in served:
        assert callable(getattr(Docapi, name.replace("-", "_")))
        assert asyncio.iscoroutinefunction(getattr(AsyncDocapi, name.replace("-", "_")))


def test_a_50_mb_upload_is_streamed_with_bounded_memory(client, tmp_path):
    big = tmp_path / "big.pdf"
    pad = 50 * 1024 * 1024
    with big.open("wb") as f:                                  # a real PDF whose one page carries 50 MB of comments
        offsets = []
        f.write(b"%PDF-1.4\n")
        for obj in (b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"):
            offsets.append(f.tell())
            f.write(b"%d 0 obj\n" % (len(offsets)) + obj + b"\nendobj\n")
        offsets.append(f.tell())
        f.write(b"4 0 obj\n<< /Length %d >>\nstream\n" % pad)
        line = b"%" + b"x" * 1022 + b"\n"
        for _ in range(pad // len(line)):
            f.write(line)
        f.write(b"\nendstream\nendobj\n")
        xref = f.tell()
        f.write(b"xref\n0 5\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets))
        f.write(b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref)
    tracemalloc.start()
    file = client.files.upload(big)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert file["size"] == big.stat().st_size
    assert peak < 8 * 1024 * 1024, f"peak {peak} bytes for a {big.stat().st_size}-byte upload"


def test_a_refusal_and_a_rate_limit_are_typed_exceptions(client):
    file = client.files.upload(PDF)
    with pytest.raises(BadRequestError) as refused:
        client.rotate(file["id"], angle=45)
    assert (refused.value.status, refused.value.code) == (400, "invalid_request")
    with pytest.raises(NotFoundError) as missing:
        client.jobs.get("job_nope")
    assert (missing.value.status, missing.value.code) == (404, "job_not_found")
    with pytest.raises(AuthenticationError) as unknown, Docapi("dk_not_a_key", BASE) as stranger:
        stranger.files.list()
    assert (unknown.value.status, unknown.value.code) == (401, "invalid_api_key")
    with pytest.raises(UnsupportedMediaTypeError) as unsupported:
        client.files.upload(b"\x7fELF\x02\x01\x01" + bytes(200), name="tool.bin")
    assert (unsupported.value.status, unsupported.value.code) == (415, "unsupported_file_type")
    impatient = Docapi(os.environ["DOCAPI_API_KEY_2"], BASE, max_retries=0)
    with pytest.raises(RateLimitError) as limited:
        for _ in range(200):
            impatient.files.list(limit=1)
    assert limited.value.status == 429 and limited.value.code == "rate_limited"
    assert limited.value.retry_after is not None and limited.value.retry_after >= 0


def test_the_async_client_runs_ten_operations_at_once(tmp_path):
    async def main():
        async with AsyncDocapi(KEY, BASE) as c:
            file = await c.files.upload(PDF)
            jobs = await asyncio.gather(*(c.rotate(file["id"], angle=90 * (1 + i % 3)) for i in range(10)))
            assert [j["status"] for j in jobs] == ["succeeded"] * 10
            out = await c.files.download(jobs[0]["output"]["files"][0], tmp_path / "async.pdf")
            return pdfinfo_pages(out)
    assert asyncio.run(main()) == 20


def test_a_real_delivery_verifies_and_a_changed_body_a_wrong_secret_or_an_old_time_do_not(client):
    received = []

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((body, self.headers.get(webhooks.SIGNATURE_HEADER), self.headers.get(webhooks.DELIVERY_ID_HEADER)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        file = client.files.upload(PDF)
        client.rotate(file["id"], angle=180, webhook_url=f"http://127.0.0.1:{server.server_address[1]}/hook")
        for _ in range(100):
            if received:
                break
            time.sleep(0.1)
    finally:
        server.shutdown()
    assert len(received) == 1
    body, signature, delivery = received[0]
    assert delivery.startswith("whd_")
    secret = os.environ["DOCAPI_WEBHOOK_SECRET"]
    event = webhooks.verify(body, signature, secret)
    assert (event["type"], event["data"]["operation"]) == ("job.succeeded", "rotate")
    with pytest.raises(webhooks.WebhookSignatureError):
        webhooks.verify(body + b" ", signature, secret)
    with pytest.raises(webhooks.WebhookSignatureError):
        webhooks.verify(body, signature, "whsec_wrong")
    with pytest.raises(webhooks.WebhookSignatureError):
        webhooks.verify(body, None, secret)
    old = int(time.time()) - 301
    old_header = f"t={old},v1=" + hmac.new(secret.encode(), f"{old}.".encode() + body, hashlib.sha256).hexdigest()
    with pytest.raises(webhooks.WebhookSignatureError, match="300 s"):
        webhooks.verify(body, old_header, secret)
    assert webhooks.verify(body, old_header, secret, tolerance=400)["type"] == "job.succeeded"
    assert json.loads(body)["data"]["id"] == event["data"]["id"]


@pytest.mark.parametrize("status, code, kind", [
    (400, "invalid_file", docapi.BadRequestError), (401, "missing_api_key", docapi.AuthenticationError),
    (402, "quota_exceeded", docapi.QuotaExceededError), (403, "link_expired", docapi.PermissionDeniedError),
    (404, "unknown_operation", docapi.NotFoundError), (410, "file_expired", docapi.GoneError),
    (413, "file_too_large", docapi.PayloadTooLargeError), (415, "unsupported_file_type", docapi.UnsupportedMediaTypeError),
    (429, "too_many_jobs", docapi.RateLimitError), (500, "internal_error", docapi.ServerError),
    (503, "service_unavailable", docapi.ServerError), (418, "invalid_request", DocapiError)])
def test_each_error_family_of_the_spec_is_its_own_class(status, code, kind):
    e = DocapiError.from_response(status, {"error": {"code": code, "message": "m"}}, 3.0)
    assert type(e) is kind and isinstance(e, DocapiError)
    assert (e.status, e.code, e.message, e.retry_after) == (status, code, "m", 3.0)


def test_a_failed_job_is_a_job_failed_error_carrying_the_job():
    job = {"id": "job_x", "status": "failed", "error": {"code": "internal_error", "message": "broken"}}
    answered = DocapiError.from_response(502, {"error": job["error"], "job": job})
    polled = DocapiError.from_job(job)
    for e in (answered, polled):
        assert type(e) is JobFailedError and isinstance(e, ServerError)
        assert (e.status, e.code, e.message, e.job["id"]) == (502, "internal_error", "broken", "job_x")
    interrupted = DocapiError.from_job({**job, "error": {"code": "interrupted", "message": "node stopped"}})
    assert (type(interrupted), interrupted.status) == (JobFailedError, 503)
    assert type(DocapiError.from_response(502, {"error": job["error"]})) is ServerError  # no job: a proxy's 502


def test_an_ad_hoc_workflow_runs_its_steps(client, tmp_path):
    file = client.files.upload(PDF)
    job = client.workflows.run_steps([{"operation": "rotate", "options": {"angle": 90}},
                                      {"operation": "remove-pages", "options": {"pages": [1]}}], file=file["id"])
    assert job["output"] is not None
    assert [s["operation"] for s in job["output"]["steps"]] == ["rotate", "remove-pages"]
    assert pdfinfo_pages(client.files.download(job["output"]["files"][0], tmp_path / "steps.pdf")) == 19


def test_thirty_waits_at_once_share_the_rate_limit_and_never_raise_it():
    """30 jobs waited on at once by a key whose minute's requests are used up (an account of its own,
    DOCAPI_API_KEY_3): the waits share one poll budget, so they never fail with RateLimitError, and the polls are
    spread instead of sent together (30 polls at once into a used-up minute are refused nearly all, and again on each
    retry)."""
    key = os.environ["DOCAPI_API_KEY_3"]
    with Docapi(key, BASE) as c:
        file = c.files.upload(PDF)
        accepted = [c.rotate(file["id"], angle=90, wait=False) for _ in range(30)]
        with pytest.raises(RateLimitError):
            for _ in range(200):
                c.request("GET", "/jobs", params={"limit": 1}, max_retries=0)
    refused = []

    async def count(response: httpx.Response) -> None:
        if response.status_code == 429 and response.request.url.path.startswith("/v1/jobs/"):
            refused.append(response)

    async def main():
        http = httpx.AsyncClient(timeout=330, event_hooks={"response": [count]})
        async with AsyncDocapi(key, BASE, http=http) as c:
            return await asyncio.gather(*(c.jobs.wait(job) for job in accepted))
    finished = asyncio.run(main())
    assert [j["status"] for j in finished] == ["succeeded"] * 30
    assert len(refused) < len(accepted), f"{len(refused)} polls refused: the waits polled together"


def test_the_readme_examples_pass_mypy_strict(tmp_path):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert len(blocks) >= 5
    paths = []
    for i, block in enumerate(blocks):
        paths.append(tmp_path / f"example_{i}.py")
        paths[-1].write_text(block, encoding="utf-8")

    def mypy(*files):
        return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), *map(str, files)],
                              capture_output=True, text=True, cwd=tmp_path)
    checked = mypy(*paths)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # the check can fail: a job's output read without narrowing it (the README's old first lines) is refused
    unnarrowed = tmp_path / "unnarrowed.py"
    unnarrowed.write_text(blocks[0].replace('assert job["output"] is not None', ""), encoding="utf-8")
    assert 'Value of type "Optional[JobOutput]" is not indexable' in mypy(unnarrowed).stdout
