package dev.docapi.jobs;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * How jobs share this node's workers (issue 40 item 3), next to the {@code docapi.jobs} timer of {@link JobRunner}:
 * <ul>
 *   <li>{@code docapi.jobs.running{account_bucket}}: jobs running on this node by account bucket, the last character
 *       of the account id (62 values at most, whatever the number of accounts: an account id is no label). One bucket
 *       holding every worker while the queue is not empty is the unfairness to look for.</li>
 *   <li>{@code docapi.jobs.wait{operation}}: from admission to start, per operation.</li>
 *   <li>{@code docapi.jobs.abandoned}: work stopped at its deadline that still runs (in-JVM parsing that never looks
 *       at an interrupt); {@code docapi.jobs.deadline.exceeded{operation}}: jobs failed at their deadline.</li>
 * </ul>
 */
@Component
public class JobMetrics {
    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

    public JobMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("docapi.jobs.abandoned", BoundedWork::abandoned)
                .description("Work stopped at its job's deadline that is still running on this node").register(registry);
    }

    /** The bucket of an account: the last character of its id. */
    static String bucket(String accountId) {
        return accountId == null || accountId.isEmpty() ? "-" : accountId.substring(accountId.length() - 1);
    }

    /** A job of {@code accountId} started on this node, {@code waited} after its admission. */
    void started(String accountId, String operation, Duration waited) {
        Timer.builder("docapi.jobs.wait").description("How long jobs waited in the queue before they started")
                .tag("operation", operation).register(registry).record(waited.isNegative() ? Duration.ZERO : waited);
        running(accountId).incrementAndGet();
    }

    /** A job of {@code accountId} ended on this node (or was let go at its deadline). */
    void ended(String accountId) {
        running(accountId).decrementAndGet();
    }

    void deadlineExceeded(String operation) {
        registry.counter("docapi.jobs.deadline.exceeded", "operation", operation).increment();
    }

    private AtomicInteger running(String accountId) {
        return running.computeIfAbsent(bucket(accountId), b -> {
            AtomicInteger n = new AtomicInteger();
            Gauge.builder("docapi.jobs.running", n, AtomicInteger::get).tag("account_bucket", b)
                    .description("Jobs running on this node, by account bucket (the last character of the account id)").register(registry);
            return n;
        });
    }
}
