package dev.docapi.management;

import dev.docapi.jobs.JobStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.time.Instant;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The signal to scale on (issue 24): {@code docapi_queue_depth} (jobs queued and not started, on every node: the
 * queue is shared) and {@code docapi_queue_oldest_age_seconds} (how long the oldest of them has waited, 0 when none).
 * Read from the database in the background every second ({@link Refresh}; issue 38), never during a scrape: while the
 * database cannot be read they keep their last values and {@code docapi_metrics_age_seconds{source="queue"}} grows
 * (NaN before the first read). Every node reports the same values: use {@code max} across nodes, not {@code sum}.
 */
@Component
class QueueMetrics implements MeterBinder, DisposableBean {
    private final JobStore jobs;
    private volatile JobStore.QueueStats last;
    private Refresh refresh;

    QueueMetrics(JobStore jobs) {
        this.jobs = jobs;
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        if (refresh == null) refresh = new Refresh("queue", () -> last = jobs.queueStats());
        Gauge.builder("docapi.queue.depth", this, m -> m.last == null ? Double.NaN : m.last.queued())
                .description("Jobs queued and not yet started, on all nodes").register(registry);
        Gauge.builder("docapi.queue.oldest.age", this, QueueMetrics::oldestAgeSeconds).baseUnit("seconds")
                .description("How long the oldest queued job has waited").register(registry);
        refresh.bindAge(registry);
    }

    private double oldestAgeSeconds() {
        JobStore.QueueStats s = last;
        if (s == null) return Double.NaN;
        return s.oldest() == null ? 0 : Math.max(0, Duration.between(s.oldest(), Instant.now()).toMillis() / 1000.0);
    }

    @Override
    public synchronized void destroy() {
        if (refresh != null) refresh.close();
    }
}
