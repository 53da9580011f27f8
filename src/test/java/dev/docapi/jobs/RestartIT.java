package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.support.ApiTestBase;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The packaged service, stopped (killed) while a job runs and started again: the job fails with
 * {@code interrupted} (spec §3) and is not counted. Also proves {@code bin/docapi admin} works beside the service.
 */
@Tag("database")
class RestartIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aJobRunningWhenTheServiceStopsIsInterruptedAtTheNextStart() throws Exception {
        Path data = Files.createTempDirectory("docapi-restart-");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String base = "http://localhost:" + port + "/v1";
        Process service = start(data, port);
        String jobId;
        String key;
        try {
            key = admin(data, port, "create-account", "--email", "restart@example.com", "--plan", "pro");
            String file = upload(base, key, ApiTestBase.corpus("pdf-text/geotopo-117p-linearized-links.pdf"));
            List<List<Integer>> ranges = new ArrayList<>();
            for (int i = 0; i < 600; i++) ranges.add(List.of(1, 117));
            JsonNode job = post(base, key, "/split", Map.of("file", file, "ranges", ranges, "wait", 0));
            jobId = job.get("id").asString();
            for (int i = 0; i < 100 && !job.get("status").asString().equals("running"); i++) {
                Thread.sleep(100);
                job = get(base, key, "/jobs/" + jobId);
            }
            assertThat(job.get("status").asString()).isEqualTo("running");
        } finally {
            ProcessRunner.killTree(service);
        }
        service = start(data, port);
        try {
            JsonNode job = get(base, key, "/jobs/" + jobId);
            assertThat(job.path("status").asString("")).as(job.toString()).isEqualTo("failed");
            assertThat(job.at("/error/code").asString()).isEqualTo("interrupted");
            assertThat(job.get("finished_at").isNull()).isFalse();
        } finally {
            ProcessRunner.killTree(service);
        }
    }

    private static Process start(Path data, int port) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(java(), "-jar", jar().toString())
                .redirectErrorStream(true).redirectOutput(data.resolve("service-" + System.nanoTime() + ".log").toFile());
        pb.environment().put("DOCAPI_DATA_DIR", data.toString());
        pb.environment().put("DOCAPI_PORT", String.valueOf(port));
        Process p = pb.start();
        HttpClient client = HttpClient.newHttpClient();
        for (int i = 0; i < 600; i++) {
            try {
                if (client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) return p;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("the service did not start");
    }

    /** Runs {@code java -jar docapi.jar admin ...} and returns the last line of its output. */
    private static String admin(Path data, int port, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java(), "-jar", jar().toString(), "admin"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("DOCAPI_DATA_DIR", data.toString());
        pb.environment().put("DOCAPI_PORT", String.valueOf(port));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor()).isZero();
        return out.substring(out.lastIndexOf('\n') + 1);
    }

    private String upload(String base, String key, Path file) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/files?name=" + file.getFileName()))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofFile(file)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(201);
        return JSON.readTree(r.body()).get("id").asString();
    }

    private JsonNode post(String base, String key, String path, Object body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return JSON.readTree(r.body());
    }

    private JsonNode get(String base, String key, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + key).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static Path jar() {
        Path jar = Path.of("target", "docapi.jar").toAbsolutePath();
        if (!Files.exists(jar)) throw new IllegalStateException("run with 'mvn verify': " + jar + " is built in the package phase");
        return jar;
    }
}
