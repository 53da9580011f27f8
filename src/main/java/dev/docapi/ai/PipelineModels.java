package dev.docapi.ai;

import java.util.EnumMap;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The model an account chose for each pipeline on the developer area's provider keys page (table
 * {@code pipeline_models}); {@link ModelCatalog} uses it when a request names no {@code model}.
 */
@Service
public class PipelineModels {
    private final JdbcClient db;

    public PipelineModels(JdbcClient db) {
        this.db = db;
    }

    /** The account's choices; a pipeline without one is absent. */
    public Map<Pipeline, String> chosen(String accountId) {
        Map<Pipeline, String> out = new EnumMap<>(Pipeline.class);
        db.sql("SELECT pipeline, model FROM pipeline_models WHERE account_id = ?").param(accountId).query(rs -> {
            for (Pipeline p : Pipeline.values()) if (p.id().equals(rs.getString(1))) out.put(p, rs.getString(2));
        });
        return out;
    }

    /** Stores the account's choice for the pipeline; null goes back to the service's default. */
    public void choose(String accountId, Pipeline pipeline, String model) {
        db.sql("DELETE FROM pipeline_models WHERE account_id = ? AND pipeline = ?").params(accountId, pipeline.id()).update();
        if (model != null) {
            db.sql("INSERT INTO pipeline_models(account_id, pipeline, model) VALUES (?,?,?)").params(accountId, pipeline.id(), model).update();
        }
    }
}
