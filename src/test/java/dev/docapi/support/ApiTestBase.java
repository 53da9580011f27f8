package dev.docapi.support;

import dev.docapi.accounts.AccountService;
import dev.docapi.accounts.Plan;
import dev.docapi.ai.ScriptedModelServer;
import dev.docapi.operations.reversepages.ReversePagesOperation;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the integration tests: the real service on a random port, over real HTTP, with the real database — H2 in
 * a temp data directory, or PostgreSQL when {@code DOCAPI_TEST_DATABASE_URL} is set (schema {@code docapi_test},
 * cleaned at start). All test classes share one running service (Spring's context cache): a second configuration
 * would start a second service, warm its own engines and stay alive to the end of the run (issue 41), so a test that
 * needs an engine configured otherwise builds that engine itself. The service's own model is {@code openai/gpt-test}
 * (the agent pipeline's {@code openai/gpt-agent}), every provider's base URL pointing at one {@link #MODEL}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import({ApiTestBase.CleanDatabase.class, TestOperations.class, ReversePagesOperation.class})
public abstract class ApiTestBase {
    protected static final Path DATA_DIR;
    /** The host of test pages whose origin (any port) the service allows ({@code DOCAPI_CORS_ORIGINS}); a loopback name. */
    protected static final String CORS_PAGE_HOST = "cors-allowed.localhost";
    protected static final JsonMapper JSON = JsonMapper.builder().build();
    protected static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    /** The language model providers' stand-in: replays their documented wire formats from a local HTTP server. */
    public static final ScriptedModelServer MODEL = new ScriptedModelServer();
    /** The lock of the classes that script {@link #MODEL}: its replies are a queue, so two such classes never run at once. */
    public static final String MODEL_LOCK = "docapi.test.model";

    static {
        try {
            DATA_DIR = Files.createTempDirectory("docapi-test-");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("docapi.data-dir", DATA_DIR::toString);
        registry.add("docapi.allow-private-urls", () -> "true");
        registry.add("docapi.cors-origins", () -> "http://" + CORS_PAGE_HOST + ":[*]");
        registry.add("docapi.smtp-url", TestMail::url);
        // the suite signs up many owners from 127.0.0.1 in one context; SignUpThrottleTest checks the limit itself
        registry.add("docapi.signups-per-address", () -> "100000");
        registry.add("docapi.ai.service-model", () -> "openai/gpt-test");
        registry.add("docapi.ai.service-model-key", () -> "sk-service-good");
        registry.add("docapi.ai.agent", () -> "openai/gpt-agent");
        registry.add("docapi.ai.secret", () -> "test-operator-secret");
        registry.add("docapi.ai.timeout-seconds", () -> "20");
        for (String provider : new String[] {"openai", "anthropic", "google", "openrouter"}) {
            registry.add("docapi.ai." + provider + "-base-url", () -> MODEL.base(provider));
        }
        String pg = System.getenv("DOCAPI_TEST_DATABASE_URL");
        if (pg != null && !pg.isBlank()) {
            registry.add("docapi.database-url", () -> pg + (pg.contains("?") ? "&" : "?") + "currentSchema=docapi_test");
            registry.add("spring.flyway.schemas", () -> "docapi_test");
            registry.add("spring.flyway.clean-disabled", () -> "false");
        }
    }

    /** On PostgreSQL, starts every test run from an empty schema. */
    @TestConfiguration
    static class CleanDatabase {
        @Bean
        FlywayMigrationStrategy cleanThenMigrate() {
            return (Flyway flyway) -> {
                if (System.getenv("DOCAPI_TEST_DATABASE_URL") != null) flyway.clean();
                flyway.migrate();
            };
        }
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected AccountService accounts;

    /** A real response: status, headers and the body as JSON (null when the body is not JSON). */
    public record Response(int status, java.net.http.HttpHeaders headers, JsonNode body, byte[] raw) {
        public String code() {
            return body == null ? null : body.path("error").path("code").asString(null);
        }

        @Override
        public String toString() {
            return status + " " + (body != null ? body.toString() : raw.length + " bytes");
        }
    }

    protected String base() {
        return "http://localhost:" + port + "/v1";
    }

    /** A new account on {@code plan} and its API key. */
    protected String newKey(Plan plan) {
        return accounts.createAccount("test-" + UUID.randomUUID() + "@example.com", plan).apiKey();
    }

    protected String newKey() {
        return newKey(Plan.PRO);
    }

    private static final java.util.Map<AccountService, String> SCAN_KEYS = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The key of one pro account (per service) shared by the tests that turn a scan into another format and do not
     * test its OCR: the service keeps a file's OCR with its account (issue 12), so such a scan is OCR'd once for all of
     * them rather than once per test (issue 41). Tests of the OCR itself take a {@link #newKey} of their own.
     */
    protected String scanKey() {
        return SCAN_KEYS.computeIfAbsent(accounts, a -> a.createAccount("scans-" + UUID.randomUUID() + "@example.com", Plan.PRO).apiKey());
    }

    /** A file of the shared corpus, e.g. {@code corpus("pdf-text/rotated-page-90.pdf")}. */
    public static Path corpus(String relative) {
        String env = System.getenv("DOCAPI_CORPUS");
        Path root = env != null ? Path.of(env) : null;
        for (Path dir = Path.of("").toAbsolutePath(); root == null && dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("corpus");
            if (Files.isDirectory(candidate)) root = candidate;
            Path sibling = dir.resolveSibling("shared").resolve("corpus");
            if (root == null && Files.isDirectory(sibling)) root = sibling;
        }
        if (root == null) throw new IllegalStateException("shared/corpus not found; set DOCAPI_CORPUS");
        Path p = root.resolve(relative);
        if (!Files.exists(p)) throw new IllegalStateException("no corpus file " + p);
        return p;
    }

    /** Uploads a file as raw bytes with {@code ?name=} and returns the File JSON (asserting 201). */
    protected JsonNode upload(String key, Path file) {
        return upload(key, file, file.getFileName().toString());
    }

    protected JsonNode upload(String key, Path file, String name) {
        Response r = send(key, HttpRequest.newBuilder(URI.create(base() + "/files?name=" + java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8)))
                .header("Content-Type", "application/octet-stream").POST(bodyOf(file)));
        if (r.status() != 201) throw new AssertionError("upload of " + name + " failed: " + r);
        return r.body();
    }

    protected String uploadId(String key, Path file) {
        return upload(key, file).get("id").asString();
    }

    /** POST JSON to {@code path} (relative to /v1). */
    protected Response post(String key, String path, Object body) {
        return post(HTTP, key, path, body);
    }

    /** {@link #post(String, String, Object)} through {@code client} (e.g. one without the suite's pooled connections). */
    protected Response post(HttpClient client, String key, String path, Object body) {
        String text = body instanceof String s ? s : JSON.writeValueAsString(body);
        return send(client, key, HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(text)));
    }

    protected Response get(String key, String path) {
        return send(key, HttpRequest.newBuilder(URI.create(path.startsWith("http") ? path : base() + path)).GET());
    }

    protected Response delete(String key, String path) {
        return send(key, HttpRequest.newBuilder(URI.create(base() + path)).DELETE());
    }

    protected Response send(String key, HttpRequest.Builder builder) {
        return send(HTTP, key, builder);
    }

    private Response send(HttpClient client, String key, HttpRequest.Builder builder) {
        if (key != null) builder.header("Authorization", "Bearer " + key);
        try {
            HttpRequest request = builder.timeout(Duration.ofMinutes(6)).build();
            HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            // Every response the suite receives must be as the OpenAPI description says (issue 5).
            // (CORS preflights are the browser's, not part of the API)
            if (request.uri().getPath().startsWith("/v1") && !request.method().equals("OPTIONS")) OpenApiContract.of(base()).check(request, r);
            JsonNode json = null;
            if (r.headers().firstValue("Content-Type").orElse("").contains("json") && r.body().length > 0) json = JSON.readTree(r.body());
            return new Response(r.statusCode(), r.headers(), json, r.body());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs an operation and asserts it succeeded; returns the Job JSON. A job still running when the request's wait
     * ends (202: a loaded CI machine queues it behind other classes' engines) is polled to its end
     * ({@link #awaitFinished}): the bound is on "it succeeds", not on the machine's speed.
     */
    protected JsonNode run(String key, String operation, Object body) {
        Response r = post(key, "/" + operation, body);
        JsonNode job = r.body();
        if (r.status() == 202 && job != null && job.path("status").asString("").matches("queued|running")) {
            try {
                job = awaitFinished(key, job.path("id").asString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (!job.path("status").asString("").equals("succeeded")) throw new AssertionError(operation + " did not succeed: " + job);
            return job;
        }
        if (r.status() != 200) throw new AssertionError(operation + " did not succeed: " + r);
        return job;
    }

    /**
     * Polls job {@code jobId} until it is {@code succeeded} or {@code failed} and returns it. The bound (10 min) is on
     * "it finishes", not on the machine's speed: a loaded CI machine queues jobs behind other classes' engines.
     */
    protected JsonNode awaitFinished(String key, String jobId) throws InterruptedException {
        JsonNode job = get(key, "/jobs/" + jobId).body();
        for (long end = System.nanoTime() + Duration.ofMinutes(10).toNanos();
             !job.path("status").asString("").matches("succeeded|failed") && System.nanoTime() < end; ) {
            Thread.sleep(200);
            job = get(key, "/jobs/" + jobId).body();
        }
        assertThat(job.path("status").asString("")).as("job %s within 10 min", job).matches("succeeded|failed");
        return job;
    }

    /** Downloads output file {@code index} of a finished job through its signed link (no key) into a temp file. */
    protected Path downloadOutput(JsonNode job, int index) throws IOException {
        JsonNode f = job.path("output").path("files").get(index);
        Response r = get(null, f.get("download_url").asString());
        if (r.status() != 200) throw new AssertionError("download failed: " + r);
        Path dir = Files.createTempDirectory(DATA_DIR, "dl-");
        Path p = dir.resolve(f.get("name").asString());
        Files.write(p, r.raw());
        return p;
    }

    protected static ObjectNode json() {
        return JSON.createObjectNode();
    }

    private static HttpRequest.BodyPublisher bodyOf(Path file) {
        try {
            return HttpRequest.BodyPublishers.ofFile(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
