package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.AccountService;
import dev.docapi.config.DocapiProperties;
import dev.docapi.support.ApiTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Secrets at rest and the embedded database (issue 10): nothing secret is stored in clear in the database, the key
 * file and the data dir are private to the service's user, and the embedded database refuses {@code SA} without its
 * password.
 */
class SecretsAtRestTest extends ApiTestBase {
    @Autowired
    JdbcClient db;
    @Autowired
    DocapiProperties props;
    @Autowired
    AccountService accountService;

    @Test
    void webhookSecretsAreSealedAndNoServiceSecretIsInTheDatabase() throws Exception {
        String apiKey = newKey();
        var account = accountService.authenticate(apiKey).orElseThrow();
        String stored = db.sql("SELECT webhook_secret FROM accounts WHERE id = ?").param(account.id()).query(String.class).single();
        assertThat(stored).startsWith("v2:").doesNotContain(account.webhookSecret());
        assertThat(account.webhookSecret()).startsWith("whsec_");
        assertThat(db.sql("SELECT COUNT(*) FROM service_secrets").query(Integer.class).single()).isZero();

        // the database file itself (WRITE_DELAY=0: committed rows are on disk) holds neither in clear
        db.sql("CHECKPOINT SYNC").update();
        String file = new String(Files.readAllBytes(props.dataDir().toAbsolutePath().normalize().resolve("db/docapi.mv.db")),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(file).doesNotContain(account.webhookSecret()).doesNotContain(apiKey);
    }

    @Test
    void theKeyFileAndTheDataDirArePrivate() throws Exception {
        Path dir = props.dataDir().toAbsolutePath();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("secrets.key")))).isEqualTo("rw-------");
    }

    @Test
    void theEmbeddedDatabaseRefusesSaWithoutItsPassword() {
        String url = "jdbc:h2:async:" + props.dataDir().toAbsolutePath().normalize().resolve("db/docapi") + ";WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE";
        try (var c = DriverManager.getConnection(url, "sa", "")) {
            throw new AssertionError("SA connected with an empty password");
        } catch (SQLException e) {
            assertThat(e.getErrorCode()).isEqualTo(org.h2.api.ErrorCode.WRONG_USER_OR_PASSWORD);
        }
    }
}
