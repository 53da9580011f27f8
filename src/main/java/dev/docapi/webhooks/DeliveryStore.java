package dev.docapi.webhooks;

import dev.docapi.config.Ids;
import java.time.Instant;
import java.util.List;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Webhook deliveries still to be attempted, in the database so that retries survive a restart (spec §6 rule 2). At
 * most one row per job; a row is claimed by pushing its due time forward with a conditional update, so one node
 * sends each attempt.
 */
@Repository
public class DeliveryStore {
    private final JdbcClient db;

    public DeliveryStore(JdbcClient db) {
        this.db = db;
    }

    /** A pending delivery: {@code attempts} made so far, due at {@code nextAttemptAt}. */
    public record Delivery(String id, String jobId, String accountId, String url, String payload, int attempts, long nextAttemptAt) {
    }

    /**
     * @param id the delivery's id (whd_...), also the event's {@code id} in {@code payload}
     * @return the new delivery, or null when the job already has one
     */
    public Delivery insert(String id, String jobId, String accountId, String url, String payload, Instant due) {
        Delivery d = new Delivery(id, jobId, accountId, url, payload, 0, due.toEpochMilli());
        try {
            db.sql("INSERT INTO webhook_deliveries(id, job_id, account_id, url, payload, attempts, next_attempt_at, created_at) VALUES (?,?,?,?,?,?,?,?)")
                    .params(d.id(), jobId, accountId, url, payload, 0, d.nextAttemptAt(), Instant.now().toEpochMilli()).update();
            return d;
        } catch (DuplicateKeyException already) {
            return null;
        }
    }

    /** Deliveries due at {@code now}, oldest first. */
    public List<Delivery> due(Instant now, int limit) {
        return db.sql("SELECT * FROM webhook_deliveries WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?")
                .params(now.toEpochMilli(), limit)
                .query((rs, i) -> new Delivery(rs.getString("id"), rs.getString("job_id"), rs.getString("account_id"), rs.getString("url"),
                        rs.getString("payload"), rs.getInt("attempts"), rs.getLong("next_attempt_at")))
                .list();
    }

    public List<Delivery> forJob(String jobId) {
        return db.sql("SELECT * FROM webhook_deliveries WHERE job_id = ?").param(jobId)
                .query((rs, i) -> new Delivery(rs.getString("id"), rs.getString("job_id"), rs.getString("account_id"), rs.getString("url"),
                        rs.getString("payload"), rs.getInt("attempts"), rs.getLong("next_attempt_at")))
                .list();
    }

    /**
     * Claims a due delivery for one attempt by moving its due time to {@code leaseUntil} (if this node dies while
     * sending, the attempt is made again after the lease).
     *
     * @return false when another node claimed it first
     */
    public boolean claim(Delivery d, Instant leaseUntil) {
        return db.sql("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND next_attempt_at = ? AND attempts = ?")
                .params(leaseUntil.toEpochMilli(), d.id(), d.nextAttemptAt(), d.attempts()).update() == 1;
    }

    public void reschedule(String id, int attempts, Instant next) {
        db.sql("UPDATE webhook_deliveries SET attempts = ?, next_attempt_at = ? WHERE id = ?").params(attempts, next.toEpochMilli(), id).update();
    }

    public void delete(String id) {
        db.sql("DELETE FROM webhook_deliveries WHERE id = ?").param(id).update();
    }

    /** Finished jobs (of the last day) whose webhook is still pending but have no delivery row: their event was lost. */
    public List<String> jobsMissingDelivery(Instant finishedBefore, Instant finishedAfter) {
        return db.sql("""
                SELECT j.id FROM jobs j LEFT JOIN webhook_deliveries d ON d.job_id = j.id
                WHERE j.webhook_json IS NOT NULL AND j.status IN ('succeeded','failed') AND j.webhook_json LIKE '%"status":"pending"%' AND d.id IS NULL
                  AND j.finished_at < ? AND j.finished_at > ?""")
                .params(finishedBefore.toEpochMilli(), finishedAfter.toEpochMilli()).query(String.class).list();
    }
}
