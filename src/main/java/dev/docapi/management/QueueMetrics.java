package dev.docapi.management;

import dev.docapi.jobs.JobStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.time.Instant;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * The signal to scale on (issue 24): {@code docapi_queue_depth} (jobs queued and not started, on every node: the
 * queue is shared) and {@code docapi_queue_oldest_age_seconds} (how long the oldest of them has waited, 0 when none).
 * Read from the database at most once a second; NaN while it cannot be read. Every node reports the same values: use
 * {@code max} across nodes, not {@code sum}.
 */
@Component
class QueueMetrics implements MeterBinder {
    private static final Duration FRESH = Duration.ofSeconds(1);
    private final JobStore jobs;
    private JobStore.QueueStats last;
    private long readAt;

    QueueMetrics(JobStore jobs) {
        this.jobs = jobs;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("docapi.queue.depth", this, m -> m.stats() == null ? Double.NaN : m.stats().queued())
                .description("Jobs queued and not yet started, on all nodes").register(registry);
        Gauge.builder("docapi.queue.oldest.age", this, QueueMetrics::oldestAgeSeconds).baseUnit("seconds")
                .description("How long the oldest queued job has waited").register(registry);
    }

    private double oldestAgeSeconds() {
        JobStore.QueueStats s = stats();
        if (s == null) return Double.NaN;
        return s.oldest() == null ? 0 : Math.max(0, Duration.between(s.oldest(), Instant.now()).toMillis() / 1000.0);
    }

    private synchronized JobStore.QueueStats stats() {
        if (last == null || System.nanoTime() - readAt > FRESH.toNanos()) {
            try {
                last = jobs.queueStats();
            } catch (DataAccessException e) {
                last = null;
            }
            readAt = System.nanoTime();
        }
        return last;
    }
}
