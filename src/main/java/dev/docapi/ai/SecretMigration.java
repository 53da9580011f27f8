package dev.docapi.ai;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Brings secrets stored by older versions under the master key at start-up (issue 10): provider keys and workflow
 * steps sealed under the old key ({@code v1:}), and webhook signing secrets kept in clear, are re-sealed
 * ({@code v2:}); then the secrets older versions kept in the {@code service_secrets} table are deleted. Each row is
 * updated only if it still holds the old value, so nodes starting together do no harm.
 */
@Component
class SecretMigration {
    private static final Logger log = LoggerFactory.getLogger(SecretMigration.class);

    /** Table, key column, sealed column, account column. */
    private record Sealed(String table, String id, String column, String account) {
    }

    private static final List<Sealed> SEALED = List.of(new Sealed("provider_keys", "id", "key_sealed", "account_id"),
            new Sealed("workflows", "id", "steps_json", "account_id"), new Sealed("accounts", "id", "webhook_secret", "id"));

    SecretMigration(JdbcClient db, SecretBox box) {
        int resealed = 0;
        for (Sealed s : SEALED) {
            List<String[]> rows = db.sql("SELECT " + s.id() + ", " + s.column() + ", " + s.account() + " FROM " + s.table()
                    + " WHERE " + s.column() + " NOT LIKE 'v2:%'").query((rs, n) -> new String[]{rs.getString(1), rs.getString(2), rs.getString(3)}).list();
            for (String[] r : rows) {
                String plain = s.table().equals("accounts") && r[1].startsWith("whsec_") ? r[1] : box.open(r[1], r[2]);
                resealed += db.sql("UPDATE " + s.table() + " SET " + s.column() + " = ? WHERE " + s.id() + " = ? AND " + s.column() + " = ?")
                        .params(box.seal(plain, r[2]), r[0], r[1]).update();
            }
        }
        int dropped = db.sql("DELETE FROM service_secrets").update();
        if (resealed + dropped > 0) log.info("secrets: {} re-sealed under the master key, {} old service secrets deleted from the database", resealed, dropped);
    }
}
