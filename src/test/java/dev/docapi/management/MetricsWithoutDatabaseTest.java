package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.docapi.jobs.JobStore;
import dev.docapi.support.TcpProxy;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Metrics never wait on the database (issue 38): the queue gauges and readiness are read in the background, so a
 * Prometheus scrape answers at once while the database is gone — cut with {@link TcpProxy} in front of a real database
 * server (H2's TCP server), the pool configured as the service's (30 s for a connection). The gauges keep their last
 * values, their age grows, and readiness turns 0.
 */
@Isolated("bounds how long a scrape takes")
class MetricsWithoutDatabaseTest {

    @Test
    void aScrapeAnswersAtOnceWhileTheDatabaseIsGoneAndShowsItsAgeAndReadiness() throws Exception {
        Server h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        QueueMetrics queue = null;
        ReadinessMetrics readiness = null;
        try (TcpProxy proxy = new TcpProxy("127.0.0.1", h2.getPort()); HikariDataSource ds = new HikariDataSource()) {
            ds.setJdbcUrl("jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/mem:metrics" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
            ds.setUsername("sa");
            ds.setConnectionTimeout(30_000);
            ds.setInitializationFailTimeout(-1);
            JdbcClient db = JdbcClient.create(ds);
            db.sql("CREATE TABLE jobs (id VARCHAR(40), status VARCHAR(20), created_at BIGINT)").update();
            db.sql("INSERT INTO jobs VALUES ('job_1', 'queued', ?)").param(System.currentTimeMillis() - 5_000).update();

            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            queue = new QueueMetrics(new JobStore(db, JsonMapper.builder().build()));
            BoundedCheck database = ReadinessChecks.databaseCheck(ds);
            readiness = new ReadinessMetrics(Map.of("databaseHealthIndicator", (HealthIndicator) database::health), List.of("database"));
            queue.bindTo(registry);
            readiness.bindTo(registry);

            awaitValue(registry, "docapi_ready", 1.0, Duration.ofSeconds(20));
            awaitValue(registry, "docapi_queue_depth", 1.0, Duration.ofSeconds(20));
            assertThat(value(registry.scrape(), "docapi_queue_oldest_age_seconds")).isGreaterThanOrEqualTo(4.0);

            proxy.cut();
            long cutAt = System.nanoTime();
            String last = "";
            // at least 6 s (the queue's age must grow), and on until readiness turns 0: a check that hangs is DOWN
            // after BoundedCheck.LIMIT, which a loaded machine's background refresh may see seconds later (a CI run
            // here still read 1 after 6 s)
            while (System.nanoTime() - cutAt < Duration.ofSeconds(6).toNanos()
                    || (value(last, "docapi_ready") != 0.0 && System.nanoTime() - cutAt < Duration.ofSeconds(60).toNanos())) {
                long t = System.nanoTime();
                last = registry.scrape();
                assertThat(Duration.ofNanos(System.nanoTime() - t)).as("a scrape without the database").isLessThan(Duration.ofSeconds(1));
                Thread.sleep(250);
            }
            assertThat(value(last, "docapi_ready")).as("readiness without the database").isEqualTo(0.0);
            assertThat(value(last, "docapi_readiness_check{check=\"database\"}")).isEqualTo(0.0);
            assertThat(value(last, "docapi_queue_depth")).as("the last value read").isEqualTo(1.0);
            assertThat(value(last, "docapi_metrics_age_seconds{source=\"queue\"}")).as("its age").isGreaterThanOrEqualTo(3.0);
            assertThat(value(last, "docapi_metrics_age_seconds{source=\"readiness\"}")).as("readiness is read on").isLessThan(10.0);
        } finally {
            if (queue != null) queue.destroy();
            if (readiness != null) readiness.destroy();
            h2.stop();
        }
    }

    private static void awaitValue(PrometheusMeterRegistry registry, String series, double wanted, Duration limit) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        double v = Double.NaN;
        while (System.nanoTime() < end) {
            v = value(registry.scrape(), series);
            if (v == wanted) return;
            Thread.sleep(100);
        }
        throw new AssertionError(series + " is " + v + ", not " + wanted + ":\n" + registry.scrape());
    }

    /** The value of {@code series} (name and labels as scraped, the node label aside), NaN when absent. */
    private static double value(String scrape, String series) {
        String name = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
        String label = series.contains("{") ? series.substring(series.indexOf('{') + 1, series.length() - 1) : null;
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE).matcher(scrape);
        while (m.find()) {
            if (label == null || (m.group(1) != null && m.group(1).contains(label))) return Double.parseDouble(m.group(2));
        }
        return Double.NaN;
    }
}
