package dev.docapi.limits;

import dev.docapi.accounts.UsageService;
import dev.docapi.api.ApiException;
import dev.docapi.api.ErrorCode;
import dev.docapi.config.Ids;
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
 */
@Service
public class Reservations {
    private static final Logger log = LoggerFactory.getLogger(Reservations.class);
    private final JdbcClient db;
    private final TransactionTemplate tx;

    public Reservations(JdbcClient db, TransactionTemplate tx) {
        this.db = db;
        this.tx = tx;
    }

    /** An open reservation of {@code amount} operations in {@code period}. */
    public record Reservation(String id, String accountId, String period, int amount) {
    }

    /**
     * Reserves {@code amount} operations for this month.
     *
     * @throws ApiException 402 {@code quota_exceeded} when used + reserved + amount would pass {@code limit}
     */
    public Reservation reserve(String accountId, int amount, int limit, String refusal) {
        String period = UsageService.currentPeriod();
        ensureCounter(accountId, period);
        Reservation r = new Reservation(Ids.newId("rsv_"), accountId, period, amount);
        Boolean ok = tx.execute(status -> {
            int n = db.sql("UPDATE usage_counters SET reserved = reserved + ? WHERE account_id = ? AND period = ? AND operations + reserved + ? <= ?")
                    .params(amount, accountId, period, amount, limit).update();
            if (n == 0) return false;
            db.sql("INSERT INTO usage_reservations(id, account_id, period, remaining, created_at) VALUES (?,?,?,?,?)")
                    .params(r.id(), accountId, period, amount, Instant.now().toEpochMilli()).update();
            return true;
        });
        if (!Boolean.TRUE.equals(ok)) throw new ApiException(ErrorCode.QUOTA_EXCEEDED, refusal);
        return r;
    }

    /** Links the reservation to its job, so that an abandoned one can be found once the job is over. */
    public void attach(Reservation r, String jobId) {
        db.sql("UPDATE usage_reservations SET job_id = ? WHERE id = ?").params(jobId, r.id()).update();
    }

    /**
     * Counts {@code operations} successful operations: converted from the reservation while it lasts, added plainly
     * beyond it.
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
    }

    /** Gives back what is left of the reservation. Idempotent. */
    public void release(String reservationId) {
        tx.executeWithoutResult(status -> {
            var row = db.sql("SELECT account_id, period, remaining FROM usage_reservations WHERE id = ?").param(reservationId)
                    .query((rs, i) -> new Reservation(reservationId, rs.getString(1), rs.getString(2), rs.getInt(3))).optional();
            if (row.isEmpty()) return;
            Reservation r = row.get();
            if (db.sql("DELETE FROM usage_reservations WHERE id = ? AND remaining = ?").params(r.id(), r.amount()).update() == 1 && r.amount() > 0) {
                db.sql("UPDATE usage_counters SET reserved = reserved - ? WHERE account_id = ? AND period = ?")
                        .params(r.amount(), r.accountId(), r.period()).update();
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
            release(id);
            log.info("released abandoned quota reservation {}", id);
        }
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
