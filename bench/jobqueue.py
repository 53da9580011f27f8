#!/usr/bin/env python3
"""Job queue benchmarks (issue 15): pickup latency, dispatch scaling over nodes, before/after the durable queue.
(Not named queue.py: that would shadow the standard library's queue module.)

Run through bench/queue.sh, which prepares the jars, the PostgreSQL database and the environment below, and kills
whatever this script started (their pids are appended to $BENCH_WORK/pids) even when it fails.

Sections (BENCH_SECTIONS, default all): compare (H2, e46f7eb vs now, alternating), local (pickup on a node with free
workers: H2 and PostgreSQL), scaling (test-sleep jobs/s on 1 vs 3 nodes), remote (pickup by another node).
"""
import concurrent.futures, datetime, http.client, json, os, random, re, signal, socket, statistics, subprocess, sys
import threading, time

E = os.environ
JAVA = E["JAVA_HOME"] + "/bin/java"
JAR_NOW, JAR_BEFORE, S3PROXY_JAR, OPS = E["JAR_NOW"], E["JAR_BEFORE"], E["S3PROXY_JAR"], E["TEST_OPS_DIR"]
WORK, PG_URL = E["BENCH_WORK"], E["BENCH_PG_URL"]
RUNS = int(E.get("RUNS", "3"))
SECTIONS = E.get("BENCH_SECTIONS", "compare local scaling remote").split()
SMALL = os.path.join(E["BENCH_CORPUS"], "pdf-text/rotated-page-90.pdf")  # 1 page
WORKERS = int(E.get("BENCH_WORKERS", "4"))        # DOCAPI_WORKERS of every node in the scaling section
ROUNDS = int(E.get("BENCH_ROUNDS", "12"))         # scaling: jobs per worker per run
LOCAL_N = int(E.get("BENCH_LOCAL_N", "100"))      # pickup samples per run, free local worker
REMOTE_N = int(E.get("BENCH_REMOTE_N", "30"))     # pickup samples per run, remote node
ROTATE_N = int(E.get("BENCH_ROTATE_N", "50"))     # sequential rotate round trips per run
WRK_SECONDS = int(E.get("BENCH_WRK_SECONDS", "10"))
SECRET = "bench-queue-" + os.urandom(16).hex()
RESULTS = {}


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def track(pid):
    with open(os.path.join(WORK, "pids"), "a") as f:
        f.write(f"{pid}\n")


_local = threading.local()


def call(port, key, method, path, body=None, raw=None, ctype="application/json"):
    """One request on this thread's keep-alive connection to the port; returns (status, parsed JSON or None)."""
    conns = _local.__dict__.setdefault("c", {})
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Authorization": "Bearer " + key}
    if data is not None:
        headers["Content-Type"] = ctype
    for attempt in (0, 1):
        c = conns.get(port)
        if c is None:
            c = conns[port] = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        try:
            c.request(method, "/v1" + path, body=data, headers=headers)
            r = c.getresponse()
            payload = r.read()
            if r.getheader("Connection", "").lower() == "close":
                c.close(); conns.pop(port, None)
            return r.status, (json.loads(payload) if payload else None)
        except (http.client.HTTPException, OSError):
            c.close(); conns.pop(port, None)
            if attempt:
                raise


def ms(iso):
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000


def pct(values, p):
    """The p-th percentile (nearest rank) of values."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, -(-p * len(s) // 100) - 1))]


class Node:
    """One docapi process on its own port and data dir; with test_ops, the test-only operations (test-sleep) are added
    through Spring Boot's PropertiesLauncher: loader.path holds only the compiled TestOperations classes, and
    spring.main.sources registers them (their @TestConfiguration annotation is not in the jar, so scanning skips them)."""

    def __init__(self, name, jar, env=None, test_ops=False):
        self.name, self.jar, self.test_ops = name, jar, test_ops
        self.port = free_port()
        self.data = os.path.join(WORK, name)
        self.logfile = self.data + ".log"
        os.makedirs(self.data, exist_ok=True)
        self.env = dict(E, DOCAPI_DATA_DIR=self.data, DOCAPI_PORT=str(self.port), DOCAPI_MANAGEMENT_PORT="0", DOCAPI_OFFICE_WARM="false",
                        SERVER_ADDRESS="127.0.0.1",
                        # the per-key limit (120/min) would throttle the benchmark client itself
                        DOCAPI_REQUESTS_PER_MINUTE="100000000", **(env or {}))
        self.proc = None

    def start(self):
        cmd = [JAVA, "-Xmx1g"]
        if self.test_ops:
            cmd += [f"-Dloader.path={OPS}", "-Dloader.main=dev.docapi.DocapiApplication", "-cp", self.jar,
                    "org.springframework.boot.loader.launch.PropertiesLauncher", "--spring.main.sources=dev.docapi.support.TestOperations"]
        else:
            cmd += ["-jar", self.jar]
        out = open(self.logfile, "ab")
        self.proc = subprocess.Popen(cmd, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        track(self.proc.pid)
        deadline = time.time() + 240
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"{self.name} exited at start; see {self.logfile}:\n" + self.logtext()[-3000:])
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/v1"); r = c.getresponse(); r.read(); c.close()
                if r.status == 200:
                    log(f"{self.name} up on port {self.port}")
                    return self
            except OSError:
                pass
            time.sleep(0.3)
        raise SystemExit(f"{self.name} did not start in 240 s")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill(); self.proc.wait()
        self.proc = None

    def admin(self, *args):
        out = subprocess.run([JAVA, "-Xmx512m", "-jar", self.jar, "admin", *args], env=self.env, capture_output=True, text=True)
        assert out.returncode == 0, out.stdout + out.stderr
        return out.stdout.strip().splitlines()[-1]

    def account(self, email):
        """(key, file id of the small PDF) of a new pro account."""
        key = self.admin("create-account", "--email", email, "--plan", "pro")
        with open(SMALL, "rb") as f:
            st, body = call(self.port, key, "POST", "/files?name=small.pdf", raw=f.read(), ctype="application/octet-stream")
        assert st == 201, (st, body)
        return key, body["id"]

    def logtext(self):
        with open(self.logfile, errors="replace") as f:
            return f.read()


def rotate_wait(node, key, file):
    """One POST /rotate with wait=60; returns (seconds, finished job)."""
    t = time.perf_counter()
    st, job = call(node.port, key, "POST", "/rotate", {"file": file, "angle": 90, "wait": 60})
    took = time.perf_counter() - t
    assert st == 200 and job["status"] == "succeeded", (st, job)
    return took, job


def pickup_run(node, key, file, n, max_gap):
    """n sequential rotate jobs (a random pause of up to max_gap s before each, so submissions fall anywhere in a
    poll cycle); returns (started_at - created_at in ms per job, job ids). Both stamps are the database's
    millisecond timestamps: created_at inside the admitting transaction, started_at when a worker marks it running."""
    out, ids = [], []
    for _ in range(n):
        time.sleep(random.uniform(0, max_gap))
        _, job = rotate_wait(node, key, file)
        out.append(ms(job["started_at"]) - ms(job["created_at"]))
        ids.append(job["id"])
    return out, ids


def summarize(per_run):
    """per_run: list of sample lists → (median over runs of p50, of p99, of max, samples per run)."""
    return (statistics.median(pct(s, 50) for s in per_run), statistics.median(pct(s, 99) for s in per_run),
            statistics.median(max(s) for s in per_run), len(per_run[0]))


def wrk(node, key, job_id):
    out = subprocess.run(["wrk", "-t2", "-c32", f"-d{WRK_SECONDS}s", "-H", f"Authorization: Bearer {key}",
                          f"http://127.0.0.1:{node.port}/v1/jobs/{job_id}"], capture_output=True, text=True, check=True).stdout
    assert "Non-2xx" not in out, out
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


# ---------------------------------------------------------------- H2: before/after and local pickup on one node
def h2_phase():
    before = Node("h2-before", JAR_BEFORE)
    now = Node("h2-now", JAR_NOW)
    for n in (before, now):
        n.start()
        n.key, n.file = n.account(f"bench-{n.name}@example.com")
    for n in (before, now):
        n.job = rotate_wait(n, n.key, n.file)[1]["id"]
    rot = {before: [], now: []}
    rps = {before: [], now: []}
    gets = {before: [], now: []}
    pick = {before: [], now: []}
    # run -1 is a warm-up (JIT, pools), not counted: in trials the first run after start was up to 3x slower
    for r in range(-1, RUNS):
        order = (before, now) if r % 2 == 0 else (now, before)  # alternate, so drift favours neither
        if r < 0:
            for n in order:
                for _ in range(ROTATE_N):
                    rotate_wait(n, n.key, n.file)
                wrk(n, n.key, n.job)
                pickup_run(n, n.key, n.file, LOCAL_N, 0.05)
            continue
        for n in order:
            if "compare" in SECTIONS:
                t0 = time.perf_counter()
                lat = [rotate_wait(n, n.key, n.file)[0] for _ in range(ROTATE_N)]
                rps[n].append(ROTATE_N / (time.perf_counter() - t0))
                rot[n].append(statistics.median(lat) * 1000)
                gets[n].append(wrk(n, n.key, n.job))
            if "local" in SECTIONS:
                pick[n].append(pickup_run(n, n.key, n.file, LOCAL_N, 0.05)[0])
        log(f"h2 run {r + 1}/{RUNS} done")
    if "compare" in SECTIONS:
        RESULTS["compare"] = [(label, statistics.median(d[before]), statistics.median(d[now]), hib) for label, d, hib in (
            ("rotate round trip, median latency (ms)", rot, False),
            ("rotate round trips per second (sequential)", rps, True),
            (f"GET /v1/jobs/{{id}} requests/s (wrk -t2 -c32 -d{WRK_SECONDS}s)", gets, True))]
        RESULTS["compare_runs"] = {"rotate ms": (rot[before], rot[now]), "rotate/s": (rps[before], rps[now]), "GET/s": (gets[before], gets[now])}
    if "local" in SECTIONS:
        RESULTS.setdefault("pickup", []).append(("one node, H2, free worker (e46f7eb, in-memory dispatch)", *summarize(pick[before]), "—"))
        RESULTS["pickup"].append(("one node, H2, free worker (now)", *summarize(pick[now]), "p50 ≤ 20 ms"))
    before.stop(); now.stop()


# ---------------------------------------------------------------- PostgreSQL + S3Proxy: several nodes
def start_s3proxy():
    home = os.path.join(WORK, "s3proxy"); os.makedirs(os.path.join(home, "data"), exist_ok=True)
    port = free_port()
    props = os.path.join(home, "s3proxy.properties")
    with open(props, "w") as f:
        f.write("\n".join([f"s3proxy.endpoint=http://127.0.0.1:{port}", "s3proxy.authorization=aws-v2-or-v4",
                           "s3proxy.identity=bench-access", "s3proxy.credential=bench-secret", "jclouds.provider=filesystem",
                           "jclouds.identity=bench-access", "jclouds.credential=bench-secret",
                           f"jclouds.filesystem.basedir={home}/data"]) + "\n")
    p = subprocess.Popen([JAVA, "-Xmx512m", "-jar", S3PROXY_JAR, "--properties", props], stdout=open(home + ".log", "ab"),
                         stderr=subprocess.STDOUT, start_new_session=True)
    track(p.pid)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return p, f"http://127.0.0.1:{port}"
        except OSError:
            if p.poll() is not None:
                raise SystemExit("S3Proxy exited at start")
            time.sleep(0.1)
    raise SystemExit("S3Proxy did not listen")


def pg_node(name, s3, workers):
    return Node(name, JAR_NOW, test_ops=True, env=dict(
        DOCAPI_DATABASE_URL=PG_URL, DOCAPI_DATABASE_USER="postgres", DOCAPI_SECRET=SECRET, DOCAPI_WORKERS=str(workers),
        DOCAPI_SHUTDOWN_GRACE="5s", DOCAPI_BLOB_STORE="s3", DOCAPI_S3_ENDPOINT=s3, DOCAPI_S3_BUCKET="docapi-bench",
        DOCAPI_S3_PATH_STYLE="true", DOCAPI_S3_ACCESS_KEY="bench-access", DOCAPI_S3_SECRET_KEY="bench-secret"))


def throughput(nodes, accounts, jobs):
    """Submits `jobs` test-sleep jobs (1 s each), round-robin over nodes and accounts, 16 at a time, and waits for all.
    Returns jobs / (last finished_at - first created_at), from the database's timestamps."""
    def submit(i):
        key, file = accounts[i % len(accounts)]
        node = nodes[i % len(nodes)]
        st, job = call(node.port, key, "POST", "/test-sleep", {"file": file, "seconds": 1, "wait": 0})
        assert st in (200, 202), (st, job)
        return key, job["id"]
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        sent = list(pool.map(submit, range(jobs)))
    want = {}
    for key, jid in sent:
        want.setdefault(key, set()).add(jid)
    done = {}
    deadline = time.time() + 60 + 3 * jobs
    while len(done) < jobs:
        assert time.time() < deadline, f"only {len(done)} of {jobs} jobs finished"
        time.sleep(0.5)
        for key, ids in want.items():  # one list request per account, not one per job
            st, page = call(nodes[0].port, key, "GET", "/jobs?limit=100")
            for j in page["data"]:
                if j["id"] in ids and j["status"] in ("succeeded", "failed"):
                    done[j["id"]] = j
    bad = [j for j in done.values() if j["status"] != "succeeded"]
    assert not bad, bad[:3]
    first = min(ms(j["created_at"]) for j in done.values())
    last = max(ms(j["finished_at"]) for j in done.values())
    return jobs / ((last - first) / 1000)


def ran_on(node, ids):
    text = node.logtext()
    return sum(1 for i in ids if f"job {i} (" in text)


def occupy(a, key, file, needed):
    """Makes sure a's only worker runs a test-sleep job for at least `needed` more seconds."""
    state = getattr(a, "busy", None)
    if state and time.time() + needed < state[1]:
        return
    if state:  # wait for the current one to end, so that a's worker takes the next one
        while time.time() < state[1] + 0.5:
            time.sleep(0.2)
        while True:
            st, j = call(a.port, key, "GET", "/jobs/" + state[0])
            if j["status"] in ("succeeded", "failed"):
                break
            time.sleep(0.1)
    while True:
        st, j = call(a.port, key, "POST", "/test-sleep", {"file": file, "seconds": 60, "wait": 0})
        assert st == 202, (st, j)
        while j["status"] == "queued":
            time.sleep(0.05)
            j = call(a.port, key, "GET", "/jobs/" + j["id"])[1]
        time.sleep(0.3)
        if f"job {j['id']} (test-sleep) started on" in a.logtext():
            a.busy = (j["id"], ms(j["started_at"]) / 1000 + 60)
            return
        log("the occupying job went to the other node; again")  # it keeps one of b's workers for 60 s: harmless


def pg_phase():
    s3proc, s3 = start_s3proxy()
    nodes = []
    try:
        if "local" in SECTIONS or "scaling" in SECTIONS:
            n1 = pg_node("pg-1", s3, WORKERS).start(); nodes.append(n1)
            if "local" in SECTIONS:
                key, file = n1.account("bench-local@example.com")
                for _ in range(30):
                    rotate_wait(n1, key, file)
                samples = []
                for r in range(RUNS):
                    samples.append(pickup_run(n1, key, file, LOCAL_N, 0.05)[0])
                RESULTS.setdefault("pickup", []).append(("one node, PostgreSQL + S3, free worker (now)", *summarize(samples), "p50 ≤ 20 ms"))
                log("pg local pickup done")
            if "scaling" in SECTIONS:
                # 12 pro accounts, so that no account nears its cap of 20 queued + running jobs
                with concurrent.futures.ThreadPoolExecutor(3) as pool:
                    accounts = list(pool.map(lambda i: n1.account(f"bench-scale{i}@example.com"), range(12)))
                throughput([n1], accounts, 2 * WORKERS)  # warm-up
                one = [throughput([n1], accounts, ROUNDS * WORKERS) for _ in range(RUNS)]
                log("1 node:", one)
                n2 = pg_node("pg-2", s3, WORKERS).start(); nodes.append(n2)
                n3 = pg_node("pg-3", s3, WORKERS).start(); nodes.append(n3)
                throughput([n1, n2, n3], accounts, 6 * WORKERS)  # warm-up
                three = [throughput([n1, n2, n3], accounts, 3 * ROUNDS * WORKERS) for _ in range(RUNS)]
                log("3 nodes:", three)
                RESULTS["scaling"] = (one, three)
            for n in nodes:
                n.stop()
            nodes.clear()
        if "remote" in SECTIONS:
            a = pg_node("pg-a", s3, 1).start(); nodes.append(a)
            key, file = a.account("bench-remote@example.com")
            for _ in range(5):
                rotate_wait(a, key, file)
            occupy(a, key, file, 0)  # a's one worker sleeps; b starts after, so it cannot take that job
            b = pg_node("pg-b", s3, WORKERS).start(); nodes.append(b)
            samples, on_a = [], 0
            for r in range(RUNS):
                occupy(a, key, file, REMOTE_N * 1.2 + 5)
                s, ids = pickup_run(a, key, file, REMOTE_N, 0.5)
                time.sleep(0.3)
                on_a += ran_on(a, ids)
                assert ran_on(b, ids) + ran_on(a, ids) == len(ids)
                samples.append(s)
                log(f"remote run {r + 1}: p50 {pct(s, 50):.0f} ms")
            RESULTS.setdefault("pickup", []).append((f"two nodes, PostgreSQL + S3: submitted to A (1 worker, busy), run by B (now)",
                                                     *summarize(samples), "p50 ≤ 1 s"))
            RESULTS["remote_on_a"] = on_a
    finally:
        for n in nodes:
            if n.proc and n.proc.poll() is None:
                n.proc.kill(); n.proc.wait()
        s3proc.terminate(); s3proc.wait()


def main():
    log(f"sections {SECTIONS}, {RUNS} runs")
    if "compare" in SECTIONS or "local" in SECTIONS:
        h2_phase()
    if {"local", "scaling", "remote"} & set(SECTIONS):
        pg_phase()

    print()
    if "pickup" in RESULTS:
        print(f"### Pickup latency (submit → running): `started_at − created_at` of each job, median over {RUNS} runs of each run's percentile\n")
        print("| case | jobs per run | p50 (ms) | p99 (ms) | max (ms) | goal |")
        print("|---|---:|---:|---:|---:|---|")
        for case, p50, p99, mx, n, goal in RESULTS["pickup"]:
            verdict = "" if goal == "—" else (" — met" if p50 <= (20 if "20" in goal else 1000) else " — NOT met")
            print(f"| {case} | {n} | {p50:.0f} | {p99:.0f} | {mx:.0f} | {goal}{verdict} |")
        if "remote_on_a" in RESULTS:
            print(f"\nRemote case: {RESULTS['remote_on_a']} of {RUNS * REMOTE_N} jobs ran on A itself (should be 0: its worker was busy).")
        print()
    if "scaling" in RESULTS:
        one, three = RESULTS["scaling"]
        m1, m3 = statistics.median(one), statistics.median(three)
        print(f"### Dispatch scaling: `test-sleep` jobs of 1 s, DOCAPI_WORKERS={WORKERS} per node, PostgreSQL + S3Proxy, median of {RUNS} runs\n")
        print("| nodes | jobs per run | jobs/s (median) | runs | ideal (workers / 1 s) |")
        print("|---|---:|---:|---|---:|")
        print(f"| 1 | {ROUNDS * WORKERS} | {m1:.2f} | {', '.join(f'{x:.2f}' for x in one)} | {WORKERS} |")
        print(f"| 3 | {3 * ROUNDS * WORKERS} | {m3:.2f} | {', '.join(f'{x:.2f}' for x in three)} | {3 * WORKERS} |")
        print(f"\nScaling 3 nodes / 1 node: **{m3 / m1:.2f}×** (goal ≥ 2.7×: {'met' if m3 / m1 >= 2.7 else 'NOT met'}).\n")
    if "compare" in RESULTS:
        print(f"### Before (e46f7eb, in-memory dispatch) vs now (db-scheduler), one node on H2, alternating, median of {RUNS} runs\n")
        print("| measure | before | now | change | goal (≤ 10 % slower) |")
        print("|---|---:|---:|---:|---|")
        for label, b, n, higher_better in RESULTS["compare"]:
            slower = (b / n - 1) if higher_better else (n / b - 1)
            print(f"| {label} | {b:,.1f} | {n:,.1f} | {100 * (n / b - 1):+.1f} % | {'met' if slower <= 0.10 else 'NOT met'} ({100 * slower:+.1f} % slower) |")
        print("\nPer run (before / now):", "; ".join(f"{k}: {', '.join(f'{x:.1f}' for x in b)} / {', '.join(f'{x:.1f}' for x in n)}"
                                                  for k, (b, n) in RESULTS["compare_runs"].items()))


if __name__ == "__main__":
    main()
