package dev.docapi.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.docapi.client.generated.model.ErrorCode;
import dev.docapi.client.generated.model.FileObject;
import dev.docapi.client.generated.model.Job;
import dev.docapi.client.generated.model.RotateRequest;
import dev.docapi.client.generated.model.WebhookEvent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client against the real service (scripts/check-clients starts it with DOCAPI_ALLOW_PRIVATE_URLS=true, so URL
 * imports and webhooks reach this test's loopback server). Environment: DOCAPI_BASE_URL, DOCAPI_API_KEY,
 * DOCAPI_WEBHOOK_SECRET, DOCAPI_CORPUS.
 */
class DocapiTest {
    static final Docapi DOCAPI = new Docapi(env("DOCAPI_BASE_URL"), env("DOCAPI_API_KEY"));
    static final Path PDF = Path.of(env("DOCAPI_CORPUS"), "pdf-text", "rotated-pages-20p.pdf");
    static final List<String[]> DELIVERIES = new CopyOnWriteArrayList<>();
    static HttpServer server;
    static String local;

    @BeforeAll
    static void serveThePdfAndRecordDeliveries() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (exchange.getRequestMethod().equals("POST")) {
                DELIVERIES.add(new String[] {new String(body, StandardCharsets.UTF_8), exchange.getRequestHeaders().getFirst(WebhookSignature.HEADER),
                        exchange.getRequestHeaders().getFirst(WebhookSignature.DELIVERY_ID_HEADER)});
                exchange.sendResponseHeaders(204, -1);
            } else {
                byte[] pdf = Files.readAllBytes(PDF);
                exchange.sendResponseHeaders(200, pdf.length);
                exchange.getResponseBody().write(pdf);
            }
            exchange.close();
        });
        server.start();
        local = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    @Test
    void uploadsByPathBytesAndUrlRunsToTheEndAndDownloads(@TempDir Path dir) throws Exception {
        FileObject byPath = DOCAPI.upload(PDF);
        FileObject byBytes = DOCAPI.upload(Files.readAllBytes(PDF), "bytes.pdf");
        FileObject byUrl = DOCAPI.upload(URI.create(local + "/book.pdf"));
        assertEquals(List.of("upload", "upload", "url"), List.of(byPath.getSource().getValue(), byBytes.getSource().getValue(), byUrl.getSource().getValue()));
        assertEquals("bytes.pdf", byBytes.getName());
        assertEquals(20, byUrl.getPages());

        Job rotated = DOCAPI.run("rotate", new RotateRequest().file(byPath.getId()).angle(RotateRequest.AngleEnum.NUMBER_90));
        assertEquals(Job.StatusEnum.SUCCEEDED, rotated.getStatus());
        assertTrue(isPdf(DOCAPI.download(rotated.getOutput().getFiles().get(0), dir.resolve("rotated.pdf"))));

        Job accepted = DOCAPI.run("compress", Map.of("file", rotated.getOutput().getFiles().get(0).getId()), false);
        assertTrue(List.of(Job.StatusEnum.QUEUED, Job.StatusEnum.RUNNING, Job.StatusEnum.SUCCEEDED).contains(accepted.getStatus()));
        Job compressed = DOCAPI.waitFor(accepted, Duration.ofMinutes(2));
        assertEquals(Job.StatusEnum.SUCCEEDED, compressed.getStatus());
        assertTrue(isPdf(DOCAPI.download(compressed.getOutput().getFiles().get(0).getId(), dir.resolve("compressed.pdf"))));
    }

    @Test
    void errorAnswersCarryTheSpecsCodeAndStatus() throws Exception {
        DocapiException missing = assertThrows(DocapiException.class, () -> DOCAPI.run("rotate", Map.of("file", "file_nope", "angle", 90)));
        assertEquals(ErrorCode.FILE_NOT_FOUND, missing.code());
        assertEquals(404, missing.status());
        String file = DOCAPI.upload(PDF).getId();
        DocapiException angle = assertThrows(DocapiException.class, () -> DOCAPI.run("rotate", Map.of("file", file, "angle", 45)));
        assertEquals(ErrorCode.INVALID_REQUEST, angle.code());
        assertTrue(angle.getMessage().contains("angle"), angle.getMessage());
        assertEquals(ErrorCode.INVALID_FILE, assertThrows(DocapiException.class, () -> DOCAPI.upload(new byte[] {1, 2, 3}, "x.pdf")).code());
        assertEquals(ErrorCode.INVALID_API_KEY, assertThrows(DocapiException.class, () -> new Docapi(env("DOCAPI_BASE_URL"), "dk_wrong").job("job_x")).code());
    }

    @Test
    void aRealDeliveryVerifiesAndAChangedBodyAWrongSecretOrAnOldTimestampDoNot() throws Exception {
        DOCAPI.run("rotate", Map.of("file", DOCAPI.upload(PDF).getId(), "angle", 180, "webhook_url", local + "/hook"));
        for (int i = 0; i < 100 && DELIVERIES.isEmpty(); i++) Thread.sleep(100);
        assertEquals(1, DELIVERIES.size(), "one delivery arrived");
        byte[] body = DELIVERIES.get(0)[0].getBytes(StandardCharsets.UTF_8);
        String header = DELIVERIES.get(0)[1];
        assertTrue(DELIVERIES.get(0)[2].startsWith("whd_"), "the delivery names itself in webhook-id");
        String secret = env("DOCAPI_WEBHOOK_SECRET");

        WebhookEvent event = WebhookSignature.verify(body, header, secret);
        assertEquals(WebhookEvent.TypeEnum.JOB_SUCCEEDED, event.getType());
        assertEquals("rotate", event.getData().getOperation());
        byte[] changed = (DELIVERIES.get(0)[0] + " ").getBytes(StandardCharsets.UTF_8);
        assertThrows(WebhookSignature.WebhookSignatureException.class, () -> WebhookSignature.verify(changed, header, secret));
        assertThrows(WebhookSignature.WebhookSignatureException.class, () -> WebhookSignature.verify(body, header, "whsec_wrong"));
        assertThrows(WebhookSignature.WebhookSignatureException.class, () -> WebhookSignature.verify(body, null, secret));
        Instant later = Instant.now().plusSeconds(301);
        assertThrows(WebhookSignature.WebhookSignatureException.class,
                () -> WebhookSignature.verify(body, header, secret, WebhookSignature.DEFAULT_TOLERANCE, later));
        assertEquals(WebhookEvent.TypeEnum.JOB_SUCCEEDED, WebhookSignature.verify(body, header, secret, Duration.ofSeconds(400), later).getType());
    }

    @Test
    void answers429And503AreSentAgainAfterRetryAfter() throws Exception {
        List<Long> seen = new CopyOnWriteArrayList<>();
        HttpServer busy = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        busy.createContext("/", exchange -> {
            seen.add(System.nanoTime());
            byte[] body = (seen.size() == 1 ? "{\"error\":{\"code\":\"rate_limited\",\"message\":\"slow\"}}"
                    : "{\"object\":\"job\",\"id\":\"job_1\",\"operation\":\"rotate\",\"status\":\"succeeded\"}").getBytes(StandardCharsets.UTF_8);
            if (seen.size() == 1) exchange.getResponseHeaders().add("Retry-After", "1");
            exchange.sendResponseHeaders(seen.size() == 1 ? 429 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        busy.start();
        try {
            String base = "http://127.0.0.1:" + busy.getAddress().getPort() + "/v1";
            assertEquals("job_1", new Docapi(base, "k").job("job_1").getId());
            assertEquals(2, seen.size());
            assertTrue(seen.get(1) - seen.get(0) >= 1_000_000_000L, "waited Retry-After: 1");
            seen.clear();
            DocapiException refused = assertThrows(DocapiException.class, () -> new Docapi(base, "k", java.net.http.HttpClient.newHttpClient(), 0).job("job_1"));
            assertEquals(ErrorCode.RATE_LIMITED, refused.code());
            assertEquals(Duration.ofSeconds(1), refused.retryAfter().orElseThrow());
        } finally {
            busy.stop(0);
        }
    }

    static boolean isPdf(Path p) throws IOException {
        byte[] head = new byte[5];
        try (var in = Files.newInputStream(p)) {
            return in.read(head) == 5 && new String(head, StandardCharsets.US_ASCII).equals("%PDF-");
        }
    }

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) throw new IllegalStateException(name + " is not set (scripts/check-clients sets it)");
        return value;
    }
}
