package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.PackagedService;
import dev.docapi.support.S3ProxyServer;
import dev.docapi.support.TestSize;
import dev.docapi.web.AreaClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * docapi on three nodes (issue 15): three packaged services on one fresh PostgreSQL database and one real S3-compatible
 * store (S3Proxy), one {@code DOCAPI_SECRET}. Proves the durable queue (any node runs any node's jobs, a killed node's
 * running jobs end {@code interrupted}, none runs twice, a {@code SIGTERM} loses nothing), shared file bytes (every
 * output downloads through every node), limits shared by all nodes (quota, request rate) and the developer area's
 * sessions shared by all nodes.
 *
 * <p>Needs PostgreSQL ({@code DOCAPI_TEST_POSTGRES_URL}, set by {@code .ci/run}).
 */
@Tag("slow")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Isolated("three nodes and a burst of jobs: the machine to themselves")
class MultiNodeIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern STARTED = Pattern.compile("job (job_\\w+) \\(\\S+\\) started on ");
    private static final String SMALL = "pdf-text/form-filled-by-acrobat-3p.pdf";
    private static final String LARGE = "pdf-text/geotopo-117p-linearized-links.pdf";

    private static String database;
    private static String adminUrl;
    /** The nodes' database. */
    private static String url;
    private static S3ProxyServer s3;
    private static final List<PackagedService> nodes = new ArrayList<>();

    @BeforeAll
    static void startThreeNodes() throws Exception {
        adminUrl = System.getenv("DOCAPI_TEST_POSTGRES_URL");
        assumeTrue(adminUrl != null && !adminUrl.isBlank(), "needs PostgreSQL (DOCAPI_TEST_POSTGRES_URL)");
        database = "docapi_multinode_" + System.nanoTime();
        sql(adminUrl, "CREATE DATABASE " + database);
        url = adminUrl.replaceFirst("/[^/?]+(\\?|$)", "/" + database + "$1");
        s3 = S3ProxyServer.start();
        String secret = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(database.getBytes()));
        for (int i = 0; i < 3; i++) {
            PackagedService node = new PackagedService()
                    .env("DOCAPI_DATABASE_URL", url)
                    .env("DOCAPI_SECRET", secret)
                    .env("DOCAPI_WORKERS", "3")
                    .env("DOCAPI_SHUTDOWN_GRACE", "60s")
                    .env("DOCAPI_BLOB_STORE", "s3")
                    .env("DOCAPI_S3_ENDPOINT", s3.endpoint())
                    .env("DOCAPI_S3_BUCKET", "docapi-multinode")
                    .env("DOCAPI_S3_ACCESS_KEY", S3ProxyServer.ACCESS_KEY)
                    .env("DOCAPI_S3_SECRET_KEY", S3ProxyServer.SECRET_KEY);
            nodes.add(node.start()); // one after the other: the first migrates the database
        }
    }

    @AfterAll
    static void stopAll() throws Exception {
        for (PackagedService n : nodes) if (n.process() != null && n.process().isAlive()) ProcessRunner.killTree(n.process());
        if (s3 != null) s3.close();
        if (database != null) sql(adminUrl, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }

    @Test
    @Order(1)
    void jobsOfTenAccountsAcrossThreeNodesSurviveANodeKilledMidway() throws Exception {
        int total = TestSize.of(50, 300); // a multiple of 10: every account sends as many, a tenth of them splits
        List<String> keys = new ArrayList<>();
        List<String> smallFiles = new ArrayList<>();
        List<String> largeFiles = new ArrayList<>();
        for (int a = 0; a < 10; a++) {
            PackagedService via = nodes.get(a % 3);
            String key = via.newKey("burst" + a + "@example.com", "pro");
            keys.add(key);
            smallFiles.add(via.upload(key, ApiTestBase.corpus(SMALL)));
            largeFiles.add(via.upload(key, ApiTestBase.corpus(LARGE)));
        }
        // the jobs sent round-robin to the three nodes; every tenth is a slow split, so jobs are running at the kill.
        Map<String, String> jobKeys = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(30);
        List<Future<?>> sent = new ArrayList<>();
        AtomicInteger counter = new AtomicInteger();
        for (int i = 0; i < total; i++) {
            int n = i;
            sent.add(pool.submit(() -> {
                int a = n % 10;
                Map<String, Object> body = n % 10 == 3
                        ? Map.of("file", largeFiles.get(a), "ranges", List.of(List.of(1, 117), List.of(1, 60), List.of(30, 117)), "wait", 0)
                        : Map.of("file", smallFiles.get(a), "angle", 90, "wait", 0);
                String op = n % 10 == 3 ? "/split" : "/rotate";
                while (true) {
                    PackagedService node = nodes.get(counter.getAndIncrement() % 3);
                    if (!node.process().isAlive()) continue;
                    Answer r = send(node, keys.get(a), "POST", op, body);
                    if (r.status == 202 || r.status == 200) {
                        jobKeys.put(r.body.get("id").asString(), keys.get(a));
                        return null;
                    }
                    assertThat(r.status).as(r.toString()).isIn(429, -1); // job cap (retried) or the node just killed
                    Thread.sleep(r.retryAfterMillis());
                }
            }));
            if (i == total / 2) {
                Thread.sleep(1500);
                nodes.get(2).killJvm(); // SIGKILL while jobs run on it
            }
        }
        for (Future<?> f : sent) f.get();
        pool.shutdown();
        assertThat(jobKeys).hasSize(total);

        List<PackagedService> alive = nodes.subList(0, 2);
        try {
            checkAfterTheKill(alive, jobKeys);
        } finally {
            nodes.get(2).start(); // the next tests use three nodes again
        }
    }

    private static void checkAfterTheKill(List<PackagedService> alive, Map<String, String> jobKeys) throws Exception {
        Map<String, JsonNode> finished = awaitAll(alive.get(0), jobKeys, Duration.ofMinutes(4));
        Map<String, Integer> starts = starts();
        String killedLog = nodes.get(2).logs();
        int interrupted = 0;
        for (var e : finished.entrySet()) {
            JsonNode job = e.getValue();
            int started = starts.getOrDefault(e.getKey(), 0);
            if (job.get("status").asString().equals("failed")) {
                // killed while running: it started once, on the killed node (whose log may end before that line)
                assertThat(job.at("/error/code").asString()).as(job.toString()).isEqualTo("interrupted");
                assertThat(started).as("starts of %s", e.getKey()).isLessThanOrEqualTo(1);
                if (started == 1) assertThat(killedLog).as("an interrupted job ran on the killed node").contains("job " + e.getKey() + " (");
                interrupted++;
                continue;
            }
            assertThat(started).as("starts of %s", e.getKey()).isEqualTo(1);
            assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("succeeded");
            for (JsonNode out : job.at("/output/files")) {
                String fileId = out.get("id").asString();
                byte[] first = download(alive.get(0), e.getValue(), jobKeys.get(e.getKey()), fileId);
                byte[] second = download(alive.get(1), e.getValue(), jobKeys.get(e.getKey()), fileId);
                assertThat(second).as("file %s through both nodes", fileId).isEqualTo(first);
                assertThat(first.length).isPositive();
            }
        }
        System.out.println("MultiNodeIT: " + jobKeys.size() + " jobs, " + interrupted + " interrupted on the killed node");
    }

    @Test
    @Order(2)
    void theFreeQuotaAndTheRequestRateHoldAcrossThreeNodes() throws Exception {
        String created = nodes.get(0).adminOutput("create-account", "--email", "quota@example.com", "--plan", "free");
        Matcher m = Pattern.compile("account (acct_\\w+)").matcher(created);
        assertThat(m.find()).as(created).isTrue();
        String key1 = created.substring(created.lastIndexOf('\n') + 1);
        String key2 = nodes.get(1).admin("create-key", "--account", m.group(1));
        String file = nodes.get(0).upload(key1, ApiTestBase.corpus(SMALL));
        // 150 operations, 15 in flight, over three nodes and two keys (each key stays under 120 requests a minute)
        ExecutorService pool = Executors.newFixedThreadPool(15);
        List<Future<Integer>> answers = new ArrayList<>();
        AtomicInteger counter = new AtomicInteger();
        for (int i = 0; i < 150; i++) {
            String key = i % 2 == 0 ? key1 : key2;
            answers.add(pool.submit(() -> {
                while (true) {
                    Answer r = send(nodes.get(counter.getAndIncrement() % 3), key, "POST", "/rotate", Map.of("file", file, "angle", 90, "wait", 60));
                    if (r.status != 429) return r.status == 402 ? assertCode(r, "quota_exceeded") : r.status;
                    Thread.sleep(r.retryAfterMillis());
                }
            }));
        }
        Map<Integer, Integer> byStatus = new LinkedHashMap<>();
        for (Future<Integer> f : answers) byStatus.merge(f.get(), 1, Integer::sum);
        pool.shutdown();
        assertThat(byStatus).as("statuses").isEqualTo(Map.of(200, 100, 402, 50));

        // one key's requests over three nodes until the first refusal: 120 pass (the bucket's size) and then only the
        // tokens refilled meanwhile (120 a minute, greedily: 2 a second), however fast the machine; on per-node
        // buckets 360 would pass first
        String key = nodes.get(2).newKey("rate@example.com", "pro");
        int passed = 0;
        Answer refused = null;
        long started = System.nanoTime();
        for (int i = 0; i < 480 && refused == null; i++) {
            Answer r = send(nodes.get(i % 3), key, "GET", "/jobs", null);
            assertThat(r.status).as(r.toString()).isIn(200, 429);
            if (r.status == 429) refused = r;
            else passed++;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(refused).as("a refusal within 480 requests").isNotNull();
        assertThat(passed).as("requests passed before the first refusal (%.1f s, so at most %d refilled)", seconds, (long) Math.ceil(seconds * 2))
                .isBetween(120, 120 + (int) Math.ceil(seconds * 2));
        assertThat(refused.body.at("/error/code").asString()).isEqualTo("rate_limited");
        assertThat(refused.retryAfterMillis()).isPositive();
    }

    @Test
    @Order(3)
    void aNodeStoppedWithSigtermFinishesItsRunningJobsAndTheOthersRunItsQueue() throws Exception {
        PackagedService stopping = nodes.get(0);
        List<String> keys = List.of(stopping.newKey("drain1@example.com", "pro"), stopping.newKey("drain2@example.com", "pro"));
        Map<String, String> jobKeys = new LinkedHashMap<>();
        List<List<Integer>> ranges = new ArrayList<>();
        // jobs of a few seconds each, more than the node's 3 workers: some run at the SIGTERM, the rest wait in its queue
        for (int i = 0; i < TestSize.of(6, 15); i++) ranges.add(List.of(1, 117));
        List<String> files = List.of(stopping.upload(keys.get(0), ApiTestBase.corpus(LARGE)), stopping.upload(keys.get(1), ApiTestBase.corpus(LARGE)));
        for (int i = 0, jobs = TestSize.of(12, 25); i < jobs; i++) {
            String key = keys.get(i % 2);
            String file = files.get(i % 2);
            Answer r = send(stopping, key, "POST", "/split", Map.of("file", file, "ranges", ranges, "wait", 0));
            assertThat(r.status).as(r.toString()).isEqualTo(202);
            jobKeys.put(r.body.get("id").asString(), key);
        }
        stopping.terminate(); // SIGTERM: stops claiming, lets its running jobs finish, then exits
        Map<String, JsonNode> finished = awaitAll(nodes.get(1), jobKeys, Duration.ofMinutes(4));
        String stoppedLog = stopping.logs();
        int ranOnStopped = 0;
        for (var e : finished.entrySet()) {
            assertThat(e.getValue().get("status").asString()).as(e.getValue().toString()).isEqualTo("succeeded");
            if (stoppedLog.contains("job " + e.getKey() + " (")) ranOnStopped++;
        }
        assertThat(ranOnStopped).as("jobs the stopped node had started (and finished)").isPositive();
        assertThat(starts().values()).as("no job ran twice").allMatch(n -> n == 1);
        stopping.start();
    }

    /**
     * The developer area behind a balancer that does not pin a browser to a node: a session signed in on one node is
     * signed in on the others (the sessions are in the database, Spring Session JDBC), and a password changed on one
     * node signs the account's other sessions out on every node.
     */
    @Test
    @Order(4)
    void aSessionSignedInOnOneNodeIsSignedInOnTheOthersAndAPasswordChangeEndsTheOthersEverywhere() throws Exception {
        String email = "owner-" + System.nanoTime() + "@example.com";
        nodes.get(0).newKey(email, "pro");
        sql(url, "UPDATE accounts SET password_hash = '" + new BCryptPasswordEncoder().encode("the first password")
                + "' WHERE email = '" + email + "'");
        AreaClient one = new AreaClient(port(0));
        assertThat(AreaClient.location(one.signIn(email, "the first password"))).doesNotContain("error");
        for (int i = 1; i < 3; i++) {
            HttpResponse<String> account = one.at(port(i)).get("/account");
            assertThat(account.statusCode()).as("the session on node %d", i + 1).isEqualTo(200);
            assertThat(account.body()).contains("Signed in as <strong>" + email + "</strong>");
        }
        AreaClient two = new AreaClient(port(2));
        two.signIn(email, "the first password");
        assertThat(two.at(port(0)).get("/account").statusCode()).isEqualTo(200);

        HttpResponse<String> changed = one.at(port(1)).submit("/account", "/account/password",
                Map.of("current", "the first password", "password", "the second password"));
        assertThat(changed.body()).contains("Password saved. Your other sessions are signed out.");
        assertThat(AreaClient.location(two.at(port(0)).get("/account"))).as("the other session, on another node").contains("/signin");
        assertThat(one.at(port(2)).get("/account").statusCode()).as("the session that changed it stays").isEqualTo(200);
    }

    private static int port(int node) {
        return URI.create(nodes.get(node).base()).getPort();
    }

    /** Engine starts per job id, read from every node's log ("job … started on …"). */
    private static Map<String, Integer> starts() throws Exception {
        Map<String, Integer> starts = new LinkedHashMap<>();
        for (PackagedService n : nodes) {
            Matcher m = STARTED.matcher(n.logs());
            while (m.find()) starts.merge(m.group(1), 1, Integer::sum);
        }
        return starts;
    }

    private static Map<String, JsonNode> awaitAll(PackagedService via, Map<String, String> jobKeys, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        Map<String, JsonNode> finished = new LinkedHashMap<>();
        while (finished.size() < jobKeys.size()) {
            for (var e : jobKeys.entrySet()) {
                if (finished.containsKey(e.getKey())) continue;
                JsonNode job = send(via, e.getValue(), "GET", "/jobs/" + e.getKey(), null).body;
                String status = job.path("status").asString("");
                if (status.equals("succeeded") || status.equals("failed")) finished.put(e.getKey(), job);
            }
            if (finished.size() < jobKeys.size()) {
                assertThat(System.nanoTime()).as("jobs left queued or running: %d", jobKeys.size() - finished.size()).isLessThan(deadline);
                Thread.sleep(500);
            }
        }
        return finished;
    }

    private static byte[] download(PackagedService via, JsonNode job, String key, String fileId) throws Exception {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(via.base() + "/files/" + fileId + "/content"))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).as("download of %s from %s (job %s)", fileId, via.base(), job.get("id")).isEqualTo(200);
        return r.body();
    }

    private static int assertCode(Answer r, String code) {
        assertThat(r.body.at("/error/code").asString()).as(r.toString()).isEqualTo(code);
        return r.status;
    }

    private record Answer(int status, JsonNode body, long retryAfterSeconds) {
        long retryAfterMillis() {
            return Math.max(200, retryAfterSeconds * 1000);
        }
    }

    /** One request; status -1 when the node does not answer (it was just killed). */
    private static Answer send(PackagedService node, String key, String method, String path, Object body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(node.base() + path)).timeout(Duration.ofSeconds(90))
                .header("Authorization", "Bearer " + key);
        if (body == null) b.method(method, HttpRequest.BodyPublishers.noBody());
        else b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        try {
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            long retry = r.headers().firstValue("Retry-After").map(Long::parseLong).orElse(0L);
            return new Answer(r.statusCode(), r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body()), retry);
        } catch (java.io.IOException down) {
            return new Answer(-1, JSON.createObjectNode(), 0);
        }
    }

    private static void sql(String url, String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}
