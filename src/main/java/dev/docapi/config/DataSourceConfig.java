package dev.docapi.config;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.h2.api.ErrorCode;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The database: PostgreSQL when {@code DOCAPI_DATABASE_URL} is set, otherwise an embedded H2 file under the
 * data directory, opened by this process alone ({@code bin/docapi admin} reaches a running service through its admin
 * API, issue 24; H2's AUTO_SERVER would forbid {@code DB_CLOSE_ON_EXIT=FALSE}, below), with WRITE_DELAY=0 so that a
 * committed job survives the process being killed (H2 otherwise writes up to 500 ms late) and DB_CLOSE_ON_EXIT=FALSE so
 * that H2's own shutdown hook does not close the database at SIGTERM under the jobs still draining (they could not
 * record their end); it closes with the connection pool, when the service's context does.
 * The embedded database is private (issue 10): it listens on no port, user {@code SA} has the
 * random password of the 0600 key file ({@link MasterKey}; a database made before that gets it at the next start),
 * and its files lie in the 0700 data dir. Its files are read and written through H2's {@code async:} file system,
 * which an interrupted thread cannot close.
 */
@Configuration
@EnableConfigurationProperties(DocapiProperties.class)
public class DataSourceConfig {
    @Bean
    DataSource dataSource(DocapiProperties props, MasterKey key) throws SQLException {
        HikariDataSource ds = new HikariDataSource();
        if (props.databaseUrl() != null && !props.databaseUrl().isBlank()) {
            ds.setJdbcUrl(props.databaseUrl());
            if (props.databaseUser() != null && !props.databaseUser().isBlank()) ds.setUsername(props.databaseUser());
            if (props.databasePassword() != null && !props.databasePassword().isBlank()) ds.setPassword(props.databasePassword());
        } else {
            String path = props.dataDir().toAbsolutePath().normalize().resolve("db").resolve("docapi").toString();
            // "async:" reads and writes through an AsynchronousFileChannel: a thread interrupted while writing (a
            // job's, when the service stops past its grace) keeps its interrupt, where H2's default FileChannel
            // would close the database for every connection
            String url = "jdbc:h2:async:" + path + ";WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE";
            adoptPassword(url, key.databasePassword());
            ds.setJdbcUrl(url);
            ds.setUsername("sa");
            ds.setPassword(key.databasePassword());
        }
        ds.setMaximumPoolSize(props.poolSize());
        // A burst waits for a connection at most this long (HikariCP's default); past it the request answers 503,
        // never a 500. 10 s was too short: 200 simultaneous requests on a cold JVM with 2 cores waited longer for
        // their first connection (the requests already past authentication take the freed ones first).
        ds.setConnectionTimeout(30_000);
        ds.setPoolName("docapi");
        return ds;
    }

    /** Gives {@code SA} the key file's password when the database still has the empty one of older versions. */
    private static void adoptPassword(String url, String password) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", password)) {
            return;
        } catch (SQLException e) {
            if (e.getErrorCode() != ErrorCode.WRONG_USER_OR_PASSWORD) throw e;
        }
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            s.execute("ALTER USER SA SET PASSWORD '" + password.replace("'", "''") + "'");
        }
    }
}
