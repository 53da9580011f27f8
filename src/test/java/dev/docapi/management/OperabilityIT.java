package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.PackagedService;
import dev.docapi.support.TcpProxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import tools.jackson.databind.JsonNode;

/**
 * The probes of the packaged service as an orchestrator sees them (issue 24): readiness turns DOWN within 5 s of a
 * SIGTERM while the running job finishes and liveness stays UP; and within 5 s of the database going away, UP again
 * when it is back. Also the admin CLI as a thin client of the running service.
 */
@Isolated("bounds how soon readiness follows a stop and the database")
class OperabilityIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration WITHIN = Duration.ofSeconds(5);

    private static int status(PackagedService service, String path) throws Exception {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(service.management() + path)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException refused) {
            return -1;
        }
    }

    /** Polls {@code path} until it answers {@code expected}; returns how long that took (fails past {@code limit}). */
    private static Duration await(PackagedService service, String path, int expected, Duration limit) throws Exception {
        long start = System.nanoTime();
        while (true) {
            int s = status(service, path);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            if (s == expected) return took;
            assertThat(took).as("%s still answers %d, not %d", path, s, expected).isLessThan(limit);
            Thread.sleep(100);
        }
    }

    @Test
    void sigtermTurnsReadinessDownAtOnceWhileTheRunningJobFinishesAndLivenessStaysUp() throws Exception {
        PackagedService service = new PackagedService().env("DOCAPI_SHUTDOWN_GRACE", "120s").start();
        try {
            await(service, "/actuator/health/readiness", 200, Duration.ofSeconds(30));
            long t0 = System.nanoTime();
            String key = service.newKey("drain@example.com", "pro");
            // about 1 s through the running service's admin API; 20 s leaves room for a loaded machine
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("admin create-account through the admin API").isLessThan(Duration.ofSeconds(20));
            // one scanned page: seconds of OCR, longer than readiness takes to turn DOWN, without minutes of drain
            String file = service.upload(key, ApiTestBase.corpus("pdf-scanned/huckfinn-page-c02-22.pdf"));
            String job = service.post(key, "/ocr", Map.of("file", file, "wait", 0), 202).get("id").asString();
            service.awaitRunning(key, job);

            service.process().destroy(); // SIGTERM
            Duration notReady = await(service, "/actuator/health/readiness", 503, WITHIN);
            assertThat(status(service, "/actuator/health/liveness")).as("liveness while draining").isEqualTo(200);

            // the job runs on; the node answers until the job has ended, then stops at once
            while (status(service, "/actuator/health/liveness") == 200) {
                assertThat(status(service, "/actuator/health/readiness")).as("readiness while draining").isIn(503, -1);
                Thread.sleep(200);
            }
            assertThat(service.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the node stops once drained").isTrue();
            service.start(); // the job's end is in the database: read it back
            JsonNode finished = service.get(key, "/jobs/" + job);
            assertThat(finished.get("status").asString()).as(finished.toString()).isEqualTo("succeeded");
            assertThat(finished.at("/output/files/0/pages").asInt()).isEqualTo(1);
            System.out.println("readiness DOWN " + notReady.toMillis() + " ms after SIGTERM");
        } finally {
            if (service.process().isAlive()) ProcessRunner.killTree(service.process());
        }
    }

    @Test
    void readinessFollowsTheDatabaseAndLivenessDoesNot() throws Exception {
        String adminUrl = System.getenv("DOCAPI_TEST_POSTGRES_URL");
        assumeTrue(adminUrl != null && !adminUrl.isBlank(), "needs PostgreSQL (DOCAPI_TEST_POSTGRES_URL)");
        String database = "docapi_probes_" + System.nanoTime();
        sql(adminUrl, "CREATE DATABASE " + database);
        URI pg = URI.create(adminUrl.substring("jdbc:".length()));
        try (TcpProxy proxy = new TcpProxy(pg.getHost(), pg.getPort() < 0 ? 5432 : pg.getPort())) {
            String url = adminUrl.replaceFirst("//[^/]+/[^/?]+", "//127.0.0.1:" + proxy.port() + "/" + database);
            PackagedService service = new PackagedService().env("DOCAPI_DATABASE_URL", url)
                    .env("DOCAPI_LOG_FORMAT", "json").env("DOCAPI_NODE_NAME", "probe-node").start();
            try {
                await(service, "/actuator/health/readiness", 200, Duration.ofSeconds(30));
                proxy.cut();
                Duration down = await(service, "/actuator/health/readiness", 503, WITHIN);
                assertThat(status(service, "/actuator/health/liveness")).as("liveness without the database").isEqualTo(200);
                // issue 38: metrics answer at once without the database, and say the node is not ready
                for (int i = 0; i < 10; i++) {
                    long t = System.nanoTime();
                    HttpResponse<String> scrape = HTTP.send(HttpRequest.newBuilder(URI.create(service.management() + "/actuator/prometheus"))
                            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(Duration.ofNanos(System.nanoTime() - t)).as("a scrape without the database").isLessThan(Duration.ofSeconds(1));
                    assertThat(scrape.statusCode()).isEqualTo(200);
                    if (i == 9) assertThat(scrape.body()).containsPattern("(?m)^docapi_ready\\{[^}]*\\} 0\\.0$");
                    Thread.sleep(300);
                }
                proxy.restore();
                Duration up = await(service, "/actuator/health/readiness", 200, Duration.ofSeconds(35));
                System.out.println("readiness DOWN " + down.toMillis() + " ms after the database went away, UP " + up.toMillis() + " ms after it came back");
                // DOCAPI_LOG_FORMAT=json: JSON lines naming the node; the outage is one WARN line, without a stack trace
                List<String> lines = service.logs().lines().filter(l -> l.startsWith("{")).toList();
                assertThat(lines).isNotEmpty();
                assertThat(lines).allSatisfy(l -> assertThat(l).contains("\"probe-node\""));
                assertThat(lines.stream().filter(l -> l.contains("readiness: the database is DOWN")).count()).isEqualTo(1);
            } finally {
                ProcessRunner.killTree(service.process());
            }
        } finally {
            sql(adminUrl, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    private static void sql(String url, String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(url); var s = c.createStatement()) {
            s.execute(statement);
        }
    }
}
