#!/usr/bin/env python3
"""Page-operation benchmarks (issue 2): the API vs the qpdf CLI alone on the same input, in the same run.

Usage: bench/pageops.sh  (starts the packaged service on a temp data dir; prints a Markdown table, medians of N runs)
"""
import concurrent.futures, json, os, statistics, subprocess, sys, tempfile, time, urllib.request, glob, shutil, threading

API = os.environ["BENCH_API"]
KEY = os.environ["BENCH_KEY"]
CORPUS = os.environ["BENCH_CORPUS"]
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
BOOK = f"{CORPUS}/pdf-text/geotopo-117p-linearized-links.pdf"
TMP = tempfile.mkdtemp(prefix="bench-")


def call(method, path, body=None, ctype="application/json", raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(path if path.startswith("http") else API + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + KEY)
    if data is not None:
        req.add_header("Content-Type", ctype)
    with urllib.request.urlopen(req, timeout=600) as r:
        payload = r.read()
        return json.loads(payload) if r.headers.get("Content-Type", "").startswith("application/json") else payload


def upload(path):
    with open(path, "rb") as f:
        return call("POST", "/files?name=" + os.path.basename(path), raw=f.read(), ctype="application/octet-stream")["id"]


def api_run(files, operation, options):
    # Like any client with many files, upload them concurrently (4 at a time).
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        ids = list(pool.map(upload, files))
    body = dict(options, wait=300)
    body.update({"files": ids} if operation == "merge" else {"file": ids[0]})
    job = call("POST", "/" + operation, body)
    assert job["status"] == "succeeded", job
    out = call("GET", job["output"]["files"][0]["download_url"])
    with open(os.path.join(TMP, "api-out"), "wb") as f:
        f.write(out)


def timed(fn):
    samples = []
    for _ in range(RUNS):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def qpdf(*args):
    r = subprocess.run(["qpdf", *args], cwd=TMP, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert r.returncode in (0, 3), r  # 3: succeeded with warnings


def split_qpdf():
    d = tempfile.mkdtemp(dir=TMP)
    qpdf("--split-pages=1", BOOK, os.path.join(d, "p-%d.pdf"))


sources = sorted(glob.glob(f"{CORPUS}/pdf-text/*.pdf"))
# 50 distinct files (copies of the corpus PDFs): qpdf shares the objects of a path given twice, uploads never do.
fifty = []
for i in range(50):
    src = sources[i % len(sources)]
    fifty.append(os.path.join(TMP, f"{i:02d}-" + os.path.basename(src)))
    shutil.copyfile(src, fifty[-1])
rows = []
cases = [
    ("merge 50 files", lambda: api_run(fifty, "merge", {}),
     lambda: qpdf("--empty", "--pages", *fifty, "--", os.path.join(TMP, "m.pdf"))),
    ("split 117-page book every page", lambda: api_run([BOOK], "split", {}), split_qpdf),
    ("rotate all 117 pages", lambda: api_run([BOOK], "rotate", {"angle": 90}),
     lambda: qpdf("--rotate=+90", BOOK, os.path.join(TMP, "r.pdf"))),
]
for name, api_fn, cli_fn in cases:
    a, c = timed(api_fn), timed(cli_fn)
    rows.append((name, a, c))

print(f"| case (median of {RUNS}) | API incl. upload+download (s) | qpdf alone (s) | ratio | target ≤ 2× |")
print("|---|---|---|---|---|")
for name, a, c in rows:
    print(f"| {name} | {a:.3f} | {c:.3f} | {a / c:.2f}× | {'met' if a / c <= 2 else 'NOT met'} |")
shutil.rmtree(TMP, ignore_errors=True)
