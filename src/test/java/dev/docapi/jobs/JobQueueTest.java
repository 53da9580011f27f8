package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.TestOperations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The durable queue on one node (issue 15): fair between accounts, every state in the database, passwords sealed.
 * The multi-node behaviour is {@link MultiNodeIT}'s.
 */
@Tag("database")
@Isolated("measures the order in which the node's workers take queued jobs")
class JobQueueTest extends ApiTestBase {
    private static final String PDF = "pdf-text/form-filled-by-acrobat-3p.pdf";
    @Autowired
    JdbcClient db;
    @Autowired
    JobQueue queue;
    @Autowired
    dev.docapi.management.ManagementPort management;
    @Autowired
    dev.docapi.config.DocapiProperties props;

    @Test
    void aQuietAccountsJobRunsBeforeABusyAccountsQueuedJobs() throws Exception {
        String busy = newKey(), quiet = newKey();
        String busyFile = uploadId(busy, corpus(PDF)), quietFile = uploadId(quiet, corpus(PDF));
        List<String> busyJobs = new ArrayList<>();
        for (int i = 0; i < 12; i++) busyJobs.add(post(busy, "/test-sleep", Map.of("file", busyFile, "seconds", 3, "wait", 0)).body().get("id").asString());
        String quietJob = post(quiet, "/test-sleep", Map.of("file", quietFile, "seconds", 1, "wait", 0)).body().get("id").asString();

        JsonNode quietDone = finished(quiet, quietJob);
        Instant quietCreated = Instant.parse(quietDone.get("created_at").asString()), quietStarted = Instant.parse(quietDone.get("started_at").asString());
        int waiting = 0, startedBetween = 0;
        for (String id : busyJobs) {
            Instant started = Instant.parse(finished(busy, id).get("started_at").asString());
            if (started.isAfter(quietCreated)) waiting++;
            if (started.isAfter(quietCreated) && started.isBefore(quietStarted)) startedBetween++;
        }
        // 4 workers, all the busy account's when the quiet job came: first in, first out would start every busy job
        // still waiting (4 or more) before it; the next free worker takes it instead (up to 3 others freed at the same
        // instant may take busy jobs). Timestamps are the service's, so a slow client does not change the count.
        assertThat(waiting).as("busy jobs still waiting when the quiet job came (else this run proves nothing)").isGreaterThanOrEqualTo(4);
        assertThat(startedBetween).as("busy jobs started while the quiet job waited").isLessThanOrEqualTo(3);
    }

    /**
     * Issue 40 item 3: an account holding every worker with long jobs (here blocked until released, as 100-signature
     * verifications held them for minutes) does not make another account's short job wait: it starts within 2 s,
     * on a worker lent back by the busy account. The other account then gets its share and no more while the busy
     * one holds the rest; once the busy one is done, the other, alone, uses every worker.
     */
    @Test
    void anotherAccountsJobStartsWithinTwoSecondsWhileOneAccountsLongJobsHoldEveryWorker() throws Exception {
        int workers = props.workers(), share = queue.share();
        String busy = newKey(), quiet = newKey();
        String busyFile = uploadId(busy, corpus(PDF)), quietFile = uploadId(quiet, corpus("pdf-text/rotated-page-90.pdf"));
        String longJobs = "long-" + UUID.randomUUID(), quietJobs = "quiet-" + UUID.randomUUID();
        List<String> busyIds = new ArrayList<>(), quietIds = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                busyIds.add(post(busy, "/test-block", Map.of("file", busyFile, "key", longJobs, "seconds", 90, "wait", 0)).body().get("id").asString());
            }
            // alone, the busy account uses every worker
            JobDeadlineTest.awaitTrue(() -> TestOperations.blocked(longJobs) == workers, Duration.ofSeconds(20), "the busy account's jobs all run");

            JsonNode rotated = run(quiet, "rotate", Map.of("file", quietFile, "angle", 90, "wait", 60));
            Duration waited = Duration.between(Instant.parse(rotated.get("created_at").asString()), Instant.parse(rotated.get("started_at").asString()));
            assertThat(waited).as("the quiet account's rotate waited").isLessThanOrEqualTo(Duration.ofSeconds(2));
            assertThat(TestOperations.blocked(longJobs)).as("the busy account's jobs still run").isEqualTo(workers);

            // more jobs of the quiet account: it gets its share beside the busy one's, not more
            for (int i = 0; i < workers; i++) {
                quietIds.add(post(quiet, "/test-block", Map.of("file", quietFile, "key", quietJobs, "seconds", 90, "wait", 0)).body().get("id").asString());
            }
            JobDeadlineTest.awaitTrue(() -> TestOperations.blocked(quietJobs) == share, Duration.ofSeconds(10), "the quiet account's share runs");
            Thread.sleep(1500); // two polls of the queue: no more start
            assertThat(TestOperations.blocked(quietJobs)).isEqualTo(share);
            // the metrics show it by account bucket (the last character of the account id), never by account id
            Map<String, Integer> buckets = new java.util.HashMap<>();
            buckets.merge(JobMetrics.bucket(accountId(busy)), workers, Integer::sum);
            buckets.merge(JobMetrics.bucket(accountId(quiet)), share, Integer::sum);
            String metrics = prometheus();
            for (var b : buckets.entrySet()) {
                assertThat(metrics).containsPattern("docapi_jobs_running\\{[^}]*account_bucket=\"" + java.util.regex.Pattern.quote(b.getKey())
                        + "\"[^}]*\\} " + b.getValue() + "\\.0");
            }
            assertThat(metrics).doesNotContain(accountId(busy)).containsPattern("docapi_jobs_wait_seconds_count\\{[^}]*operation=\"rotate\"");

            // the busy account's jobs end: the quiet account, now alone, takes every worker
            TestOperations.release(longJobs);
            JobDeadlineTest.awaitTrue(() -> TestOperations.blocked(quietJobs) == workers, Duration.ofSeconds(10), "the quiet account uses every worker");
        } finally {
            TestOperations.release(longJobs);
            TestOperations.release(quietJobs);
        }
        for (String id : busyIds) assertThat(startedAt(busy, id)).isNotNull();
        for (String id : quietIds) assertThat(startedAt(quiet, id)).isNotNull();
    }

    @Test
    void aJobsPayloadIsSealedAndItsQueueRowIsGoneWhenItEnds() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "protect", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "password", "queue-s3cret-pw"));
        String id = job.get("id").asString();
        String payload = db.sql("SELECT payload FROM jobs WHERE id = ?").param(id).query(String.class).single();
        assertThat(payload).startsWith("v2:").doesNotContain("queue-s3cret-pw");
        String row = db.sql("SELECT CONCAT(input_json, '|', COALESCE(output_json, '')) FROM jobs WHERE id = ?").param(id).query(String.class).single();
        assertThat(row).doesNotContain("queue-s3cret-pw");
        // the row goes as the worker lets go of the job, a moment after the job's record says it ended
        JobDeadlineTest.awaitTrue(() -> db.sql("SELECT COUNT(*) FROM scheduled_tasks WHERE task_instance = ?").param(id).query(Integer.class).single() == 0,
                Duration.ofSeconds(5), "the queue row of " + id + " is gone");
    }

    private String accountId(String key) {
        return accounts.authenticate(key).orElseThrow().id();
    }

    private String prometheus() throws Exception {
        return HTTP.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + management.port() + "/actuator/prometheus")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
    }

    private Instant startedAt(String key, String jobId) throws InterruptedException {
        return Instant.parse(finished(key, jobId).get("started_at").asString());
    }

    /** The job once it has succeeded (it must not fail). */
    private JsonNode finished(String key, String jobId) throws InterruptedException {
        JsonNode job = awaitFinished(key, jobId);
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("succeeded");
        return job;
    }
}
