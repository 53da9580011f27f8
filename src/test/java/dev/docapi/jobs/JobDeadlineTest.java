package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.operations.OperationRegistry;
import dev.docapi.operations.OperationSpec;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.TestOperations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Every job has a deadline (issue 40 item 1): work past it is stopped and abandoned, the job fails at once saying so,
 * nothing is counted, and its worker takes the next job. The work here is {@code test-block}, which ignores
 * interrupts as in-JVM parsing (DSS, PDFBox) does: only abandonment can end its job.
 */
@Isolated("holds the node's workers and changes its deadline")
class JobDeadlineTest extends ApiTestBase {
    private static final String PDF = "pdf-text/rotated-page-90.pdf";
    @Autowired
    JobRunner runner;
    @Autowired
    dev.docapi.config.DocapiProperties props;
    @Autowired
    OperationRegistry registry;

    @Test
    void aJobPastItsDeadlineFailsAtOnceFreesItsWorkerAndIsNotCounted() throws Exception {
        String key = newKey();
        String file = uploadId(key, corpus(PDF));
        long usedBefore = get(key, "/usage").body().path("operations").path("used").asLong();
        String stuck = "deadline-" + UUID.randomUUID();
        Duration standard = runner.deadline();
        JsonNode failed;
        try {
            runner.setDeadline(Duration.ofSeconds(3));
            String id = post(key, "/test-block", Map.of("file", file, "key", stuck, "seconds", 120, "wait", 0)).body().get("id").asString();
            failed = awaitFinished(key, id, Duration.ofSeconds(30));
        } finally {
            runner.setDeadline(standard);
        }
        try {
            assertThat(failed.get("status").asString()).as(failed.toString()).isEqualTo("failed");
            assertThat(failed.path("error").path("code").asString()).isEqualTo("internal_error");
            assertThat(failed.path("error").path("message").asString())
                    .contains("needed more than 3 s").contains("DOCAPI_JOB_DEADLINE").contains("not counted");
            // it failed at its deadline, not when the work ended: the work is still blocked
            Duration ran = Duration.between(Instant.parse(failed.get("started_at").asString()), Instant.parse(failed.get("finished_at").asString()));
            assertThat(ran).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(8));
            assertThat(TestOperations.blocked(stuck)).as("the abandoned work still runs").isEqualTo(1);
            assertThat(get(key, "/usage").body().path("operations").path("used").asLong()).isEqualTo(usedBefore);

            // its worker is free: a lone account's jobs take every worker of the node beside the abandoned work
            String other = newKey(), otherFile = uploadId(other, corpus(PDF)), next = "next-" + UUID.randomUUID();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < props.workers(); i++) {
                ids.add(post(other, "/test-block", Map.of("file", otherFile, "key", next, "seconds", 60, "wait", 0)).body().get("id").asString());
            }
            awaitTrue(() -> TestOperations.blocked(next) == props.workers(), Duration.ofSeconds(20), "every worker runs a job of the next account");
            assertThat(TestOperations.blocked(stuck)).isEqualTo(1);
            TestOperations.release(next);
            for (String id : ids) assertThat(awaitFinished(other, id, Duration.ofSeconds(30)).get("status").asString()).isEqualTo("succeeded");
        } finally {
            TestOperations.release(stuck);
        }
        // released, the abandoned work ends and leaves nothing: no output, no count
        awaitTrue(() -> TestOperations.blocked(stuck) == 0, Duration.ofSeconds(10), "the abandoned work ends once released");
        Thread.sleep(500);
        assertThat(get(key, "/usage").body().path("operations").path("used").asLong()).isEqualTo(usedBefore);
        JsonNode after = get(key, "/jobs/" + failed.get("id").asString()).body();
        assertThat(after.get("status").asString()).isEqualTo("failed");
        assertThat(after.path("output").path("files").size()).isZero();
    }

    /** An engine process (run through ProcessRunner, in the sandbox) running at the deadline is killed with its job. */
    @Test
    void anEngineProcessRunningAtTheDeadlineIsKilledWithItsJob() throws Exception {
        String key = newKey();
        String file = uploadId(key, corpus(PDF));
        int tag = 100_000 + new java.util.Random().nextInt(900_000);
        String command = "/bin/sleep 90." + tag;
        Duration standard = runner.deadline();
        JsonNode failed;
        try {
            runner.setDeadline(Duration.ofSeconds(3));
            String id = post(key, "/test-process", Map.of("file", file, "tag", tag, "wait", 0)).body().get("id").asString();
            awaitTrue(() -> !processes(command).isEmpty(), Duration.ofSeconds(10), "the engine process runs");
            failed = awaitFinished(key, id, Duration.ofSeconds(30));
        } finally {
            runner.setDeadline(standard);
        }
        assertThat(failed.get("status").asString()).as(failed.toString()).isEqualTo("failed");
        assertThat(failed.path("error").path("message").asString()).contains("needed more than 3 s").contains("DOCAPI_JOB_DEADLINE");
        Duration ran = Duration.between(Instant.parse(failed.get("started_at").asString()), Instant.parse(failed.get("finished_at").asString()));
        assertThat(ran).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(8));
        awaitTrue(() -> processes(command).isEmpty(), Duration.ofSeconds(5), "the engine process is gone");
    }

    /** This JVM's live descendant processes whose command line ends with {@code command}. */
    private static List<ProcessHandle> processes(String command) {
        return ProcessHandle.current().descendants().filter(p -> p.info().commandLine().orElse("").endsWith(command)).toList();
    }

    @Test
    void operationsThatOcrWholeDocumentsMayRunLonger() {
        for (String op : List.of("ocr", "extract-text", "convert")) {
            assertThat(registry.get(op).spec().deadline()).as(op).isEqualTo(OperationSpec.OCR_DEADLINE);
        }
        assertThat(registry.get("rotate").spec().deadline()).isNull();
        Duration standard = Duration.ofMinutes(15);
        assertThat(dev.docapi.operations.OperationJobs.longer(OperationSpec.OCR_DEADLINE, standard)).isEqualTo(Duration.ofHours(3));
        // an operator's longer DOCAPI_JOB_DEADLINE wins over a declared one
        assertThat(dev.docapi.operations.OperationJobs.longer(OperationSpec.OCR_DEADLINE, Duration.ofHours(5))).isEqualTo(Duration.ofHours(5));
        assertThat(dev.docapi.operations.OperationJobs.longer(null, standard)).isEqualTo(standard);
        assertThat(JobRunner.human(Duration.ofMinutes(15))).isEqualTo("15 min");
        assertThat(JobRunner.human(Duration.ofHours(3))).isEqualTo("3 h");
        assertThat(JobRunner.human(Duration.ofSeconds(20))).isEqualTo("20 s");
    }

    private JsonNode awaitFinished(String key, String id, Duration limit) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        JsonNode job = get(key, "/jobs/" + id).body();
        while (!job.get("status").asString().equals("succeeded") && !job.get("status").asString().equals("failed")) {
            if (System.nanoTime() > end) throw new AssertionError("job " + id + " did not finish within " + limit + ": " + job);
            Thread.sleep(100);
            job = get(key, "/jobs/" + id).body();
        }
        return job;
    }

    static void awaitTrue(BooleanSupplier condition, Duration limit, String what) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) throw new AssertionError("not within " + limit + ": " + what);
            Thread.sleep(50);
        }
    }
}
