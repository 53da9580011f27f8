package dev.docapi.limits;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.UsageService;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.config.Ids;
import dev.docapi.jobs.JobWork;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Monthly operations reserved at admission (spec §8: "402 before a job runs; concurrent requests cannot overshoot").
 * A reservation is taken by one conditional UPDATE of the account's counter row ({@code operations + reserved + n
 * <= limit}), so two requests at the quota's edge can never both pass, on one node or several. When the job counts a
 * successful operation the reservation is converted ({@code reserved - k, operations + k}); when it ends the rest is
 * released. Reservations left by a node that died are released by {@link #releaseAbandoned()}.
 *
 * <p>A job's reservation is taken in its admitting transaction (issue 15: on the admission's one connection, so it and
 * the job exist together or not at all) and found again by job id on whichever node runs the job.
 */
@Service
public class Reservations implements JobWork.Reserved {
    private static final Logger log = LoggerFactory.getLogger(Reservations.class);
    private final JdbcClient db;
    private final TransactionTemplate tx;

    private final QuotaPolicy policy;
    private final UsageService usage;

    public Reservations(JdbcClient db, TransactionTemplate tx, QuotaPolicy policy, UsageService usage) {
        this.db = db;
        this.tx = tx;
        this.policy = policy;
        this.usage = usage;
    }

    /**
     * Reserves {@code amount} operations of this month under the account's plan ({@link QuotaPolicy}), as
     * {@link #reserve} does.
     *
     * @throws ApiException 402 {@code quota_exceeded}, saying which limit was reached
     */
    public Reservation reserveFor(Account account, String jobId, int amount) {
        return reserveFor(account, jobId, amount, 0);
    }

    /**
     * As {@link #reserveFor(Account, String, int)}, also reserving {@code aiOperations} of the month's AI operations on
     * the service's model under the plan's AI cap, in the same transaction (issue 25 item 5: simultaneous AI calls at
     * the cap's edge cannot both pass). Given back when the job ends; its real count is recorded by the run.
     *
     * @throws ApiException 402 {@code quota_exceeded}, saying which limit was reached
     */
    public Reservation reserveFor(Account account, String jobId, int amount, int aiOperations) {
        return reserve(account.id(), jobId, amount, policy.operations(account), refusal(account, amount),
                aiOperations, policy.aiOperations(account));
    }

    /** Said when the AI cap refuses a reservation (as {@code ModelCatalog.checkAiQuota} says at validation). */
    static final String AI_REFUSAL = "this month's AI operations on the service's model are used; they renew on the 1st (UTC), "
            + "or add your own provider key (no AI cap)";

    private String refusal(Account account, int operations) {
        String what = operations == 1 ? "this operation" : "these " + operations + " operations";
        if (policy.operationsLimitShown(account)) {
            return "the free plan's " + policy.operations(account) + " operations for this month are used (or too few are left for "
                    + what + "); the quota resets on the 1st (UTC), or upgrade to a paid plan";
        }
        return "this account has reached the fair-use threshold of " + policy.operations(account) + " operations this month";
    }

    /** An open reservation of {@code amount} operations in {@code period}. */
    public record Reservation(String id, String accountId, String period, int amount) {
    }

    /**
     * Reserves {@code amount} operations of this month for the job {@code jobId} (may be null). Joins the caller's
     * transaction; call {@link #ensureCounter} before it (outside it: a lost insert race would abort it on PostgreSQL).
     *
     * @throws ApiException 402 {@code quota_exceeded} when used + reserved + amount would pass {@code limit}
     */
    private Reservation reserve(String accountId, String jobId, int amount, int limit, String refusal, int aiAmount, int aiLimit) {
        String period = UsageService.currentPeriod();
        Reservation r = new Reservation(Ids.newId("rsv_"), accountId, period, amount);
        String refused = tx.execute(status -> {
            int n = db.sql("UPDATE usage_counters SET reserved = reserved + ? WHERE account_id = ? AND period = ? AND operations + reserved + ? <= ?")
                    .params(amount, accountId, period, amount, limit).update();
            if (n == 0) return refusal;
            if (aiAmount > 0 && db.sql("UPDATE usage_counters SET ai_reserved = ai_reserved + ? WHERE account_id = ? AND period = ? "
                    + "AND ai_operations + ai_reserved + ? <= ?").params(aiAmount, accountId, period, aiAmount, aiLimit).update() == 0) {
                status.setRollbackOnly(); // the operations reserved above go back too
                return AI_REFUSAL;
            }
            db.sql("INSERT INTO usage_reservations(id, account_id, period, remaining, ai_remaining, job_id, created_at) VALUES (?,?,?,?,?,?,?)")
                    .params(r.id(), accountId, period, amount, aiAmount, jobId, Instant.now().toEpochMilli()).update();
            return null;
        });
        if (refused != null) throw new ApiException(ErrorCode.QUOTA_EXCEEDED, refused);
        return r;
    }

    @Override
    public JobWork.Meter meter(String jobId) {
        Reservation r = db.sql("SELECT id, account_id, period, remaining FROM usage_reservations WHERE job_id = ?").param(jobId)
                .query((rs, i) -> new Reservation(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4))).optional()
                .orElseThrow(() -> new IllegalStateException("job " + jobId + " has no reservation"));
        return n -> commit(r, n);
    }

    @Override
    public void release(String jobId) {
        db.sql("SELECT id FROM usage_reservations WHERE job_id = ?").param(jobId).query(String.class).list().forEach(this::releaseReservation);
    }

    /**
     * Counts {@code operations} successful operations: converted from the reservation while it lasts, added plainly
     * beyond it; and in today's count (the usage chart), after the month's (outside the transaction: a lost insert
     * race of a new day's row would abort it on PostgreSQL).
     */
    public void commit(Reservation r, int operations) {
        tx.executeWithoutResult(status -> {
            int converted = db.sql("UPDATE usage_reservations SET remaining = remaining - ? WHERE id = ? AND remaining >= ?")
                    .params(operations, r.id(), operations).update();
            if (converted == 1) {
                db.sql("UPDATE usage_counters SET operations = operations + ?, reserved = reserved - ? WHERE account_id = ? AND period = ?")
                        .params(operations, operations, r.accountId(), r.period()).update();
            } else {
                db.sql("UPDATE usage_counters SET operations = operations + ? WHERE account_id = ? AND period = ?")
                        .params(operations, r.accountId(), r.period()).update();
            }
        });
        usage.recordDay(r.accountId(), operations);
    }

    /** Gives back what is left of the reservation. Idempotent. */
    public void releaseReservation(String reservationId) {
        tx.executeWithoutResult(status -> {
            record Held(Reservation r, int ai) {
            }
            var row = db.sql("SELECT account_id, period, remaining, ai_remaining FROM usage_reservations WHERE id = ?").param(reservationId)
                    .query((rs, i) -> new Held(new Reservation(reservationId, rs.getString(1), rs.getString(2), rs.getInt(3)), rs.getInt(4))).optional();
            if (row.isEmpty()) return;
            Reservation r = row.get().r();
            int ai = row.get().ai();
            if (db.sql("DELETE FROM usage_reservations WHERE id = ? AND remaining = ?").params(r.id(), r.amount()).update() == 1
                    && (r.amount() > 0 || ai > 0)) {
                db.sql("UPDATE usage_counters SET reserved = reserved - ?, ai_reserved = ai_reserved - ? WHERE account_id = ? AND period = ?")
                        .params(r.amount(), ai, r.accountId(), r.period()).update();
            }
        });
    }

    /** Operations reserved now by the account's running jobs (this month). */
    public int reserved(String accountId) {
        return db.sql("SELECT reserved FROM usage_counters WHERE account_id = ? AND period = ?")
                .params(accountId, UsageService.currentPeriod()).query(Integer.class).optional().orElse(0);
    }

    /**
     * Releases reservations whose job is over or gone (its node stopped before the job's end released them), and
     * reservations never linked to a job after ten minutes.
     */
    @Scheduled(fixedDelay = 60_000, initialDelay = 60_000)
    public void releaseAbandoned() {
        long old = Instant.now().minus(Duration.ofMinutes(10)).toEpochMilli();
        List<String> ids = db.sql("""
                SELECT r.id FROM usage_reservations r LEFT JOIN jobs j ON j.id = r.job_id
                WHERE (r.job_id IS NULL AND r.created_at < ?)
                   OR (r.job_id IS NOT NULL AND (j.id IS NULL OR (j.status IN ('succeeded','failed') AND j.finished_at < ?)))""")
                .params(old, Instant.now().minusSeconds(60).toEpochMilli()).query(String.class).list();
        for (String id : ids) {
            releaseReservation(id);
            log.info("released abandoned quota reservation {}", id);
        }
    }

    /** Creates this month's counter row of the account when missing (outside any transaction; see {@link #reserve}). */
    public void ensureCounter(String accountId) {
        ensureCounter(accountId, UsageService.currentPeriod());
    }

    private void ensureCounter(String accountId, String period) {
        if (db.sql("SELECT COUNT(*) FROM usage_counters WHERE account_id = ? AND period = ?").params(accountId, period).query(Integer.class).single() > 0) return;
        try {
            db.sql("INSERT INTO usage_counters(account_id, period, operations, ai_operations, reserved) VALUES (?,?,0,0,0)").params(accountId, period).update();
        } catch (DuplicateKeyException raced) {
            // another request created it
        }
    }
}
