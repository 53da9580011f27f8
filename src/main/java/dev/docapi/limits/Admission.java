package dev.docapi.limits;

import dev.docapi.accounts.Account;
import dev.docapi.crypto.SecretBox;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.config.Ids;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobQueue;
import dev.docapi.jobs.JobStore;
import dev.docapi.jobs.JobTracing;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Admits a validated request as a job (spec §8): at most {@code docapi.limits.active-jobs} jobs queued or running per
 * account (429 {@code too_many_jobs} with {@code Retry-After}), and this month's operations reserved before the job
 * exists (402 {@code quota_exceeded}). The operations endpoints, workflow runs, MCP tools and the agent's own steps
 * all come through here.
 *
 * <p>One transaction on one connection (issue 15): lock the account's row of {@code admission_locks}
 * ({@code SELECT ... FOR UPDATE}, which orders the nodes sharing one PostgreSQL), count its active jobs, reserve the
 * operations, insert the job with its sealed payload and its queue row — all or nothing. Only then is the node's
 * queue woken. A per-account lock in this JVM first keeps one node's requests of one account from queueing on
 * database connections.
 */
@Component
public class Admission {
    /** Seconds a client is told to wait when its job queue is full: about one short job's run. */
    static final long QUEUE_FULL_RETRY_AFTER = 5;

    private final JobStore jobs;
    private final JobQueue queue;
    private final Reservations reservations;
    private final LimitsProperties limits;
    private final JdbcClient db;
    private final TransactionTemplate tx;
    private final SecretBox box;
    private final JsonMapper json;
    private final JobTracing tracing;
    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    public Admission(JobStore jobs, JobQueue queue, Reservations reservations, LimitsProperties limits, JdbcClient db,
                     TransactionTemplate tx, SecretBox box, JsonMapper json, JobTracing tracing) {
        this.tracing = tracing;
        this.jobs = jobs;
        this.queue = queue;
        this.reservations = reservations;
        this.limits = limits;
        this.db = db;
        this.tx = tx;
        this.box = box;
        this.json = json;
    }

    /**
     * Creates the job and queues it when the account may run it now.
     *
     * @param operations the most operations the job can count (1 for an operation, the number of steps of a workflow)
     * @param aiOperations the AI operations on the service's model the job will count, reserved with it
     *                   ({@link dev.docapi.operations.Operation#aiOperations}); 0 for a workflow, whose AI steps are
     *                   checked against the cap at validation only
     * @param input      the job's {@code input} as clients see it (secrets removed)
     * @param payload    what a node needs to run it ({@link dev.docapi.jobs.JobWork}), secrets included; sealed at rest
     * @throws ApiException 429 {@code too_many_jobs} (with {@code Retry-After}), 402 {@code quota_exceeded},
     *                      503 {@code service_unavailable} when the database cannot be reached
     */
    public Job submit(Account account, int operations, int aiOperations, String operation, ObjectNode input, ObjectNode payload, String webhookUrl) {
        String sealed = box.seal(json.writeValueAsString(payload), account.id());
        String traceParent = tracing.currentParent();
        ReentrantLock lock = locks.computeIfAbsent(account.id(), k -> new ReentrantLock());
        lock.lock();
        try {
            ensureLockRow(account.id());
            reservations.ensureCounter(account.id());
            Job job = tx.execute(status -> {
                db.sql("SELECT account_id FROM admission_locks WHERE account_id = ? FOR UPDATE").param(account.id()).query(String.class).single();
                int active = jobs.countActive(account.id());
                if (active >= limits.activeJobs()) {
                    throw new ApiException(ErrorCode.TOO_MANY_JOBS, "this account already has " + active + " jobs queued or running (the limit is "
                            + limits.activeJobs() + "); wait for one to finish", QUEUE_FULL_RETRY_AFTER, null);
                }
                String id = Ids.newId("job_");
                reservations.reserveFor(account, id, operations, aiOperations);
                Job created = jobs.create(id, account.id(), operation, input, sealed, webhookUrl, traceParent);
                queue.schedule(id, -active);
                return created;
            });
            queue.wake();
            return job;
        } catch (DataAccessException e) {
            throw ApiException.databaseUnavailable(e);
        } finally {
            lock.unlock();
            if (!lock.hasQueuedThreads()) locks.remove(account.id(), lock);
        }
    }

    /** Creates the account's {@code admission_locks} row on first use (outside the transaction, like the counter row). */
    private void ensureLockRow(String accountId) {
        if (db.sql("SELECT COUNT(*) FROM admission_locks WHERE account_id = ?").param(accountId).query(Integer.class).single() > 0) return;
        try {
            db.sql("INSERT INTO admission_locks(account_id) VALUES (?)").param(accountId).update();
        } catch (DuplicateKeyException raced) {
            // another node created it
        }
    }
}
