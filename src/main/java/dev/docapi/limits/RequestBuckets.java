package dev.docapi.limits;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import java.sql.DatabaseMetaData;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * The per-key request budget of spec §8: {@link #perMinute()} tokens per API key, refilled greedily over one minute
 * (Bucket4j token buckets). Keys are the key's public prefix ({@link RateLimitFilter}).
 */
public interface RequestBuckets {
    /** Takes one token from {@code keyId}'s bucket; the probe says whether it was there and, if not, how long to wait. */
    ConsumptionProbe tryConsume(String keyId);

    /** The bucket's capacity and its refill per minute. */
    int perMinute();

    /** Forgets the buckets that are full again (idle keys): a new bucket would be the same. Every 5 minutes. */
    void forgetIdle();

    /**
     * Shared by every node through the database when it is PostgreSQL ({@link SharedRequestBuckets}); in this node's
     * memory on H2, the embedded single-node default ({@link LocalRequestBuckets}).
     *
     * @param clock Bucket4j's clock: {@link TimeMeter#SYSTEM_MILLISECONDS} in the service (wall time, so that nodes
     *              agree); a frozen one in tests
     * @throws MetaDataAccessException when the database cannot be reached to tell which one it is
     */
    static RequestBuckets forDatabase(DataSource dataSource, int perMinute, TimeMeter clock) throws MetaDataAccessException {
        String product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
        return "PostgreSQL".equals(product)
                ? new SharedRequestBuckets(dataSource, perMinute, clock)
                : new LocalRequestBuckets(perMinute, clock);
    }

    /** {@code perMinute} tokens at most, {@code perMinute} added per minute spread evenly (greedy refill). */
    static Bandwidth limit(int perMinute) {
        return Bandwidth.builder().capacity(perMinute).refillGreedy(perMinute, Duration.ofMinutes(1)).build();
    }
}
