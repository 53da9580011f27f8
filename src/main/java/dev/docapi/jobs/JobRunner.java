package dev.docapi.jobs;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.AccountService;
import dev.docapi.crypto.SecretBox;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.config.DocapiProperties;
import dev.docapi.files.StoredFile;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import io.micrometer.observation.Observation;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.env.Environment;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs the jobs this node claims from the {@link JobQueue} (spec §3): rebuilds each job's work from its row
 * ({@link JobWork}), moves it {@code queued → running → succeeded | failed}, reports progress, and publishes
 * {@link JobFinishedEvent}. Answers {@code wait}: a job finishing on this node wakes its waiters at once, one running
 * elsewhere is polled in the database. Each run is observed as {@code docapi.jobs} (a span continuing the admitting
 * request's trace, and a timer tagged with operation, outcome and code; issue 24), and every log line written during it
 * carries {@code job_id}, {@code account_id}, {@code operation} and {@code trace_id}. At start it fails with {@code interrupted} the jobs this node had started when
 * it stopped; it deletes job records after 7 days.
 *
 * <p>Every job has a deadline (issue 40 item 1): {@code DOCAPI_JOB_DEADLINE} (default 15 min), or longer where its
 * operations declare it ({@link JobWork#deadline}). The work runs on a thread of its own ({@link BoundedWork}); past
 * the deadline it is interrupted and abandoned, the job fails at once with {@code internal_error} saying it needed
 * more than the deadline, nothing of it is counted, and the worker takes the next job.
 */
@Service
public class JobRunner {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);

    private final JobStore store;
    private final JsonMapper json;
    private final ApplicationEventPublisher events;
    private final List<JobWork> works;
    private final JobWork.Reserved reserved;
    private final AccountService accounts;
    private final SecretBox box;
    private final String node;
    private final Map<String, CompletableFuture<Void>> finished = new ConcurrentHashMap<>();
    private final JobTracing tracing;
    private final JobMetrics metrics;
    /** {@code DOCAPI_JOB_DEADLINE}: how long a job may run unless its operations declare longer. */
    private volatile Duration deadline;

    public JobRunner(JobStore store, JsonMapper json, ApplicationEventPublisher events, List<JobWork> works, JobWork.Reserved reserved,
                     AccountService accounts, SecretBox box, DocapiProperties props, Environment env, JobTracing tracing,
                     JobMetrics metrics, @Value("${docapi.job-deadline:15m}") Duration deadline) throws Exception {
        this.tracing = tracing;
        this.metrics = metrics;
        setDeadline(deadline);
        this.store = store;
        this.json = json;
        this.events = events;
        this.works = works;
        this.reserved = reserved;
        this.accounts = accounts;
        this.box = box;
        this.node = InetAddress.getLocalHost().getHostName() + ":" + props.port() + ":" + props.dataDir().toAbsolutePath().normalize();
        // The admin CLI shares the database with a running service: it must not touch that service's jobs.
        if (!env.matchesProfiles("admin")) recoverInterrupted();
    }

    /** {@code DOCAPI_JOB_DEADLINE}: how long a job may run unless its operations declare longer. */
    public Duration deadline() {
        return deadline;
    }

    /**
     * Changes {@code DOCAPI_JOB_DEADLINE} on this node for jobs that start from now on (tests use it for a
     * deadline of seconds).
     *
     * @throws IllegalArgumentException when it is not positive
     */
    public void setDeadline(Duration value) {
        if (value == null || value.isNegative() || value.isZero()) throw new IllegalArgumentException("DOCAPI_JOB_DEADLINE must be positive, not " + value);
        this.deadline = value;
    }

    /** This node's id, recorded on the jobs it runs and as its queue claimer name. */
    public String node() {
        return node;
    }

    /**
     * Waits up to {@code seconds} for the job to finish and returns its current record (finished or not).
     */
    public Job await(Job job, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CompletableFuture<Void> done = finished.computeIfAbsent(job.id(), k -> new CompletableFuture<>());
        try {
            Job current = store.find(job.id()).orElse(job);
            // Finishing on this node completes `done` at once; elsewhere, the database tells (polled with back-off).
            long pollMillis = 20;
            while (!current.status().finished()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) break;
                try {
                    done.get(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, pollMillis), TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException ignored) {
                    pollMillis = Math.min(500, pollMillis * 2);
                }
                current = store.find(job.id()).orElse(current);
            }
            return current;
        } finally {
            finished.remove(job.id(), done);
        }
    }

    /** Runs a job this node claimed (called on a queue worker thread). Never throws: every outcome is on the job. */
    void execute(String jobId) {
        try {
            Job job = store.find(jobId).orElse(null);
            if (job == null || !store.markRunning(jobId, node)) return; // finished or deleted meanwhile
            metrics.started(job.accountId(), job.operation(), Duration.between(job.createdAt(), Instant.now()));
            try {
                runAndRecord(job);
            } finally {
                metrics.ended(job.accountId());
            }
        } catch (RuntimeException e) {
            log.error("job {} could not be run (database unavailable?)", jobId, e);
        } finally {
            CompletableFuture<Void> done = finished.get(jobId);
            if (done != null) done.complete(null);
        }
    }

    /** Runs a job this node marked running, under its observation and log context, and records its outcome. */
    private void runAndRecord(Job job) {
        String jobId = job.id();
        Observation observation = tracing.observe("docapi.jobs", "job " + job.operation(), store.traceParent(jobId).orElse(null))
                .lowCardinalityKeyValue("operation", job.operation())
                .highCardinalityKeyValue("job.id", jobId)
                .start();
        ErrorCode failure = null;
        try (Observation.Scope scope = observation.openScope();
             var logJob = MDC.putCloseable("job_id", jobId);
             var logAccount = MDC.putCloseable("account_id", job.accountId());
             var logOperation = MDC.putCloseable("operation", job.operation());
             var logTrace = MDC.putCloseable("trace_id", tracing.currentTraceId())) {
            log.info("job {} ({}) started on {}", jobId, job.operation(), node);
            try {
                JobWork.Outcome outcome = run(job, observation);
                store.markSucceeded(jobId, outputJson(outcome));
            } catch (BoundedWork.Exceeded e) {
                failure = ErrorCode.INTERNAL_ERROR;
                metrics.deadlineExceeded(job.operation());
                log.info("job {} failed: {}", jobId, e.getMessage());
                store.markFailed(jobId, ErrorCode.INTERNAL_ERROR, e.getMessage());
            } catch (OperationFailure e) {
                failure = e.code();
                log.info("job {} failed: {}", jobId, e.getMessage(), e.getCause());
                store.markFailed(jobId, e.code(), e.getMessage(), e.partial() == null ? null : outputJson(new JobWork.Outcome(List.of(), e.partial())));
            } catch (ApiException e) {
                failure = e.code();
                log.info("job {} failed: {}", jobId, e.getMessage());
                store.markFailed(jobId, e.code(), e.getMessage());
            } catch (InterruptedException e) {
                failure = ErrorCode.INTERRUPTED;
                store.markFailed(jobId, ErrorCode.INTERRUPTED, "the service stopped while this job was running; submit it again");
            } catch (Throwable e) {
                failure = ErrorCode.INTERNAL_ERROR;
                log.error("job {} failed unexpectedly", jobId, e);
                store.markFailed(jobId, ErrorCode.INTERNAL_ERROR, "the operation failed unexpectedly; it is safe to retry");
            } finally {
                reserved.release(jobId);
            }
            publishIfFinished(jobId);
        } finally {
            observation.lowCardinalityKeyValue("outcome", failure == null ? "succeeded" : "failed")
                    .lowCardinalityKeyValue("code", failure == null ? "none" : failure.code())
                    .stop();
        }
    }

    /**
     * Runs the job's work on its own thread under its deadline ({@link BoundedWork}), with this thread's log context
     * and observation.
     */
    private JobWork.Outcome run(Job job, Observation observation) throws Exception {
        Account account = accounts.findById(job.accountId())
                .orElseThrow(() -> new ApiException(ErrorCode.INTERNAL_ERROR, "the job's account no longer exists"));
        String sealed = store.payload(job.id()).orElse(null);
        if (sealed == null) throw new ApiException(ErrorCode.INTERNAL_ERROR, "the job has no work to run");
        ObjectNode payload = (ObjectNode) json.readTree(box.open(sealed, job.accountId()));
        JobWork work = works.stream().filter(w -> w.runs(job.operation())).findFirst()
                .orElseThrow(() -> new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "this node cannot run '" + job.operation() + "' jobs"));
        JobWork.Meter meter = reserved.meter(job.id());
        Progress progress = new Progress(job.id());
        Duration limit = work.deadline(job, payload, deadline);
        Map<String, String> logContext = MDC.getCopyOfContextMap();
        return BoundedWork.run(job.id(), limit, deadlineMessage(job.operation(), limit), () -> {
            if (logContext != null) MDC.setContextMap(logContext);
            try (Observation.Scope scope = observation.openScope()) {
                // an operation counted by work stopped at its deadline is not counted (BoundedWork.commit)
                return work.run(account, job, payload, progress, n -> BoundedWork.commit(() -> meter.succeeded(n)));
            } finally {
                MDC.clear();
            }
        });
    }

    /** What a job stopped at its deadline says (issue 40 item 1): the deadline and the setting behind it. */
    private String deadlineMessage(String operation, Duration limit) {
        String which = limit.equals(deadline) ? "the most a job may run on this service (DOCAPI_JOB_DEADLINE)"
                : "the most a '" + operation + "' job may run (DOCAPI_JOB_DEADLINE is " + human(deadline) + ")";
        return "the job needed more than " + human(limit) + ", " + which + ", and was stopped; it is not counted. "
                + "A smaller file or fewer pages may finish in time";
    }

    /** {@code 15 min}, {@code 3 h}, {@code 20 s}. */
    static String human(Duration d) {
        long s = d.toSeconds();
        if (s >= 3600 && s % 3600 == 0) return s / 3600 + " h";
        if (s >= 60 && s % 60 == 0) return s / 60 + " min";
        return s > 0 ? s + " s" : d.toMillis() + " ms";
    }

    /**
     * A queue row whose node stopped beating (issue 15): a job that had started fails with {@code interrupted} and is
     * not counted (spec §3); one still queued runs elsewhere.
     *
     * @return true when the job should be queued again
     */
    boolean deadExecution(String jobId) {
        Job job = store.find(jobId).orElse(null);
        if (job == null || job.status().finished()) return false;
        if (job.status() == JobStatus.QUEUED) {
            log.info("job {} was claimed by a node that stopped before starting it; queued again", jobId);
            return true;
        }
        interrupt(jobId, "the node running this job stopped; submit it again");
        return false;
    }

    private void interrupt(String jobId, String message) {
        store.markFailed(jobId, ErrorCode.INTERRUPTED, message);
        reserved.release(jobId);
        publishIfFinished(jobId);
        log.info("job {} marked interrupted", jobId);
    }

    private void publishIfFinished(String jobId) {
        store.find(jobId).filter(j -> j.status().finished()).ifPresent(j -> events.publishEvent(new JobFinishedEvent(j)));
    }

    private ObjectNode outputJson(JobWork.Outcome outcome) {
        ObjectNode out = json.createObjectNode();
        ArrayNode files = out.putArray("files");
        for (StoredFile f : outcome.files()) files.add(f.id());
        OperationResult r = outcome.result();
        if (r.text() != null) out.put("text", r.text());
        if (r.data() != null) out.set("data", r.data());
        if (r.note() != null) out.put("note", r.note());
        if (r.model() != null) out.put("model", r.model());
        if (r.steps() != null) out.set("steps", r.steps());
        if (r.sources() != null) out.set("sources", r.sources());
        return out;
    }

    /**
     * Jobs this node had started when it stopped, and unfinished jobs with no queue row (left by a version without the
     * durable queue): failed with {@code interrupted}. Jobs still queued stay queued and run.
     */
    private void recoverInterrupted() {
        for (String id : store.runningOn(node)) {
            store.dropExecution(id);
            interrupt(id, "the service restarted while this job was running; submit it again");
        }
        for (String id : store.withoutExecution()) interrupt(id, "the service restarted while this job was queued or running; submit it again");
    }

    @Scheduled(fixedDelay = 3_600_000, initialDelay = 30_000)
    void deleteOldJobs() {
        int n = store.deleteCreatedBefore(Instant.now().minus(Duration.ofDays(7)));
        if (n > 0) log.info("deleted {} job records older than 7 days", n);
    }

    /** Writes progress to the job at most twice a second (and always the last step). */
    private final class Progress implements dev.docapi.contract.OperationContext.ProgressListener {
        private final String jobId;
        private long lastWrite;

        Progress(String jobId) {
            this.jobId = jobId;
        }

        @Override
        public synchronized void progress(int done, int total, String unit) {
            BoundedWork.checkStopped(); // work stopped at its deadline stops at its next report
            long now = System.nanoTime();
            if (done < total && now - lastWrite < 500_000_000L) return;
            lastWrite = now;
            store.setProgress(jobId, json.createObjectNode().put("done", done).put("total", total).put("unit", unit));
        }
    }
}
