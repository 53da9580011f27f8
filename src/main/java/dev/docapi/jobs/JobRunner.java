package dev.docapi.jobs;

import dev.docapi.api.ApiException;
import dev.docapi.api.ErrorCode;
import dev.docapi.config.DocapiProperties;
import dev.docapi.files.StoredFile;
import dev.docapi.operations.OperationFailure;
import dev.docapi.operations.OperationResult;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs jobs on this node: at most {@code DOCAPI_WORKERS} at once (the rest stay {@code queued}), each on a virtual
 * thread. Answers {@code wait} (spec §3), keeps a heartbeat on its jobs, fails with {@code interrupted} the jobs that
 * were queued or running when a node stopped, and deletes job records after 7 days.
 */
@Service
public class JobRunner {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    private static final Duration STALE = Duration.ofSeconds(60);

    private final JobStore store;
    private final JsonMapper json;
    private final ApplicationEventPublisher events;
    private final FairSlots slots;
    private final String node;
    private final Map<String, CompletableFuture<Void>> running = new ConcurrentHashMap<>();

    public JobRunner(JobStore store, JsonMapper json, ApplicationEventPublisher events, DocapiProperties props, Environment env) throws Exception {
        this.store = store;
        this.json = json;
        this.events = events;
        this.slots = new FairSlots(props.workers());
        this.node = InetAddress.getLocalHost().getHostName() + ":" + props.port() + ":" + props.dataDir().toAbsolutePath().normalize();
        // The admin CLI shares the database with a running service: it must not touch that service's jobs.
        if (!env.matchesProfiles("admin")) recoverInterrupted();
    }

    /** This node's id, recorded on the jobs it runs. */
    public String node() {
        return node;
    }

    /** Creates a queued job and starts it when a worker slot is free and its account's turn has come ({@link FairSlots}). */
    public Job submit(String accountId, String operation, ObjectNode input, String webhookUrl, JobTask task) {
        Job job = store.create(accountId, operation, input, webhookUrl, node);
        CompletableFuture<Void> done = new CompletableFuture<>();
        running.put(job.id(), done);
        Thread.ofVirtual().name("job-" + job.id()).start(() -> execute(job.id(), accountId, task, done));
        return job;
    }

    /**
     * Waits up to {@code seconds} for the job to finish and returns its current record (finished or not).
     * Jobs of other nodes are polled in the database.
     */
    public Job await(Job job, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CompletableFuture<Void> done = running.get(job.id());
        if (done != null) {
            try {
                done.get(seconds, TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException ignored) {
                // answered with the job as it is now
            }
            return store.find(job.id()).orElse(job);
        }
        Job current = store.find(job.id()).orElse(job);
        while (!current.status().finished() && System.nanoTime() < deadline) {
            Thread.sleep(200);
            current = store.find(job.id()).orElse(current);
        }
        return current;
    }

    private void execute(String jobId, String accountId, JobTask task, CompletableFuture<Void> done) {
        boolean acquired = false;
        try {
            slots.acquire(accountId);
            acquired = true;
            if (!store.markRunning(jobId)) return;
            Progress progress = new Progress(jobId);
            JobTask.Outcome outcome = task.run(jobId, progress);
            store.markSucceeded(jobId, outputJson(outcome));
        } catch (OperationFailure e) {
            log.info("job {} failed: {}", jobId, e.getMessage(), e.getCause());
            store.markFailed(jobId, e.code(), e.getMessage(), e.partial() == null ? null : outputJson(new JobTask.Outcome(java.util.List.of(), e.partial())));
        } catch (ApiException e) {
            log.info("job {} failed: {}", jobId, e.getMessage());
            store.markFailed(jobId, e.code(), e.getMessage());
        } catch (InterruptedException e) {
            store.markFailed(jobId, ErrorCode.INTERRUPTED, "the service stopped while this job was running; submit it again");
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            log.error("job {} failed unexpectedly", jobId, e);
            store.markFailed(jobId, ErrorCode.INTERNAL_ERROR, "the operation failed unexpectedly; it is safe to retry");
        } finally {
            if (acquired) slots.release(accountId);
            running.remove(jobId);
            done.complete(null);
            store.find(jobId).filter(j -> j.status().finished()).ifPresent(j -> events.publishEvent(new JobFinishedEvent(j)));
        }
    }

    private ObjectNode outputJson(JobTask.Outcome outcome) {
        ObjectNode out = json.createObjectNode();
        ArrayNode files = out.putArray("files");
        for (StoredFile f : outcome.files()) files.add(f.id());
        OperationResult r = outcome.result();
        if (r.text() != null) out.put("text", r.text());
        if (r.data() != null) out.set("data", r.data());
        if (r.note() != null) out.put("note", r.note());
        if (r.model() != null) out.put("model", r.model());
        if (r.steps() != null) out.set("steps", r.steps());
        return out;
    }

    /** Jobs that were queued or running when this node (or a node that stopped beating) went away. */
    private void recoverInterrupted() {
        for (String id : store.orphaned(node, Instant.now().minus(STALE))) {
            store.markFailed(id, ErrorCode.INTERRUPTED, "the service restarted while this job was queued or running; submit it again");
            store.find(id).ifPresent(j -> events.publishEvent(new JobFinishedEvent(j)));
            log.info("job {} marked interrupted", id);
        }
    }

    @Scheduled(fixedDelay = 15_000, initialDelay = 15_000)
    void heartbeat() {
        store.heartbeat(node);
    }

    @Scheduled(fixedDelay = 60_000, initialDelay = 60_000)
    void reapStale() {
        for (String id : store.orphaned("-", Instant.now().minus(STALE))) {
            if (running.containsKey(id)) continue;
            store.markFailed(id, ErrorCode.INTERRUPTED, "the node running this job stopped; submit it again");
            store.find(id).ifPresent(j -> events.publishEvent(new JobFinishedEvent(j)));
        }
    }

    @Scheduled(fixedDelay = 3_600_000, initialDelay = 30_000)
    void deleteOldJobs() {
        int n = store.deleteCreatedBefore(Instant.now().minus(Duration.ofDays(7)));
        if (n > 0) log.info("deleted {} job records older than 7 days", n);
    }

    /** Writes progress to the job at most twice a second (and always the last step). */
    private final class Progress implements dev.docapi.operations.OperationContext.ProgressListener {
        private final String jobId;
        private long lastWrite;

        Progress(String jobId) {
            this.jobId = jobId;
        }

        @Override
        public synchronized void progress(int done, int total, String unit) {
            long now = System.nanoTime();
            if (done < total && now - lastWrite < 500_000_000L) return;
            lastWrite = now;
            store.setProgress(jobId, json.createObjectNode().put("done", done).put("total", total).put("unit", unit));
        }
    }
}
