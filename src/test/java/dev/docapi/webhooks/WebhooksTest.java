package dev.docapi.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.docapi.accounts.Account;
import dev.docapi.accounts.AccountService;
import dev.docapi.api.Views;
import dev.docapi.jobs.JobStore;
import dev.docapi.net.SafeHttpClient;
import dev.docapi.support.ApiTestBase;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Webhooks (spec §6) delivered over real HTTP to a receiver on loopback (allowed by the test setting
 * {@code DOCAPI_ALLOW_PRIVATE_URLS=true}); retry delays are 2 s then 1 s in tests (src/test/resources/config). The
 * classes beside it share the node's workers, so a job and its deliveries are awaited up to {@link #AWAIT} (a bound on
 * "it happens", not on the machine's speed) and a delay is only bounded from below.
 */
@Tag("database")
class WebhooksTest extends ApiTestBase {
    private static final String FOUR = "pdf-text/pdflatex-4-pages-objstm.pdf";
    private static final Duration AWAIT = Duration.ofMinutes(2);

    @Autowired DeliveryStore deliveries;
    @Autowired JobStore jobs;
    @Autowired AccountService accountService;
    @Autowired dev.docapi.jobs.JobTracing tracing;
    @Autowired Views views;
    @Autowired JsonMapper json;
    @Autowired SafeHttpClient http;
    @Autowired WebhookProperties props;
    @Autowired JdbcClient db;

    private HttpServer server;

    /** One request the receiver got: its path, body bytes, signature and delivery id headers and arrival time. */
    record Received(String path, byte[] body, String signature, String deliveryId, Instant at) {
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();

    /** Starts a receiver on loopback answering each POST /hook with the status {@code statuses} gives. */
    private String receiver(IntSupplier statuses) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(new Received(exchange.getRequestURI().getPath(), body, exchange.getRequestHeaders().getFirst("Service-Signature"),
                    exchange.getRequestHeaders().getFirst("webhook-id"), Instant.now()));
            int status = exchange.getRequestURI().getPath().equals("/hook") ? statuses.getAsInt() : 200;
            if (status == 302) exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + server.getAddress().getPort() + "/elsewhere");
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    /** The receiver's side, written from the spec alone: HMAC-SHA256 over "t.body", constant-time compare, 300 s. */
    static boolean verify(String secret, String header, byte[] body, Instant now) throws Exception {
        Matcher m = Pattern.compile("^t=(\\d+),v1=([0-9a-f]{64})$").matcher(header == null ? "" : header);
        if (!m.matches()) return false;
        long t = Long.parseLong(m.group(1));
        if (Math.abs(now.getEpochSecond() - t) > 300) return false;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] signed = new byte[m.group(1).length() + 1 + body.length];
        System.arraycopy((m.group(1) + ".").getBytes(StandardCharsets.US_ASCII), 0, signed, 0, m.group(1).length() + 1);
        System.arraycopy(body, 0, signed, m.group(1).length() + 1, body.length);
        byte[] expected = mac.doFinal(signed);
        StringBuilder hex = new StringBuilder();
        for (byte b : expected) hex.append(String.format("%02x", b));
        return MessageDigest.isEqual(hex.toString().getBytes(StandardCharsets.US_ASCII), m.group(2).getBytes(StandardCharsets.US_ASCII));
    }

    private Account account(String key) {
        return accountService.authenticate(key).orElseThrow();
    }

    private JsonNode awaitWebhook(String key, String jobId, String status) throws InterruptedException {
        long end = System.nanoTime() + AWAIT.toNanos();
        JsonNode job = null;
        while (System.nanoTime() < end) {
            job = get(key, "/jobs/" + jobId).body();
            if (job.at("/webhook/status").asString("").equals(status)) return job;
            Thread.sleep(100);
        }
        throw new AssertionError("webhook of " + jobId + " did not become " + status + ": " + job);
    }

    @Test
    void aSucceededJobIsPostedWithAValidSignatureAndTheAttemptIsRecorded() throws Exception {
        String url = receiver(() -> 200);
        String key = newKey();
        Response r = post(key, "/rotate", Map.of("file", uploadId(key, corpus(FOUR)), "angle", 90, "webhook_url", url));
        assertThat(r.status()).isEqualTo(200);
        String jobId = r.body().get("id").asString();
        JsonNode job = awaitWebhook(key, jobId, "delivered");

        assertThat(received).hasSize(1);
        Received got = received.getFirst();
        assertThat(verify(account(key).webhookSecret(), got.signature(), got.body(), Instant.now())).isTrue();
        assertThat(verify("whsec_wrong", got.signature(), got.body(), Instant.now())).isFalse();
        assertThat(verify(account(key).webhookSecret(), got.signature(), got.body(), Instant.now().plusSeconds(301))).as("stale timestamp").isFalse();
        JsonNode event = JSON.readTree(got.body());
        assertThat(event.get("type").asString()).isEqualTo("job.succeeded");
        assertThat(Instant.parse(event.get("created_at").asString())).isBefore(Instant.now().plusSeconds(1));
        assertThat(event.at("/data/object").asString()).isEqualTo("job");
        assertThat(event.at("/data/id").asString()).isEqualTo(jobId);
        assertThat(event.at("/data/status").asString()).isEqualTo("succeeded");
        assertThat(event.at("/data/output/files/0/download_url").asString()).contains("e=").contains("t=");

        assertThat(job.at("/webhook/url").asString()).isEqualTo(url);
        assertThat(job.at("/webhook/attempts").size()).isEqualTo(1);
        assertThat(job.at("/webhook/attempts/0/status_code").asInt()).isEqualTo(200);
        assertThat(job.at("/webhook/attempts/0/error").isNull()).isTrue();
        assertThat(job.at("/webhook/attempts/0/at").asString()).isNotBlank();
    }

    @Test
    void aFailedJobIsPostedAsJobFailedAndARotatedSecretSignsTheNextOne() throws Exception {
        String url = receiver(() -> 200);
        String key = newKey();
        String file = uploadId(key, corpus(FOUR));
        String oldSecret = account(key).webhookSecret();
        Response r = post(key, "/test-fail", Map.of("file", file, "webhook_url", url));
        assertThat(r.status()).isEqualTo(502);
        awaitWebhook(key, r.body().at("/job/id").asString(), "delivered");
        JsonNode event = JSON.readTree(received.getFirst().body());
        assertThat(event.get("type").asString()).isEqualTo("job.failed");
        assertThat(event.at("/data/error/code").asString()).isEqualTo("internal_error");

        String newSecret = accountService.rotateWebhookSecret(account(key).id());
        Response again = post(key, "/rotate", Map.of("file", file, "angle", 180, "webhook_url", url));
        awaitWebhook(key, again.body().get("id").asString(), "delivered");
        Received second = received.get(1);
        assertThat(verify(newSecret, second.signature(), second.body(), Instant.now())).isTrue();
        assertThat(verify(oldSecret, second.signature(), second.body(), Instant.now())).isFalse();
    }

    @Test
    void aReceiverAnswering500ThenIsRetriedAfterTheDelayAndBothAttemptsAreRecorded() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String url = receiver(() -> calls.incrementAndGet() == 1 ? 500 : 200);
        String key = newKey();
        Response r = post(key, "/rotate", Map.of("file", uploadId(key, corpus(FOUR)), "angle", 90, "webhook_url", url));
        JsonNode job = awaitWebhook(key, r.body().get("id").asString(), "delivered");
        assertThat(job.at("/webhook/attempts").size()).isEqualTo(2);
        assertThat(job.at("/webhook/attempts/0/status_code").asInt()).isEqualTo(500);
        assertThat(job.at("/webhook/attempts/0/error").asString()).contains("500");
        assertThat(job.at("/webhook/attempts/1/status_code").asInt()).isEqualTo(200);
        assertThat(received).hasSize(2);
        assertThat(Duration.between(received.get(0).at(), received.get(1).at())).isGreaterThanOrEqualTo(props.retryDelays().getFirst().minusMillis(50));
        assertThat(received.get(1).body()).as("the same event is re-sent").isEqualTo(received.get(0).body());
        assertThat(received.get(0).deliveryId()).as("webhook-id").startsWith("whd_");
        assertThat(received.get(1).deliveryId()).as("the same delivery id on the retry").isEqualTo(received.get(0).deliveryId());
        assertThat(verify(account(key).webhookSecret(), received.get(1).signature(), received.get(1).body(), Instant.now())).isTrue();
        assertThat(deliveries.forJob(r.body().get("id").asString())).as("done: nothing left to deliver").isEmpty();
    }

    @Test
    void aRedirectIsNotFollowedAndAfterTheRetriesTheWebhookIsFailed() throws Exception {
        String url = receiver(() -> 302);
        String key = newKey();
        Response r = post(key, "/rotate", Map.of("file", uploadId(key, corpus(FOUR)), "angle", 90, "webhook_url", url));
        JsonNode job = awaitWebhook(key, r.body().get("id").asString(), "failed");
        assertThat(job.at("/webhook/attempts").size()).isEqualTo(1 + props.retryDelays().size());
        for (JsonNode a : job.at("/webhook/attempts")) {
            assertThat(a.get("status_code").asInt()).isEqualTo(302);
            assertThat(a.get("error").asString()).contains("not followed");
        }
        assertThat(received).extracting(Received::path).containsOnly("/hook");
    }

    /**
     * A restart between attempts. Retries live only in the {@code webhook_deliveries} table; nothing in memory
     * schedules them. After the first attempt fails, the test moves the retry's due time past any moment the
     * running service would look (standing for "the process is down when the retry falls due"), then builds a NEW
     * {@link WebhookDispatcher} from the beans a restarted process would have (nothing carried over) and lets it
     * make one pass at a later clock. That fresh instance finds the retry in the table and delivers it.
     */
    @Test
    void aPersistedRetryIsPickedUpByAFreshDispatcherAfterARestart() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String url = receiver(() -> calls.incrementAndGet() == 1 ? 503 : 204);
        String key = newKey();
        Response r = post(key, "/rotate", Map.of("file", uploadId(key, corpus(FOUR)), "angle", 90, "webhook_url", url));
        String jobId = r.body().get("id").asString();
        long end = System.nanoTime() + AWAIT.toNanos();
        while (deliveries.forJob(jobId).stream().noneMatch(d -> d.attempts() == 1) && System.nanoTime() < end) Thread.sleep(20);
        Instant later = Instant.now().plus(Duration.ofHours(1));
        int moved = db.sql("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE job_id = ? AND attempts = 1")
                .params(later.toEpochMilli(), jobId).update();
        assertThat(moved).as("the failed first attempt left a persisted retry").isEqualTo(1);
        Thread.sleep(props.retryDelays().getFirst().toMillis() + 500);
        assertThat(received).as("the running service does not retry before the moved due time").hasSize(1);
        assertThat(get(key, "/jobs/" + jobId).body().at("/webhook/status").asString()).isEqualTo("pending");

        WebhookDispatcher restarted = new WebhookDispatcher(new DeliveryStore(db), jobs, accountService, views, json, http, props, tracing);
        // at least this retry: other classes' deliveries falling due within the hour are sent by the same pass
        assertThat(restarted.pollOnce(later.plusSeconds(1))).isPositive();

        JsonNode job = awaitWebhook(key, jobId, "delivered");
        assertThat(job.at("/webhook/attempts").size()).isEqualTo(2);
        assertThat(job.at("/webhook/attempts/0/status_code").asInt()).isEqualTo(503);
        assertThat(job.at("/webhook/attempts/1/status_code").asInt()).isEqualTo(204);
        assertThat(received).hasSize(2);
        assertThat(verify(account(key).webhookSecret(), received.get(1).signature(), received.get(1).body(), Instant.now())).isTrue();
    }

    /**
     * A job failed as {@code interrupted} while the service started publishes its event before any listener exists;
     * the sweep finds finished jobs whose webhook is pending without a delivery and sends it.
     */
    @Test
    void aJobThatFinishedWithoutItsEventStillGetsItsWebhook() throws Exception {
        String url = receiver(() -> 200);
        String key = newKey();
        Account a = account(key);
        tools.jackson.databind.node.ObjectNode input = json.createObjectNode();
        input.putArray("files").add(uploadId(key, corpus(FOUR)));
        input.putObject("options").put("angle", 90);
        dev.docapi.jobs.Job job = jobs.create(dev.docapi.config.Ids.newId("job_"), a.id(), "rotate", input, null, url, null);
        jobs.markFailed(job.id(), dev.docapi.core.ErrorCode.INTERRUPTED, "the service restarted while this job was queued or running; submit it again");
        db.sql("UPDATE jobs SET finished_at = ? WHERE id = ?").params(Instant.now().minusSeconds(30).toEpochMilli(), job.id()).update();
        new WebhookDispatcher(new DeliveryStore(db), jobs, accountService, views, json, http, props, tracing).recoverLost();

        JsonNode delivered = awaitWebhook(key, job.id(), "delivered");
        assertThat(delivered.at("/webhook/attempts").size()).isEqualTo(1);
        JsonNode event = JSON.readTree(received.getFirst().body());
        assertThat(event.get("type").asString()).isEqualTo("job.failed");
        assertThat(event.at("/data/error/code").asString()).isEqualTo("interrupted");
    }

    @Test
    void aWebhookUrlOnAPortOtherThan80Or443IsRefusedAtOnceWhenPrivateUrlsAreOff() {
        SafeHttpClient strict = new SafeHttpClient(new dev.docapi.config.DocapiProperties(0, DATA_DIR, null, null, null, null, 1, false, java.time.Duration.ofSeconds(1), 0, 0, null));
        assertThat(strict.refuse("https://example.com:8443/hook", true)).contains("80 and 443");
        assertThat(strict.refuse("ftp://example.com/hook", true)).isNotNull();
        assertThat(strict.refuse("http://localhost/hook", true)).contains("not a public address", "DOCAPI_ALLOW_PRIVATE_URLS=true");
        assertThat(strict.refuse("https://example.com:8443/hook", true)).contains("DOCAPI_ALLOW_PRIVATE_URLS=true");
        assertThat(strict.refuse("https://example.com/hook", true)).isNull();
        String key = newKey();
        Response r = post(key, "/rotate", Map.of("file", uploadId(key, corpus(FOUR)), "angle", 90, "webhook_url", "not a url"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }
}
