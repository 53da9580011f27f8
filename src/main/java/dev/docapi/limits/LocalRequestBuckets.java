package dev.docapi.limits;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Request buckets in this node's memory: the limit is per node, exact for the embedded H2 default (one node), and
 * the fallback of {@link SharedRequestBuckets} while the database fails. Memory stays bounded by the keys active in
 * the last few minutes: full buckets (idle keys) are forgotten every 5 minutes.
 */
final class LocalRequestBuckets implements RequestBuckets {
    private final int perMinute;
    private final TimeMeter clock;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    LocalRequestBuckets(int perMinute, TimeMeter clock) {
        this.perMinute = perMinute;
        this.clock = clock;
    }

    @Override
    public ConsumptionProbe tryConsume(String keyId) {
        return buckets.computeIfAbsent(keyId, k -> Bucket.builder()
                .addLimit(RequestBuckets.limit(perMinute)).withCustomTimePrecision(clock).build())
                .tryConsumeAndReturnRemaining(1);
    }

    @Override
    public int perMinute() {
        return perMinute;
    }

    @Override
    @Scheduled(fixedDelay = 300_000, initialDelay = 300_000)
    public void forgetIdle() {
        buckets.entrySet().removeIf(e -> e.getValue().getAvailableTokens() >= perMinute);
    }
}
