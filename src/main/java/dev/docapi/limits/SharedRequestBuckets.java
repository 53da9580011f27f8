package dev.docapi.limits;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Request buckets shared by all nodes through PostgreSQL (issue 15): one row per key in {@code rate_limit_buckets}
 * (migration V61), read and written by Bucket4j's PostgreSQL proxy manager, so N nodes together allow
 * {@link #perMinute()} per key, not N times it.
 *
 * <p>Lock strategy: {@code SELECT ... FOR UPDATE} on the key's row, not {@code pg_advisory_xact_lock}. The row lock
 * touches only this table, whereas advisory locks share one 64-bit namespace with every other user of the database
 * (the queue and admission may take them) and would force hashing the key prefix to a number; with row locks the
 * id column keeps the prefix itself ({@code VARCHAR}), so keys never collide. The cost, one {@code INSERT ... ON
 * CONFLICT DO NOTHING} the first time a key is seen, is paid once per key.
 *
 * <p>Bounded: a row's {@code expires_at} is set to when its bucket will be full again; every 5 minutes rows past it
 * are deleted ({@code removeExpired}, in batches, {@code SKIP LOCKED} so nodes do not contend).
 *
 * <p>Database errors fail open to this node's own buckets ({@link LocalRequestBuckets}): a request is never turned
 * into a 500 by the limiter, and while the database fails the limit is per node. One warning is logged when the
 * shared buckets start failing, one line when they work again.
 */
final class SharedRequestBuckets implements RequestBuckets {
    private static final Logger log = LoggerFactory.getLogger(SharedRequestBuckets.class);
    private static final int EXPIRED_BATCH = 1000;

    private final PostgreSQLSelectForUpdateBasedProxyManager<String> proxies;
    private final BucketConfiguration configuration;
    private final LocalRequestBuckets fallback;
    private final int perMinute;
    private volatile boolean failing;

    SharedRequestBuckets(DataSource dataSource, int perMinute, TimeMeter clock) {
        this.proxies = Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("rate_limit_buckets")
                .clientClock(clock)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ZERO))
                .build();
        this.configuration = BucketConfiguration.builder().addLimit(RequestBuckets.limit(perMinute)).build();
        this.fallback = new LocalRequestBuckets(perMinute, clock);
        this.perMinute = perMinute;
    }

    @Override
    public ConsumptionProbe tryConsume(String keyId) {
        try {
            ConsumptionProbe probe = proxies.builder().build(keyId, () -> configuration).tryConsumeAndReturnRemaining(1);
            if (failing) {
                failing = false;
                log.info("shared request rate limit works again");
            }
            return probe;
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                log.warn("shared request rate limit failed ({}); limiting per node until the database answers again", e.toString());
            }
            return fallback.tryConsume(keyId);
        }
    }

    @Override
    public int perMinute() {
        return perMinute;
    }

    /** Deletes the rows of buckets that are full again, and forgets this node's fallback buckets likewise. */
    @Override
    @Scheduled(fixedDelay = 300_000, initialDelay = 300_000)
    public void forgetIdle() {
        try {
            while (proxies.removeExpired(EXPIRED_BATCH) == EXPIRED_BATCH) {
                // a full batch: there may be more
            }
        } catch (RuntimeException e) {
            log.warn("could not delete idle rate limit buckets; next try in 5 minutes", e);
        }
        fallback.forgetIdle();
    }
}
