package dev.docapi.jobs;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.config.Ids;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Job records in the database: creation, status moves (each a conditional update), lookups. */
@Repository
public class JobStore {
    /** Every column but the sealed payload, which only the node running the job reads ({@link #payload}). */
    private static final String COLUMNS = "id, account_id, operation, status, input_json, output_json, error_code, error_message, "
            + "progress_json, webhook_json, created_at, started_at, finished_at";
    private final JdbcClient db;
    private final JsonMapper json;

    public JobStore(JdbcClient db, JsonMapper json) {
        this.db = db;
        this.json = json;
    }

    /**
     * Inserts a queued job. {@code webhookUrl} may be null; {@code payload} is the sealed work a node needs to run it
     * ({@link JobWork}), null only for jobs that no node will run (tests that fill an account's job cap).
     * {@code traceParent} is the admitting request's W3C traceparent ({@link JobTracing}), or null.
     */
    public Job create(String id, String accountId, String operation, ObjectNode input, String payload, String webhookUrl, String traceParent) {
        Instant now = Instant.now();
        ObjectNode webhook = null;
        if (webhookUrl != null) {
            webhook = json.createObjectNode().put("url", webhookUrl).put("status", "pending");
            webhook.putArray("attempts");
        }
        Job job = new Job(id, accountId, operation, JobStatus.QUEUED, input, null, null, null, null, webhook, now, null, null);
        db.sql("INSERT INTO jobs(id, account_id, operation, status, input_json, payload, webhook_json, created_at, trace_parent) VALUES (?,?,?,?,?,?,?,?,?)")
                .params(job.id(), accountId, operation, job.status().id(), json.writeValueAsString(input), payload,
                        webhook == null ? null : json.writeValueAsString(webhook), now.toEpochMilli(), traceParent)
                .update();
        return job;
    }

    /** The W3C traceparent the job was admitted under ({@link #create}), if any. */
    public Optional<String> traceParent(String id) {
        return db.sql("SELECT trace_parent FROM jobs WHERE id = ?").param(id).query(String.class).optional();
    }

    /** Jobs queued and not yet started, on every node, and when the oldest of them was created (null when none). */
    public record QueueStats(long queued, Instant oldest) {}

    public QueueStats queueStats() {
        return db.sql("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM jobs WHERE status = 'queued'").query((rs, i) -> {
            long oldest = rs.getLong("oldest");
            Instant at = rs.wasNull() ? null : Instant.ofEpochMilli(oldest);
            return new QueueStats(rs.getLong("n"), at);
        }).single();
    }

    /** The sealed payload of a job ({@link #create}), if any. */
    public Optional<String> payload(String id) {
        return db.sql("SELECT payload FROM jobs WHERE id = ?").param(id).query(String.class).optional();
    }

    /** Records that {@code node} started the job. @return false when the job was no longer queued */
    public boolean markRunning(String id, String node) {
        return db.sql("UPDATE jobs SET status = 'running', node = ?, started_at = ? WHERE id = ? AND status = 'queued'")
                .params(node, Instant.now().toEpochMilli(), id).update() == 1;
    }

    public void markSucceeded(String id, ObjectNode output) {
        db.sql("UPDATE jobs SET status = 'succeeded', output_json = ?, progress_json = NULL, finished_at = ? WHERE id = ? AND status IN ('queued','running')")
                .params(json.writeValueAsString(output), Instant.now().toEpochMilli(), id).update();
    }

    public void markFailed(String id, ErrorCode code, String message) {
        markFailed(id, code, message, null);
    }

    /**
     * As {@link #markFailed(String, ErrorCode, String)}, keeping {@code output} (may be null) on the failed job. Any
     * absolute path left in {@code message} is cut to its last part: clients never see a server path (issue 9). A
     * job that ran and failed carries a code of spec §7's 5xx list (rule 3): a client error code found only while
     * running (a file an engine cannot read after all) is recorded as {@code internal_error}, its message kept.
     */
    public void markFailed(String id, ErrorCode code, String message, ObjectNode output) {
        if (code.status() < 500) code = ErrorCode.INTERNAL_ERROR;
        String msg = message == null ? code.code() : withoutPaths(message);
        msg = msg.length() > 1900 ? msg.substring(0, 1900) + "…" : msg;
        db.sql("UPDATE jobs SET status = 'failed', error_code = ?, error_message = ?, output_json = ?, progress_json = NULL, finished_at = ? WHERE id = ? AND status IN ('queued','running')")
                .params(code.code(), msg, output == null ? null : json.writeValueAsString(output), Instant.now().toEpochMilli(), id).update();
    }

    /** An absolute path of two or more parts (not inside a URL) becomes its file name. */
    private static final java.util.regex.Pattern ABSOLUTE_PATH = java.util.regex.Pattern.compile("(?<![\\w:/.])/(?:[^\\s/'\"]+/)+([^\\s/'\"]*)");

    static String withoutPaths(String message) {
        return ABSOLUTE_PATH.matcher(message).replaceAll("$1");
    }

    public void setProgress(String id, ObjectNode progress) {
        db.sql("UPDATE jobs SET progress_json = ? WHERE id = ? AND status = 'running'").params(json.writeValueAsString(progress), id).update();
    }

    public void setWebhook(String id, ObjectNode webhook) {
        db.sql("UPDATE jobs SET webhook_json = ? WHERE id = ?").params(json.writeValueAsString(webhook), id).update();
    }

    public Optional<Job> find(String id) {
        return db.sql("SELECT " + COLUMNS + " FROM jobs WHERE id = ?").param(id).query(this::map).optional();
    }

    /** @throws ApiException 404 {@code job_not_found} for an unknown job or another account's */
    public Job get(String accountId, String id) {
        return find(id).filter(j -> j.accountId().equals(accountId))
                .orElseThrow(() -> new ApiException(ErrorCode.JOB_NOT_FOUND, "no job '" + id + "'"));
    }

    /** The account's jobs, newest first; {@code limit} 1-100. */
    public List<Job> list(String accountId, int limit) {
        return db.sql("SELECT " + COLUMNS + " FROM jobs WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?").params(accountId, limit).query(this::map).list();
    }

    /** The account's jobs that were given a {@code webhook_url}, newest first (the developer area's recent deliveries). */
    public List<Job> withWebhook(String accountId, int limit) {
        return db.sql("SELECT " + COLUMNS + " FROM jobs WHERE account_id = ? AND webhook_json IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT ?")
                .params(accountId, limit).query(this::map).list();
    }

    /** Jobs queued or running for the account (spec §8 "jobs waiting or running"). */
    public int countActive(String accountId) {
        return db.sql("SELECT COUNT(*) FROM jobs WHERE account_id = ? AND status IN ('queued','running')").param(accountId).query(Integer.class).single();
    }

    /** Ids of the jobs {@code node} had started and not finished (it stopped without finishing them). */
    public List<String> runningOn(String node) {
        return db.sql("SELECT id FROM jobs WHERE status = 'running' AND node = ?").param(node).query(String.class).list();
    }

    /**
     * Ids of unfinished jobs that no queue row stands for: queued or running when a version without the durable queue
     * stopped. (Admission writes the job and its row in one transaction, so a live job always has one.)
     */
    public List<String> withoutExecution() {
        return db.sql("""
                SELECT id FROM jobs j WHERE status IN ('queued','running')
                AND NOT EXISTS (SELECT 1 FROM scheduled_tasks t WHERE t.task_name = ? AND t.task_instance = j.id)""")
                .param(JobQueue.TASK).query(String.class).list();
    }

    /** Removes the queue row of a job that will not run again. */
    public void dropExecution(String id) {
        db.sql("DELETE FROM scheduled_tasks WHERE task_name = ? AND task_instance = ?").params(JobQueue.TASK, id).update();
    }

    /** Deletes job records created before {@code before} (spec §8: kept 7 days). */
    public int deleteCreatedBefore(Instant before) {
        return db.sql("DELETE FROM jobs WHERE created_at < ?").param(before.toEpochMilli()).update();
    }

    private Job map(ResultSet rs, int row) throws SQLException {
        return new Job(rs.getString("id"), rs.getString("account_id"), rs.getString("operation"), JobStatus.of(rs.getString("status")),
                obj(rs.getString("input_json")), obj(rs.getString("output_json")), rs.getString("error_code"), rs.getString("error_message"),
                obj(rs.getString("progress_json")), obj(rs.getString("webhook_json")), instant(rs, "created_at"),
                instant(rs, "started_at"), instant(rs, "finished_at"));
    }

    private ObjectNode obj(String text) {
        return text == null ? null : (ObjectNode) json.readTree(text);
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(v);
    }
}
