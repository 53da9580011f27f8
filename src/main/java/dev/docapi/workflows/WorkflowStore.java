package dev.docapi.workflows;

import dev.docapi.crypto.SecretBox;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.config.Ids;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * Saved workflows in the database (spec §4.3): at most {@link #MAX_PER_ACCOUNT} per account. Steps may hold
 * passwords (a {@code protect} step), so they are stored sealed with AES-GCM ({@link SecretBox}), never in clear.
 */
@Repository
public class WorkflowStore {
    public static final int MAX_PER_ACCOUNT = 50;
    private final JdbcClient db;
    private final JsonMapper json;
    private final SecretBox box;

    public WorkflowStore(JdbcClient db, JsonMapper json, SecretBox box) {
        this.db = db;
        this.json = json;
        this.box = box;
    }

    /**
     * @throws ApiException 400 {@code invalid_request} when the account already has 50 workflows
     */
    public synchronized Workflow create(String accountId, String name, ArrayNode steps) {
        int count = db.sql("SELECT COUNT(*) FROM workflows WHERE account_id = ?").param(accountId).query(Integer.class).single();
        if (count >= MAX_PER_ACCOUNT) {
            throw ApiException.invalid("an account can save at most " + MAX_PER_ACCOUNT + " workflows; delete one first");
        }
        Workflow w = new Workflow(Ids.newId("wf_"), accountId, name, steps, Instant.now());
        db.sql("INSERT INTO workflows(id, account_id, name, steps_json, created_at) VALUES (?,?,?,?,?)")
                .params(w.id(), accountId, name, box.seal(json.writeValueAsString(steps), accountId), w.createdAt().toEpochMilli()).update();
        return w;
    }

    /** @throws ApiException 404 {@code not_found} for an unknown workflow or another account's */
    public Workflow get(String accountId, String id) {
        return db.sql("SELECT * FROM workflows WHERE id = ? AND account_id = ?").params(id, accountId).query(this::map).optional()
                .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "no workflow '" + id + "'"));
    }

    /** The account's workflows, newest first. */
    public List<Workflow> list(String accountId) {
        return db.sql("SELECT * FROM workflows WHERE account_id = ? ORDER BY created_at DESC, id DESC").param(accountId).query(this::map).list();
    }

    /** @throws ApiException 404 {@code not_found} as {@link #get} */
    public void delete(String accountId, String id) {
        if (db.sql("DELETE FROM workflows WHERE id = ? AND account_id = ?").params(id, accountId).update() == 0) {
            throw new ApiException(ErrorCode.NOT_FOUND, "no workflow '" + id + "'");
        }
    }

    private Workflow map(ResultSet rs, int row) throws SQLException {
        return new Workflow(rs.getString("id"), rs.getString("account_id"), rs.getString("name"),
                (ArrayNode) json.readTree(box.open(rs.getString("steps_json"), rs.getString("account_id"))), Instant.ofEpochMilli(rs.getLong("created_at")));
    }
}
