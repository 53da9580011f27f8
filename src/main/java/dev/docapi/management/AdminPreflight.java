package dev.docapi.management;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code bin/docapi admin} needs before it runs a command in a JVM of its own, when no service's admin API
 * answered (issue 38): the service's own existing database and its secret — never a new database. Before this, a
 * run without {@code DOCAPI_SECRET} in another directory silently made a new H2 database in {@code ./data} and
 * answered exit 0 with an empty account list, and a {@code create-account} run that way "succeeded" for an account
 * the service never saw.
 *
 * <ul>
 *   <li>Embedded database (no {@code DOCAPI_DATABASE_URL}): {@code $DOCAPI_DATA_DIR/db/docapi.mv.db} and the key file
 *   {@code $DOCAPI_DATA_DIR/secrets.key} (its password) exist.</li>
 *   <li>PostgreSQL: {@code DOCAPI_SECRET} is set, or the key file exists. The direct run then opens the database
 *   without migrating it ({@code spring.flyway.enabled=false}), so an empty database stays empty.</li>
 * </ul>
 */
public final class AdminPreflight {
    private AdminPreflight() {
    }

    /**
     * Why the secret of a direct run is not the service's, or empty: one sealed webhook secret in the database must open
     * with it (an AES-GCM tag check). A database with no sealed value yet cannot tell, and passes. Run before any
     * command, so a wrong {@code DOCAPI_SECRET} seals nothing the service could not open.
     *
     * @param open {@code SecretBox::open}: (sealed value, account id) → plain text, throwing when the key is another
     */
    public static Optional<String> wrongSecret(org.springframework.jdbc.core.simple.JdbcClient db,
                                               java.util.function.BinaryOperator<String> open) {
        Optional<String[]> sealed = db.sql("SELECT id, webhook_secret FROM accounts WHERE webhook_secret LIKE 'v2:%' LIMIT 1")
                .query((rs, i) -> new String[] {rs.getString(1), rs.getString(2)}).optional();
        if (sealed.isEmpty()) return Optional.empty();
        try {
            open.apply(sealed.get()[1], sealed.get()[0]);
            return Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.of("admin: DOCAPI_SECRET (or the key file in DOCAPI_DATA_DIR) is not the service's: it does not open the "
                    + "secrets stored in its database. Set the service's DOCAPI_SECRET. Nothing was changed.");
        }
    }

    /** Why the command cannot run directly with {@code env} (one line for stderr), or empty when it can. */
    public static Optional<String> missing(Map<String, String> env) {
        Path data = Path.of(env.getOrDefault("DOCAPI_DATA_DIR", "./data")).toAbsolutePath().normalize();
        Path keyFile = data.resolve("secrets.key");
        String port = env.getOrDefault("DOCAPI_MANAGEMENT_PORT", "8081");
        String why = "admin: no docapi service answered on 127.0.0.1:" + port + " (DOCAPI_MANAGEMENT_PORT; start the service, or set "
                + "DOCAPI_MANAGEMENT_PORT to its management port), and ";
        boolean postgres = !env.getOrDefault("DOCAPI_DATABASE_URL", "").isBlank();
        boolean secret = !env.getOrDefault("DOCAPI_SECRET", "").isBlank();
        if (!postgres) {
            Path db = data.resolve("db").resolve("docapi.mv.db");
            if (!Files.exists(db)) {
                return Optional.of(why + "there is no service database at " + db + ": set DOCAPI_DATA_DIR to the service's data "
                        + "directory, or DOCAPI_DATABASE_URL (and DOCAPI_SECRET) to its PostgreSQL database. Nothing was created.");
            }
            if (!Files.isReadable(keyFile)) {
                return Optional.of(why + keyFile + " (the embedded database's key file) is missing or unreadable. Nothing was created.");
            }
        } else if (!secret && !Files.isReadable(keyFile)) {
            return Optional.of(why + "DOCAPI_SECRET is not set (nor is there a key file at " + keyFile + "): set DOCAPI_SECRET to "
                    + "the service's secret. Nothing was created.");
        }
        return Optional.empty();
    }
}
