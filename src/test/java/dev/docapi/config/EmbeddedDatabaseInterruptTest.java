package dev.docapi.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A thread interrupted while it writes to the embedded database must not close that database for everyone. A job's
 * thread is interrupted when the service stops past its grace and then records the job as {@code interrupted}; with
 * H2's default file channel that write closed the whole database ("The database has been closed", seen in CI when
 * one test context stopped while another ran).
 */
class EmbeddedDatabaseInterruptTest {

    @Test
    void anInterruptedWriterLeavesTheDatabaseOpenAndKeepsItsInterruptFlag(@TempDir Path dataDir) throws Exception {
        DocapiProperties props = new DocapiProperties(0, dataDir, null, null, null, null, 1, false, Duration.ofSeconds(1), 0, 0, null);
        try (HikariDataSource ds = (HikariDataSource) new DataSourceConfig().dataSource(props, new MasterKey(props, ""))) {
            JdbcClient db = JdbcClient.create(ds);
            db.sql("CREATE TABLE notes (n INT)").update();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread writer = Thread.ofVirtual().start(() -> {
                Thread.currentThread().interrupt();
                for (int i = 0; i < 50; i++) db.sql("INSERT INTO notes VALUES (?)").param(i).update();
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
            writer.join();

            assertThat(db.sql("SELECT COUNT(*) FROM notes").query(Integer.class).single()).isEqualTo(50);
            assertThat(stillInterrupted).as("the job still sees that it was asked to stop").isTrue();
            assertThat(Files.exists(dataDir.resolve("db/docapi.mv.db"))).isTrue();
        }
    }
}
