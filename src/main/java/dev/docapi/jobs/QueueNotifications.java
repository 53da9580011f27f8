package dev.docapi.jobs;

import dev.docapi.config.DocapiProperties;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Pickup at once on every node (issue 25 item 4): on PostgreSQL, admission sends {@code NOTIFY docapi_jobs} in the
 * admitting transaction (delivered when it commits), and every node keeps one connection of its own listening, which
 * wakes its queue: an idle node claims a job queued on another within milliseconds instead of at its next poll
 * (500 ms). Polling stays the fallback: a lost connection is re-opened with back-off, and nothing is lost meanwhile.
 */
final class QueueNotifications {
    private static final Logger log = LoggerFactory.getLogger(QueueNotifications.class);
    static final String CHANNEL = "docapi_jobs";
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final DocapiProperties props;
    private final Runnable wake;
    private volatile Thread listener;
    private volatile Connection connection;

    QueueNotifications(DocapiProperties props, Runnable wake) {
        this.props = props;
        this.wake = wake;
    }

    /** Sends the notification inside the caller's transaction ({@code db} joins it). */
    static void notifyQueued(JdbcClient db) {
        db.sql("NOTIFY " + CHANNEL).update();
    }

    /** Starts listening on a virtual thread. */
    synchronized void start() {
        if (listener != null) return;
        listener = Thread.ofVirtual().name("queue-notifications").start(this::listen);
    }

    synchronized void stop() {
        Thread t = listener;
        listener = null;
        if (t != null) t.interrupt();
        closeQuietly(connection);
    }

    private void listen() {
        long backoff = 500;
        while (listener == Thread.currentThread()) {
            try (Connection c = open(); Statement s = c.createStatement()) {
                connection = c;
                s.execute("LISTEN " + CHANNEL);
                backoff = 500;
                wake.run(); // a job queued while no one listened
                PGConnection pg = c.unwrap(PGConnection.class);
                while (listener == Thread.currentThread()) {
                    var notifications = pg.getNotifications((int) WAIT.toMillis());
                    if (notifications != null && notifications.length > 0) wake.run();
                }
            } catch (SQLException e) {
                if (listener != Thread.currentThread()) return;
                log.warn("queue notifications unavailable ({}); polling meanwhile, retrying in {} ms", e.getMessage(), backoff);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException stopped) {
                    return;
                }
                backoff = Math.min(MAX_BACKOFF.toMillis(), backoff * 2);
            }
        }
    }

    /** A connection of its own (a pooled one would be held for ever and recycled under the listener). */
    private Connection open() throws SQLException {
        Properties p = new Properties();
        if (props.databaseUser() != null && !props.databaseUser().isBlank()) p.setProperty("user", props.databaseUser());
        if (props.databasePassword() != null && !props.databasePassword().isBlank()) p.setProperty("password", props.databasePassword());
        p.setProperty("ApplicationName", "docapi queue notifications");
        p.setProperty("tcpKeepAlive", "true");
        return DriverManager.getConnection(props.databaseUrl(), p);
    }

    private static void closeQuietly(Connection c) {
        if (c == null) return;
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing a broken connection
        }
    }
}
