package dev.docapi.jobs;

import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.JdbcTaskRepositoryContext;
import com.github.kagkarlsson.scheduler.task.Execution;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * How a node claims queued jobs: fair between accounts (issue 40 item 3), in the shared database, so the rule holds
 * on one node and across nodes alike. It replaces db-scheduler's own claim query ({@code lock-and-fetch}) and leaves
 * the rest of db-scheduler (heartbeats, dead executions, completion) as it is.
 *
 * <p>The rule, for a node of {@code W} workers ({@code DOCAPI_WORKERS}) and an account share of {@code S}
 * ({@code DOCAPI_MAX_WORKERS_PER_ACCOUNT}, default {@code W/2}, at least 1):
 * <ol>
 *   <li>The next free worker takes the oldest job of the account with the fewest jobs running on this node (ties: the
 *       fewest running on all nodes, then the higher admission priority, then the oldest).</li>
 *   <li>While fewer than {@code W} jobs run here, any queued job may start: a lone account uses every worker, and
 *       with several accounts queued the ordering above gives the workers to the ones below their share first.</li>
 *   <li>An account over its share holds workers it borrowed while no one else was waiting. Each of them is lent back
 *       at once: a job of an account below its share starts beside them, so the node then runs up to
 *       {@code W + (W - S)} jobs until the borrowed ones end (in-JVM work cannot be paused, and a job of a quiet
 *       account must not wait minutes behind a busy one's long jobs).</li>
 * </ol>
 * A job counts as running on the node whose name is in its queue row's {@code picked_by} (db-scheduler cuts the
 * name at 50 characters). One claim takes one row: on PostgreSQL the candidate row is locked with
 * {@code FOR UPDATE SKIP LOCKED}, elsewhere (H2) it is taken by a versioned update, and a lost race tries the next.
 * A node's claims are made one at a time (db-scheduler's single due-executions thread), so its counts are exact.
 */
final class FairClaim implements JdbcCustomization {
    /** db-scheduler stores at most this much of a node's name in {@code picked_by}. */
    private static final int PICKED_BY_LENGTH = 50;
    /** Per account with queue rows claimed: how many on this node ({@code here}), how many on all ({@code everywhere}). */
    private static final String HELD = """
            SELECT hj.account_id AS account_id, SUM(CASE WHEN ht.picked_by = :node THEN 1 ELSE 0 END) AS here, COUNT(*) AS everywhere
            FROM scheduled_tasks ht JOIN jobs hj ON hj.id = ht.task_instance
            WHERE ht.task_name = :task AND ht.picked = TRUE
            GROUP BY hj.account_id""";
    private static final String CANDIDATE = """
            SELECT t.task_instance, t.version FROM scheduled_tasks t
            LEFT JOIN jobs j ON j.id = t.task_instance
            LEFT JOIN (%1$s) h ON h.account_id = j.account_id
            CROSS JOIN (SELECT COALESCE(SUM(x.here), 0) AS busy,
                               COALESCE(SUM(CASE WHEN x.here > :share THEN x.here - :share ELSE 0 END), 0) AS lent
                        FROM (%1$s) x) n
            WHERE t.task_name = :task AND t.picked = FALSE AND t.execution_time <= :now
              AND (n.busy < :workers OR (COALESCE(h.here, 0) < :share AND n.busy < :workers + n.lent))
            ORDER BY COALESCE(h.here, 0), COALESCE(h.everywhere, 0), t.priority DESC, t.execution_time, t.task_instance
            FETCH FIRST 1 ROWS ONLY""".formatted(HELD);
    /** Tries of one claim before it gives up for this poll (each lost race to another node costs one). */
    private static final int RACES = 8;

    private final DataSource dataSource;
    private final JdbcCustomization delegate;
    private final boolean postgres;
    private final String node;
    private final int workers;
    private final int share;

    /**
     * @param delegate  db-scheduler's customization for this database, used for everything but the claim
     * @param node      this node's scheduler name (cut as db-scheduler cuts it)
     * @param workers   {@code DOCAPI_WORKERS}
     * @param share     {@code DOCAPI_MAX_WORKERS_PER_ACCOUNT}, 1 to {@code workers}
     */
    FairClaim(DataSource dataSource, JdbcCustomization delegate, boolean postgres, String node, int workers, int share) {
        this.dataSource = dataSource;
        this.delegate = delegate;
        this.postgres = postgres;
        this.node = node.length() > PICKED_BY_LENGTH ? node.substring(0, PICKED_BY_LENGTH) : node;
        this.workers = workers;
        this.share = share;
    }

    /** Threads the node's scheduler needs: its workers, and one more for each worker an account can borrow. */
    static int threads(int workers, int share) {
        return workers + (workers - share);
    }

    @Override
    public boolean supportsSingleStatementLockAndFetch() {
        return true;
    }

    @Override
    public List<Execution> lockAndFetchSingleStatement(JdbcTaskRepositoryContext ctx, Instant now, int limit, boolean orderByPriority) {
        List<Execution> picked = new ArrayList<>();
        while (picked.size() < limit) {
            Optional<String> id = claim(now);
            if (id.isEmpty()) break;
            picked.addAll(ctx.jdbcRunner.query("SELECT * FROM " + ctx.tableName + " WHERE task_name = ? AND task_instance = ?", ps -> {
                ps.setString(1, JobQueue.TASK);
                ps.setString(2, id.get());
            }, ctx.resultSetMapper.get()));
        }
        return picked;
    }

    /**
     * Claims the one queue row the rule gives this node's next free worker, as of {@code now}.
     *
     * @return the claimed job's id; empty when no queued job may start here now
     */
    Optional<String> claim(Instant now) {
        for (int race = 0; race < RACES; race++) {
            try (Connection c = dataSource.getConnection()) {
                boolean autoCommit = c.getAutoCommit();
                c.setAutoCommit(false);
                try {
                    Optional<String> id = claimIn(c, now);
                    c.commit();
                    if (id == null) continue; // another node took it first
                    return id;
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                } finally {
                    c.setAutoCommit(autoCommit);
                }
            } catch (SQLException e) {
                throw new org.springframework.dao.DataAccessResourceFailureException("claiming a job failed", e);
            }
        }
        return Optional.empty();
    }

    /** One try on {@code c}, in a transaction: the row claimed, empty when none may start, null when a race was lost. */
    private Optional<String> claimIn(Connection c, Instant now) throws SQLException {
        JdbcClient db = JdbcClient.create(new SingleConnectionDataSource(c, true));
        // PostgreSQL skips rows another node is claiming; on H2 the versioned update below loses a race instead, and
        // the next try no longer sees the row another node took
        String sql = postgres ? CANDIDATE + " FOR UPDATE OF t SKIP LOCKED" : CANDIDATE;
        record Row(String id, long version) {
        }
        Optional<Row> row = db.sql(sql)
                .param("node", node).param("task", JobQueue.TASK).param("share", share).param("workers", workers)
                .param("now", java.time.OffsetDateTime.ofInstant(now, java.time.ZoneOffset.UTC))
                .query((ResultSet rs, int i) -> new Row(rs.getString(1), rs.getLong(2))).optional();
        if (row.isEmpty()) return Optional.empty();
        int n = db.sql("""
                UPDATE scheduled_tasks SET picked = TRUE, picked_by = :node, last_heartbeat = :now, version = version + 1
                WHERE task_name = :task AND task_instance = :id AND version = :version AND picked = FALSE""")
                .param("node", node).param("now", java.time.OffsetDateTime.ofInstant(now, java.time.ZoneOffset.UTC))
                .param("task", JobQueue.TASK).param("id", row.get().id()).param("version", row.get().version()).update();
        return n == 1 ? Optional.of(row.get().id()) : null;
    }

    // Everything else is db-scheduler's own behaviour for this database.

    @Override
    public String getName() {
        return delegate.getName() + " (fair claim)";
    }

    @Override
    public void setInstant(PreparedStatement p, int index, Instant value) throws SQLException {
        delegate.setInstant(p, index, value);
    }

    @Override
    public Instant getInstant(ResultSet rs, String columnName) throws SQLException {
        return delegate.getInstant(rs, columnName);
    }

    @Override
    public void setTaskData(PreparedStatement p, int index, byte[] value) throws SQLException {
        delegate.setTaskData(p, index, value);
    }

    @Override
    public byte[] getTaskData(ResultSet rs, String columnName) throws SQLException {
        return delegate.getTaskData(rs, columnName);
    }

    @Override
    public boolean supportsExplicitQueryLimitPart() {
        return delegate.supportsExplicitQueryLimitPart();
    }

    @Override
    public String getQueryLimitPart(int limit) {
        return delegate.getQueryLimitPart(limit);
    }

    @Override
    public boolean supportsGenericLockAndFetch() {
        return false;
    }

    @Override
    public String createGenericSelectForUpdateQuery(String tableName, int limit, String requiredAndCondition, boolean orderByPriority) {
        throw new UnsupportedOperationException("claims are made by FairClaim.lockAndFetchSingleStatement");
    }

    @Override
    public String createSelectDueQuery(String tableName, int limit, String andCondition, boolean orderByPriority) {
        return delegate.createSelectDueQuery(tableName, limit, andCondition, orderByPriority);
    }
}
