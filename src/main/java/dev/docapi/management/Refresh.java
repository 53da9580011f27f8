package dev.docapi.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value read in the background (issue 38: a Prometheus scrape never waits on a dependency): {@code task} runs on a
 * virtual thread of its own, again {@link #EVERY} after each run ends, however long a run hangs (a database that is
 * gone holds it up to the pool's 30 s). Gauges read what the last run left and export its age as
 * {@code docapi_metrics_age_seconds{source}}: seconds since the last run that succeeded (NaN before the first).
 */
final class Refresh implements AutoCloseable {
    static final Duration EVERY = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(Refresh.class);
    private final String source;
    private final Runnable task;
    private final Thread thread;
    private volatile long succeededAt = -1;

    /** Starts refreshing: {@code task} throws when it could not read its values (they stay as they were). */
    Refresh(String source, Runnable task) {
        this.source = source;
        this.task = task;
        this.thread = Thread.ofVirtual().name("metrics-" + source).start(this::loop);
    }

    private void loop() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                task.run();
                succeededAt = System.nanoTime();
            } catch (RuntimeException e) {
                log.debug("metrics: {} could not be read: {}", source, e.toString());
            }
            try {
                Thread.sleep(EVERY);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Seconds since the last successful run; NaN before the first. */
    double ageSeconds() {
        long at = succeededAt;
        return at < 0 ? Double.NaN : (System.nanoTime() - at) / 1e9;
    }

    /** Registers {@code docapi_metrics_age_seconds{source}}. */
    void bindAge(MeterRegistry registry) {
        Gauge.builder("docapi.metrics.age", this, Refresh::ageSeconds).baseUnit("seconds").tag("source", source)
                .description("Seconds since the values of this source were last read (they are read in the background every second)")
                .register(registry);
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
