package dev.docapi.limits;

import dev.docapi.accounts.Account;
import dev.docapi.api.ApiException;
import dev.docapi.api.ErrorCode;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobRunner;
import dev.docapi.jobs.JobTask;
import dev.docapi.operations.OperationContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * Admits a validated request as a job (spec §8): at most {@code docapi.limits.active-jobs} jobs queued or running per
 * account (429 {@code too_many_jobs} with {@code Retry-After}), and this month's operations reserved before the job
 * exists (402 {@code quota_exceeded}). The operations endpoints, workflow runs, MCP tools and the agent all start
 * their jobs here.
 *
 * <p>The job cap is race-free: the count and the job's creation happen while the account's row of
 * {@code admission_locks} is locked in the database ({@code SELECT ... FOR UPDATE}, which also orders nodes sharing one
 * PostgreSQL); a per-account lock in this JVM first keeps one node's requests from queueing on database connections.
 */
@Component
public class Admission {
    /** Seconds a client is told to wait when its job queue is full: about one short job's run. */
    static final long QUEUE_FULL_RETRY_AFTER = 5;

    /** The work of an admitted job; it reports each successful operation to its {@link Meter}. */
    @FunctionalInterface
    public interface MeteredTask {
        JobTask.Outcome run(String jobId, OperationContext.ProgressListener progress, Meter meter) throws Exception;
    }

    /** Counts a job's successful operations against the operations reserved for it. */
    public interface Meter {
        /** Counts {@code operations} successful operations (spec §8: only successful operations count). */
        void succeeded(int operations);
    }

    private final JobRunner runner;
    private final Reservations reservations;
    private final QuotaPolicy policy;
    private final LimitsProperties limits;
    private final DataSource dataSource;
    private final JdbcClient db;
    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    /**
     * An admission holds one connection (the account lock) while its inner calls take one more at a time, so at most
     * half the pool may be admitting at once: a burst then waits here instead of exhausting the pool and failing
     * with a 500 (issue 15).
     */
    private final Semaphore admitting;

    public Admission(JobRunner runner, Reservations reservations, QuotaPolicy policy, LimitsProperties limits, DataSource dataSource, JdbcClient db) {
        this.runner = runner;
        this.reservations = reservations;
        this.policy = policy;
        this.limits = limits;
        this.dataSource = dataSource;
        this.db = db;
        int pool = dataSource instanceof com.zaxxer.hikari.HikariDataSource h ? h.getMaximumPoolSize() : 10;
        this.admitting = new Semaphore(Math.max(1, pool / 2), true);
    }

    /**
     * Creates and starts the job when the account may run it now.
     *
     * @param operations the most operations the job can count (1 for an operation, the number of steps of a workflow)
     * @throws ApiException 429 {@code too_many_jobs} (with {@code Retry-After}), 402 {@code quota_exceeded}
     */
    public Job submit(Account account, int operations, String operation, ObjectNode input, String webhookUrl, MeteredTask task) {
        ReentrantLock lock = locks.computeIfAbsent(account.id(), k -> new ReentrantLock());
        lock.lock();
        try {
            admitting.acquire();
        } catch (InterruptedException e) {
            lock.unlock();
            Thread.currentThread().interrupt();
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "the service is stopping; retry shortly", e);
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                lockAccountRow(c, account.id());
                int active = countActive(c, account.id());
                if (active >= limits.activeJobs()) {
                    throw new ApiException(ErrorCode.TOO_MANY_JOBS, "this account already has " + active + " jobs queued or running (the limit is "
                            + limits.activeJobs() + "); wait for one to finish", QUEUE_FULL_RETRY_AFTER, null);
                }
                Reservations.Reservation r = reservations.reserve(account.id(), operations, policy.operations(account), refusal(account, operations));
                Job job;
                try {
                    job = runner.submit(account.id(), operation, input, webhookUrl, (jobId, progress) -> {
                        try {
                            return task.run(jobId, progress, n -> reservations.commit(r, n));
                        } finally {
                            reservations.release(r.id());
                        }
                    });
                } catch (RuntimeException e) {
                    reservations.release(r.id());
                    throw e;
                }
                reservations.attach(r, job.id());
                return job;
            } finally {
                c.rollback(); // only a lock was held; nothing to keep
            }
        } catch (SQLException e) {
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "the database is not available; retry shortly", e);
        } finally {
            admitting.release();
            lock.unlock();
            if (!lock.hasQueuedThreads()) locks.remove(account.id(), lock);
        }
    }

    private String refusal(Account account, int operations) {
        String what = operations == 1 ? "this operation" : "these " + operations + " operations";
        if (policy.operationsLimitShown(account)) {
            return "the free plan's " + policy.operations(account) + " operations for this month are used (or too few are left for "
                    + what + "); the quota resets on the 1st (UTC), or upgrade to a paid plan";
        }
        return "this account has reached the fair-use threshold of " + policy.operations(account) + " operations this month";
    }

    /** Locks the account's row of {@code admission_locks} (created on first use) until {@code c} ends its transaction. */
    private void lockAccountRow(Connection c, String accountId) throws SQLException {
        for (int tries = 0; tries < 2; tries++) {
            try (PreparedStatement ps = c.prepareStatement("SELECT account_id FROM admission_locks WHERE account_id = ? FOR UPDATE")) {
                ps.setString(1, accountId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) return;
                }
            }
            try {
                db.sql("INSERT INTO admission_locks(account_id) VALUES (?)").param(accountId).update();
            } catch (DuplicateKeyException raced) {
                // another node created it; lock it on the next pass
            }
        }
        throw new SQLException("could not lock the admission row of " + accountId);
    }

    private static int countActive(Connection c, String accountId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM jobs WHERE account_id = ? AND status IN ('queued','running')")) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
