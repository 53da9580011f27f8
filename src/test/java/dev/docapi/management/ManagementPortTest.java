package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.config.MasterKey;
import dev.docapi.support.ApiTestBase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The management port (issue 24) of the real service: probes, Prometheus metrics that move with real jobs, the
 * admin API, and the separation of the two ports.
 */
@Isolated("reads the node-wide queue depth and job metrics")
class ManagementPortTest extends ApiTestBase {
    @Autowired
    ManagementPort management;
    @Autowired
    MasterKey masterKey;

    private HttpResponse<String> managementGet(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + management.port() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> adminCommand(String token, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + management.port() + "/admin/commands"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void probesAnswerOnTheManagementPortOnly() throws Exception {
        assertThat(management.port()).isPositive().isNotEqualTo(port);
        HttpResponse<String> readiness = managementGet("/actuator/health/readiness");
        assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(200);
        JsonNode ready = JSON.readTree(readiness.body());
        assertThat(ready.get("status").asString()).isEqualTo("UP");
        assertThat(ready.at("/components/database/status").asString()).isEqualTo("UP");
        assertThat(ready.at("/components/blobStore/status").asString()).isEqualTo("UP");
        assertThat(ready.at("/components/engines/details/qpdf").asString()).isEqualTo("installed");
        HttpResponse<String> liveness = managementGet("/actuator/health/liveness");
        assertThat(liveness.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(liveness.body()).at("/components/jobQueue/details/claiming").asString()).isEqualTo("yes");

        // the public port never shows them, and the management port serves nothing else
        for (String path : List.of("/actuator/health", "/actuator/prometheus", "/admin/commands")) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(404);
        }
        assertThat(managementGet("/v1").statusCode()).isEqualTo(404);
        assertThat(managementGet("/").statusCode()).isEqualTo(404);
    }

    @Test
    void everyResponseNamesTheNode() {
        Response r = get(null, "");
        assertThat(r.headers().firstValue(NodeHeader.HEADER)).hasValueSatisfying(v -> assertThat(v).isNotBlank());
        assertThat(get(null, "/jobs").headers().firstValue(NodeHeader.HEADER)).isPresent(); // an error answer too
    }

    @Test
    void jobAndEngineMetricsMoveWithARealJob() throws Exception {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf"));
        double jobsBefore = metric("docapi_jobs_seconds_count", "operation=\"rotate\"", "outcome=\"succeeded\"");
        double qpdfBefore = metric("docapi_engine_run_seconds_count", "engine=\"qpdf\"", "outcome=\"ok\"");
        run(key, "rotate", Map.of("file", file, "angle", 90));
        assertThat(metric("docapi_jobs_seconds_count", "operation=\"rotate\"", "outcome=\"succeeded\"")).isEqualTo(jobsBefore + 1);
        assertThat(metric("docapi_jobs_seconds_bucket", "operation=\"rotate\"", "outcome=\"succeeded\"", "le=\"+Inf\"")).isGreaterThanOrEqualTo(jobsBefore + 1);
        assertThat(metric("docapi_engine_run_seconds_count", "engine=\"qpdf\"", "outcome=\"ok\"")).isGreaterThan(qpdfBefore);
        String all = managementGet("/actuator/prometheus").body();
        assertThat(all).contains("docapi_engine_restarts_total{engine=\"libreoffice\"", "docapi_engine_restarts_total{engine=\"chromium\"");

        // a failed job is counted with its code; an API error by its code
        double badBefore = metric("docapi_api_errors_total", "code=\"invalid_request\"");
        assertThat(post(key, "/rotate", Map.of("file", file, "angle", 45)).status()).isEqualTo(400);
        assertThat(metric("docapi_api_errors_total", "code=\"invalid_request\"")).isEqualTo(badBefore + 1);
    }

    @Test
    void queueDepthRisesWhenMoreJobsAreSubmittedThanWorkersAndFallsWhenTheyRun() throws Exception {
        String key = newKey(dev.docapi.accounts.Plan.of("pro"));
        String file = uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf"));
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 8; i++) jobs.add(post(key, "/test-sleep", Map.of("file", file, "seconds", 2, "wait", 0)).body().get("id").asString());
        // the gauges are read in the background every second (issue 38), never during a scrape
        double depth = awaitMetric("docapi_queue_depth", d -> d >= 1, 4);
        assertThat(depth).as("8 jobs of 2 s on 4 workers").isGreaterThanOrEqualTo(1);
        assertThat(metric("docapi_queue_oldest_age_seconds")).isGreaterThan(0).isLessThan(60);
        assertThat(metric("docapi_metrics_age_seconds", "source=\"queue\"")).isLessThan(10);
        for (String id : jobs) awaitFinished(key, id);
        awaitMetric("docapi_queue_depth", d -> d == 0, 10);
        awaitMetric("docapi_queue_oldest_age_seconds", d -> d == 0, 10);
    }

    @Test
    void adminCommandsRunInTheServiceWithTheToken() throws Exception {
        double wrongBefore = metric("docapi_admin_wrong_tokens_total");
        assertThat(adminCommand(null, "{\"args\":[\"list-accounts\"]}").statusCode()).isEqualTo(401);
        assertThat(adminCommand("wrong", "{\"args\":[\"list-accounts\"]}").statusCode()).isEqualTo(401);
        assertThat(metric("docapi_admin_wrong_tokens_total")).as("wrong tokens are counted").isEqualTo(wrongBefore + 2);
        String token = masterKey.adminToken();
        assertThat(adminCommand(token, "{\"args\":[]}").statusCode()).isEqualTo(400);

        HttpResponse<String> created = adminCommand(token, "{\"args\":[\"create-account\",\"--email\",\"admin-api@example.com\",\"--plan\",\"pro\"]}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        JsonNode out = JSON.readTree(created.body());
        assertThat(out.get("exit_code").asInt()).isZero();
        String apiKey = out.get("stdout").asString().strip().lines().reduce((a, b) -> b).orElseThrow();
        assertThat(get(apiKey, "/usage").status()).as("the new key works").isEqualTo(200);

        JsonNode usage = JSON.readTree(adminCommand(token, "{\"args\":[\"no-such-command\"]}").body());
        assertThat(usage.get("exit_code").asInt()).isEqualTo(2);
        assertThat(usage.get("stderr").asString()).contains("unknown command");
    }

    @Test
    void readinessAndEachOfItsChecksAreMetrics() throws Exception {
        awaitMetric("docapi_ready", d -> d == 1, 10);
        for (String check : List.of("readinessState", "database", "blobStore", "engines")) {
            assertThat(metric("docapi_readiness_check", "check=\"" + check + "\"")).as(check).isEqualTo(1);
        }
        assertThat(metric("docapi_metrics_age_seconds", "source=\"readiness\"")).isLessThan(10);
    }

    @Test
    void theAdminCliWithAWrongSecretIsRefusedAndExits1() throws Exception {
        var exit = AdminClient.run(new String[] {"list-accounts"},
                Map.of("DOCAPI_SECRET", "not-the-services-secret", "DOCAPI_MANAGEMENT_PORT", String.valueOf(management.port())));
        assertThat(exit).hasValue(1);
    }

    /** Polls {@code name} until {@code wanted} holds (at most {@code seconds}); returns the value. */
    private double awaitMetric(String name, java.util.function.DoublePredicate wanted, int seconds) throws Exception {
        double v = Double.NaN;
        for (int i = 0; i < seconds * 5; i++) {
            v = metric(name);
            if (wanted.test(v)) return v;
            Thread.sleep(200);
        }
        throw new AssertionError(name + " is still " + v + " after " + seconds + " s");
    }

    /** The sum of the samples of {@code name} whose labels contain all of {@code labels} (0 when none). */
    private double metric(String name, String... labels) throws Exception {
        HttpResponse<String> r = managementGet("/actuator/prometheus");
        assertThat(r.statusCode()).isEqualTo(200);
        double sum = 0;
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "(\\{([^}]*)\\})? (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(r.body());
        while (m.find()) {
            String l = m.group(2) == null ? "" : m.group(2);
            boolean all = true;
            for (String want : labels) all &= l.contains(want);
            if (all) sum += Double.parseDouble(m.group(3));
        }
        return sum;
    }
}
