package dev.docapi.crypto;

import dev.docapi.config.MasterKey;
import java.io.IOException;
import java.util.List;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Re-seals the stored secrets (issue 10): provider keys, saved workflow steps and webhook signing secrets.
 *
 * <p>At start-up it brings values of older versions under the master key: seals of the old key ({@code v1:}) and
 * webhook secrets kept in clear become {@code v2:}, and the secrets older versions kept in {@code service_secrets}
 * are deleted. Each row is updated only if it still holds the value read, so nodes starting together do no harm.
 *
 * <p>{@link #rotate} ({@code bin/docapi admin rotate-master-key}) re-seals every value under a new master key in one
 * transaction and then stores the new key; running services must be restarted (with the new {@code DOCAPI_SECRET}
 * when that is where the key comes from).
 */
@Component
public class SecretMigration {
    private static final Logger log = LoggerFactory.getLogger(SecretMigration.class);

    /** Where sealed values live: table, key column, sealed column, account column (the associated data). */
    private record Sealed(String table, String id, String column, String account) {
    }

    private static final List<Sealed> SEALED = List.of(new Sealed("provider_keys", "id", "key_sealed", "account_id"),
            new Sealed("workflows", "id", "steps_json", "account_id"), new Sealed("accounts", "id", "webhook_secret", "id"));

    private final JdbcClient db;
    private final SecretBox box;
    private final MasterKey master;
    private final TransactionTemplate tx;

    SecretMigration(JdbcClient db, SecretBox box, MasterKey master, TransactionTemplate tx) {
        this.db = db;
        this.box = box;
        this.master = master;
        this.tx = tx;
        int resealed = reseal(" WHERE %s NOT LIKE 'v2:%%'", box);
        int dropped = db.sql("DELETE FROM service_secrets").update();
        if (resealed + dropped > 0) log.info("secrets: {} re-sealed under the master key, {} old service secrets deleted from the database", resealed, dropped);
    }

    /**
     * Re-seals every stored secret under a new master key and stores that key ({@code secrets.key}), or, when
     * {@code newSecret} is given (the operator's {@code DOCAPI_SECRET}), under that secret.
     *
     * @return how many values were re-sealed
     */
    public int rotate(String newSecret) throws IOException {
        MasterKey.Rotation next = master.next(newSecret);
        SecretBox newBox = new SecretBox(next.key(SecretBox.PURPOSE));
        next.prepare();
        Integer count;
        try {
            count = tx.execute(status -> reseal("", newBox));
        } catch (RuntimeException e) {
            next.abandon();
            throw e;
        }
        next.commit();
        return count == null ? 0 : count;
    }

    /** Opens each selected value with the current box and seals it with {@code into}; {@code filter} is a WHERE clause. */
    private int reseal(String filter, SecretBox into) {
        int n = 0;
        for (Sealed s : SEALED) {
            List<String[]> rows = db.sql("SELECT " + s.id() + ", " + s.column() + ", " + s.account() + " FROM " + s.table()
                    + filter.formatted(s.column())).query((rs, i) -> new String[]{rs.getString(1), rs.getString(2), rs.getString(3)}).list();
            for (String[] r : rows) {
                UnaryOperator<String> open = v -> s.table().equals("accounts") && v.startsWith("whsec_") ? v : box.open(v, r[2]);
                n += db.sql("UPDATE " + s.table() + " SET " + s.column() + " = ? WHERE " + s.id() + " = ? AND " + s.column() + " = ?")
                        .params(into.seal(open.apply(r[1]), r[2]), r[0], r[1]).update();
            }
        }
        return n;
    }
}
