package dev.docapi.webhooks;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.AccountService;
import dev.docapi.api.Views;
import dev.docapi.config.Ids;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobFinishedEvent;
import dev.docapi.jobs.JobStatus;
import dev.docapi.jobs.JobStore;
import dev.docapi.net.SafeHttpClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import dev.docapi.jobs.JobTracing;
import io.micrometer.observation.Observation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Delivers job webhooks (spec §6). When a job with a {@code webhook_url} finishes, the event {@code {id, type,
 * created_at, data: <Job>}} ({@code id}: an addition, the delivery's id) is written to {@code webhook_deliveries} and attempted at once; a failed attempt (not
 * 2xx, a redirect, no answer) is retried after {@code docapi.webhooks.retry-delays} (30 s, then 5 min). Retries are
 * only ever driven by polling that table, never by timers in memory, so they survive a restart and any node may make
 * them. Each attempt is recorded on the job: {@code webhook: {url, status: pending|delivered|failed, attempts:
 * [{at, status_code, error}]}} (DESIGN §4).
 */
@Service
public class WebhookDispatcher {
    private static final Logger log = LoggerFactory.getLogger(WebhookDispatcher.class);
    private static final MediaType JSON_TYPE = MediaType.get("application/json");
    private final DeliveryStore deliveries;
    private final JobStore jobs;
    private final AccountService accounts;
    private final Views views;
    private final JsonMapper json;
    private final SafeHttpClient http;
    private final WebhookProperties props;
    private final OkHttpClient client;
    private final JobTracing tracing;

    public WebhookDispatcher(DeliveryStore deliveries, JobStore jobs, AccountService accounts, Views views, JsonMapper json,
                             SafeHttpClient http, WebhookProperties props, JobTracing tracing) {
        this.tracing = tracing;
        this.deliveries = deliveries;
        this.jobs = jobs;
        this.accounts = accounts;
        this.views = views;
        this.json = json;
        this.http = http;
        this.props = props;
        // newBuilder keeps the SSRF-safe DNS rule and the no-redirect policy; only the time budget is narrowed.
        this.client = http.client().newBuilder().callTimeout(props.timeout()).readTimeout(props.timeout()).build();
    }

    @EventListener
    public void onJobFinished(JobFinishedEvent event) {
        DeliveryStore.Delivery d = enqueue(event.job());
        if (d != null) Thread.ofVirtual().name("webhook-" + d.jobId()).start(() -> attemptIfClaimed(d, Instant.now()));
    }

    /**
     * One pass over the table: every delivery due at {@code now} is claimed and attempted. A freshly started node (or
     * a test standing in for one) needs nothing else to pick up retries left by a node that stopped.
     *
     * @return how many attempts this pass made
     */
    public int pollOnce(Instant now) {
        int made = 0;
        for (DeliveryStore.Delivery d : deliveries.due(now, 50)) {
            if (attemptIfClaimed(d, now)) made++;
        }
        return made;
    }

    /** Finished jobs whose webhook is pending without a delivery row get one (at start and once a minute: {@link WebhookPolling}). */
    public void recoverLost() {
        Instant now = Instant.now();
        for (String id : deliveries.jobsMissingDelivery(now.minusSeconds(10), now.minus(Duration.ofDays(1)))) {
            jobs.find(id).ifPresent(this::enqueue);
        }
    }

    private DeliveryStore.Delivery enqueue(Job job) {
        if (job.webhook() == null || !job.status().finished() || !"pending".equals(job.webhook().path("status").asString(""))) return null;
        // the event's id is the delivery's (webhook-id), the same on every attempt, so a receiver can drop a retry
        String id = Ids.newId("whd_");
        ObjectNode event = json.createObjectNode();
        event.put("id", id);
        event.put("type", job.status() == JobStatus.SUCCEEDED ? "job.succeeded" : "job.failed");
        event.put("created_at", Instant.now().toString());
        event.set("data", views.job(job));
        return deliveries.insert(id, job.id(), job.accountId(), job.webhook().path("url").asString(), json.writeValueAsString(event), Instant.now());
    }

    private boolean attemptIfClaimed(DeliveryStore.Delivery d, Instant now) {
        Duration lease = props.timeout().plusSeconds(60);
        if (!deliveries.claim(d, now.plus(lease))) return false;
        try {
            attempt(d);
        } catch (RuntimeException e) {
            log.warn("webhook delivery {} for job {} could not be recorded; retried after the lease", d.id(), d.jobId(), e);
        }
        return true;
    }

    /**
     * One attempt, observed as {@code docapi.webhook.deliveries} (issue 24): a span in the job's trace, and a timer
     * tagged {@code attempt} (1, 2, ...) and {@code outcome} (delivered, retry, failed).
     */
    private void attempt(DeliveryStore.Delivery d) {
        int attempts = d.attempts() + 1;
        Observation observation = tracing.observe("docapi.webhook.deliveries", "webhook delivery", jobs.traceParent(d.jobId()).orElse(null))
                .lowCardinalityKeyValue("attempt", String.valueOf(attempts))
                .highCardinalityKeyValue("job.id", d.jobId())
                .start();
        String status = "pending";
        try (Observation.Scope scope = observation.openScope()) {
            status = attempt(d, attempts);
        } finally {
            observation.lowCardinalityKeyValue("outcome", status.equals("pending") ? "retry" : status).stop();
        }
    }

    /** @return the delivery's status after this attempt: delivered, failed (given up) or pending */
    private String attempt(DeliveryStore.Delivery d, int attempts) {
        Account account = accounts.findById(d.accountId()).orElse(null);
        Outcome outcome = account == null ? new Outcome(null, "the account no longer exists") : send(account, d.url(), d.payload(), d.id());
        Integer statusCode = outcome.statusCode();
        String error = outcome.error();
        List<Duration> delays = props.retryDelays();
        boolean delivered = error == null;
        boolean giveUp = !delivered && attempts > delays.size();
        String status = delivered ? "delivered" : giveUp ? "failed" : "pending";
        record(d.jobId(), Instant.now(), statusCode, error, status);
        if (delivered || giveUp) {
            deliveries.delete(d.id());
            if (giveUp) log.info("webhook for job {} failed after {} attempts: {}", d.jobId(), attempts, error);
        } else {
            deliveries.reschedule(d.id(), attempts, Instant.now().plus(delays.get(attempts - 1)));
        }
        return status;
    }

    /** One POST of an event: the receiver's HTTP status (null without an answer) and what went wrong (null when delivered). */
    public record Outcome(Integer statusCode, String error) {
    }

    /**
     * POSTs {@code payload} to {@code url} once, signed with the account's secret ({@link WebhookSignature}: the spec's
     * header and Standard Webhooks'), through
     * the safe client: public addresses only (unless {@code DOCAPI_ALLOW_PRIVATE_URLS}), no redirect followed.
     */
    public Outcome send(Account account, String url, String payload, String deliveryId) {
        String refused = http.refuse(url, true);
        if (refused != null) return new Outcome(null, "the URL is refused: " + refused);
        byte[] body = payload.getBytes(StandardCharsets.UTF_8);
        long t = Instant.now().getEpochSecond();
        Request request = new Request.Builder().url(url)
                .header("User-Agent", "docapi-webhooks/1.0")
                .header(WebhookSignature.HEADER, WebhookSignature.header(account.webhookSecret(), t, body))
                .header(WebhookSignature.ID_HEADER, deliveryId)
                .header(WebhookSignature.TIMESTAMP_HEADER, Long.toString(t))
                .header(WebhookSignature.STANDARD_HEADER, WebhookSignature.standard(account.webhookSecret(), deliveryId, t, body))
                .post(RequestBody.create(body, JSON_TYPE)).build();
        try (Response r = client.newCall(request).execute()) {
            if (r.isRedirect() || (r.code() >= 300 && r.code() < 400)) {
                return new Outcome(r.code(), "redirect to " + r.header("Location", "(no Location)") + " not followed");
            }
            return new Outcome(r.code(), r.isSuccessful() ? null : "the receiver answered HTTP " + r.code());
        } catch (IOException e) {
            return new Outcome(null, e.getCause() instanceof SafeHttpClient.RefusedAddressException || e instanceof SafeHttpClient.RefusedAddressException
                    ? "the URL is refused: " + e.getMessage()
                    : "no answer: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    /**
     * Sends a test {@code job.succeeded} event (developer area) to {@code url}, once, not retried: the shape of a
     * real one, about a made-up job {@code job_test_...} of the account that exists nowhere else.
     */
    public Outcome sendTest(Account account, String url) {
        Instant now = Instant.now();
        Job sample = new Job(Ids.newId("job_test_"), account.id(), "rotate", JobStatus.SUCCEEDED, json.createObjectNode(),
                json.createObjectNode(), null, null, null, null, now, now, now);
        String id = Ids.newId("whd_test_");
        ObjectNode event = json.createObjectNode();
        event.put("id", id);
        event.put("type", "job.succeeded");
        event.put("created_at", now.toString());
        event.set("data", views.job(sample));
        return send(account, url, json.writeValueAsString(event), id);
    }

    /** Appends the attempt to the job's {@code webhook} record and sets its status. */
    private void record(String jobId, Instant at, Integer statusCode, String error, String status) {
        jobs.find(jobId).ifPresent(job -> {
            ObjectNode webhook = job.webhook() == null ? json.createObjectNode() : job.webhook().deepCopy();
            ArrayNode attempts = webhook.has("attempts") && webhook.get("attempts").isArray() ? (ArrayNode) webhook.get("attempts") : webhook.putArray("attempts");
            ObjectNode a = attempts.addObject();
            a.put("at", at.toString());
            if (statusCode == null) a.putNull("status_code");
            else a.put("status_code", statusCode);
            if (error == null) a.putNull("error");
            else a.put("error", error);
            webhook.put("status", status);
            jobs.setWebhook(jobId, webhook);
        });
    }
}
