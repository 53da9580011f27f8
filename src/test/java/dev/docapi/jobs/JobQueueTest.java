package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    @Test
    void aQuietAccountsJobRunsBeforeABusyAccountsQueuedJobs() throws Exception {
        String busy = newKey(), quiet = newKey();
        String busyFile = uploadId(busy, corpus(PDF)), quietFile = uploadId(quiet, corpus(PDF));
        List<String> busyJobs = new ArrayList<>();
        for (int i = 0; i < 12; i++) busyJobs.add(post(busy, "/test-sleep", Map.of("file", busyFile, "seconds", 2, "wait", 0)).body().get("id").asString());
        String quietJob = post(quiet, "/test-sleep", Map.of("file", quietFile, "seconds", 1, "wait", 0)).body().get("id").asString();

        Instant quietStarted = startedAt(quiet, quietJob);
        int busyBefore = 0;
        for (String id : busyJobs) if (startedAt(busy, id).isBefore(quietStarted)) busyBefore++;
        // 4 workers: the busy account's first 4 run, then the quiet job takes one of the next free workers instead of
        // waiting behind the busy account's 8 queued jobs (first in, first out would start all 12 before it)
        assertThat(busyBefore).as("busy account's jobs started before the quiet account's one").isLessThanOrEqualTo(7);
    }

    @Test
    void aJobsPayloadIsSealedAndItsQueueRowIsGoneWhenItEnds() {
        String key = newKey();
        JsonNode job = run(key, "protect", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "password", "queue-s3cret-pw"));
        String id = job.get("id").asString();
        String payload = db.sql("SELECT payload FROM jobs WHERE id = ?").param(id).query(String.class).single();
        assertThat(payload).startsWith("v2:").doesNotContain("queue-s3cret-pw");
        String row = db.sql("SELECT CONCAT(input_json, '|', COALESCE(output_json, '')) FROM jobs WHERE id = ?").param(id).query(String.class).single();
        assertThat(row).doesNotContain("queue-s3cret-pw");
        assertThat(db.sql("SELECT COUNT(*) FROM scheduled_tasks WHERE task_instance = ?").param(id).query(Integer.class).single()).isZero();
    }

    private Instant startedAt(String key, String jobId) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            JsonNode job = get(key, "/jobs/" + jobId).body();
            if (job.get("status").asString().equals("succeeded")) return Instant.parse(job.get("started_at").asString());
            assertThat(job.get("status").asString()).as(job.toString()).isIn("queued", "running");
            Thread.sleep(100);
        }
        throw new AssertionError("job " + jobId + " did not finish in 60 s");
    }
}
