package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.docapi.accounts.AccountService;
import dev.docapi.accounts.Plan;
import dev.docapi.support.ApiTestBase;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Traces and logs of one OCR job (issue 24): the service exports over OTLP/HTTP to a receiver in this test, which
 * decodes what arrives with the OpenTelemetry protocol's own classes. One trace holds the HTTP request, the job
 * (continued from the job row, as another node would) and the engine run; the job's JSON log lines carry that trace
 * id. A service of its own (own data dir and database), so no other test service claims its job.
 *
 * <p>Issue 38: the log format is given as operators write it ({@code DOCAPI_LOG_FORMAT=json}), every JSON line names
 * the node, the spans' resource names the node ({@code service.instance.id}, {@code host.name}), and probes and
 * metric scrapes make no span.
 */
@DirtiesContext // a service of its own: closed after this class, not kept to the end of the run (issue 41)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "DOCAPI_LOG_FORMAT=json", "DOCAPI_NODE_NAME=tracing-node",
        "management.opentelemetry.tracing.export.schedule-delay=100ms"})
@ExtendWith(OutputCaptureExtension.class)
@Isolated("a second service, and it reads everything the JVM prints")
class TracingTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<ExportTraceServiceRequest> RECEIVED = new CopyOnWriteArrayList<>();
    private static final HttpServer RECEIVER = receiver();

    private static HttpServer receiver() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/v1/traces", exchange -> {
                try (InputStream in = exchange.getRequestBody()) {
                    RECEIVED.add(ExportTraceServiceRequest.parseFrom(in.readAllBytes()));
                }
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        Path data = Files.createTempDirectory("docapi-tracing-");
        registry.add("docapi.data-dir", data::toString);
        registry.add("management.opentelemetry.tracing.export.otlp.endpoint",
                () -> "http://127.0.0.1:" + RECEIVER.getAddress().getPort() + "/v1/traces");
    }

    @AfterAll
    static void stop() {
        RECEIVER.stop(0);
    }

    @LocalServerPort
    int port;
    @Autowired
    AccountService accounts;
    @Autowired
    ManagementPort management;

    @Test
    void spansNameTheNodeAndProbesAndScrapesMakeNoSpan() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String mgmt = "http://localhost:" + management.port();
        for (String path : List.of("/actuator/health/readiness", "/actuator/health/liveness", "/actuator/prometheus")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(mgmt + path)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(200);
        }
        // a marker request after the probes: once its span has arrived, theirs would have too (same exporter, later end)
        HttpResponse<String> marker = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(marker.statusCode()).isEqualTo(200);
        awaitSpan(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER && attribute(s, "http.url").equals("/v1"));
        Thread.sleep(500);

        List<String> probeSpans = new java.util.ArrayList<>();
        for (ExportTraceServiceRequest r : RECEIVED) {
            for (var resource : r.getResourceSpansList()) {
                java.util.Map<String, String> attributes = new java.util.HashMap<>();
                resource.getResource().getAttributesList().forEach(a -> attributes.put(a.getKey(), a.getValue().getStringValue()));
                assertThat(attributes).as("the spans' resource").containsEntry("service.instance.id", "tracing-node")
                        .containsEntry("host.name", "tracing-node").containsEntry("service.name", "docapi");
                for (var scope : resource.getScopeSpansList()) {
                    for (Span s : scope.getSpansList()) {
                        String path = attribute(s, "url.path") + attribute(s, "http.url") + attribute(s, "uri") + s.getName();
                        if (path.contains("/actuator")) probeSpans.add(s.getName() + " " + path);
                    }
                }
            }
        }
        assertThat(probeSpans).as("spans of probes and scrapes").isEmpty();
    }

    @Test
    void oneOcrJobIsOneTraceFromTheRequestToTheEngineAndItsLogLinesCarryTheTraceId(CapturedOutput output) throws Exception {
        String key = accounts.createAccount("tracing@example.com", Plan.PRO).apiKey();
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://localhost:" + port + "/v1";
        HttpResponse<String> upload = http.send(HttpRequest.newBuilder(URI.create(base + "/files?name=scan.pdf"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofFile(ApiTestBase.corpus("pdf-scanned/huckfinn-page-c02-22.pdf"))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(upload.statusCode()).as(upload.body()).isEqualTo(201);
        String file = JSON.readTree(upload.body()).get("id").asString();
        HttpResponse<String> ocr = http.send(HttpRequest.newBuilder(URI.create(base + "/ocr?wait=120"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"file\":\"" + file + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ocr.statusCode()).as(ocr.body()).isEqualTo(200);
        String jobId = JSON.readTree(ocr.body()).get("id").asString();

        Span job = awaitSpan("job ocr");
        String traceId = HexFormat.of().formatHex(job.getTraceId().toByteArray());
        Span request = awaitSpan(s -> s.getTraceId().equals(job.getTraceId()) && s.getKind() == Span.SpanKind.SPAN_KIND_SERVER
                && s.getName().contains("/v1/{operation}"));
        assertThat(request.getParentSpanId().isEmpty()).as("the request starts the trace").isTrue();
        assertThat(job.getParentSpanId().isEmpty()).as("the job continues the request's trace, not a new one").isFalse();
        Span engine = awaitSpan(s -> s.getTraceId().equals(job.getTraceId()) && s.getName().equals("engine ocrmypdf"));
        assertThat(attribute(engine, "engine")).isEqualTo("ocrmypdf");
        assertThat(attribute(engine, "outcome")).isEqualTo("ok");
        assertThat(attribute(engine, "exit_code")).isEqualTo("0");
        assertThat(attribute(engine, "sandbox")).isNotEmpty();

        List<JsonNode> jobLines = output.getOut().lines().filter(l -> l.startsWith("{") && l.contains(jobId))
                .map(l -> (JsonNode) JSON.readTree(l)).filter(j -> jobId.equals(j.path("job_id").asString(null))).toList();
        assertThat(jobLines).as("JSON log lines written during the job").isNotEmpty();
        List<JsonNode> all = output.getOut().lines().filter(l -> l.startsWith("{")).map(l -> (JsonNode) JSON.readTree(l)).toList();
        assertThat(all).as("DOCAPI_LOG_FORMAT=json writes JSON lines").hasSizeGreaterThan(jobLines.size());
        for (JsonNode line : all) {
            assertThat(line.path("service").path("node").path("name").asString(line.path("service.node.name").asString(""))).as(line.toString())
                    .isEqualTo("tracing-node");
        }
        for (JsonNode line : jobLines) {
            assertThat(line.path("trace_id").asString()).as(line.toString()).isEqualTo(traceId);
            assertThat(line.path("operation").asString()).isEqualTo("ocr");
            assertThat(line.path("account_id").asString()).startsWith("acct_");
        }
    }

    private static String attribute(Span span, String key) {
        return span.getAttributesList().stream().filter(a -> a.getKey().equals(key)).map(a -> a.getValue().getStringValue()).findFirst().orElse("");
    }

    private static Span awaitSpan(String name) throws InterruptedException {
        return awaitSpan(s -> s.getName().equals(name));
    }

    private static Span awaitSpan(java.util.function.Predicate<Span> wanted) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            for (ExportTraceServiceRequest r : RECEIVED) {
                for (var resource : r.getResourceSpansList()) {
                    for (var scope : resource.getScopeSpansList()) {
                        for (Span s : scope.getSpansList()) if (wanted.test(s)) return s;
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no such span among " + RECEIVED.stream().flatMap(r -> r.getResourceSpansList().stream())
                .flatMap(rs -> rs.getScopeSpansList().stream()).flatMap(ss -> ss.getSpansList().stream()).map(Span::getName).toList());
    }
}
