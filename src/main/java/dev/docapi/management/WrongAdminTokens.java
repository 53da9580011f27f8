package dev.docapi.management;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.limits.RequestBuckets;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.stereotype.Component;

/**
 * Wrong admin tokens (issue 40 item 5): each is counted ({@code docapi_admin_wrong_tokens_total}) and takes one of
 * {@link #PER_MINUTE} a minute from its client address's Bucket4j bucket (shared by the nodes through PostgreSQL, as
 * the API's request limit). An address whose bucket is empty is answered 429 {@code rate_limited} with
 * {@code Retry-After} until it refills, whatever token it sends: past the budget a guess is not even compared, so
 * its answer tells nothing.
 */
@Component
class WrongAdminTokens implements MeterBinder {
    private static final Logger log = LoggerFactory.getLogger(WrongAdminTokens.class);
    /** Wrong tokens one address may send a minute (a person mistyping needs a few; a guesser, millions). */
    static final int PER_MINUTE = 10;
    /** Blocked addresses remembered at most; past it the expired ones are dropped (the bucket still counts). */
    private static final int MAX_BLOCKED = 10_000;

    private final RequestBuckets buckets;
    private final AtomicLong wrong = new AtomicLong();
    /** Address → System.nanoTime() until which it is refused, learned when its bucket was found empty. */
    private final Map<String, Long> blockedUntil = new ConcurrentHashMap<>();

    WrongAdminTokens(DataSource dataSource) throws MetaDataAccessException {
        this.buckets = RequestBuckets.forDatabase(dataSource, PER_MINUTE, TimeMeter.SYSTEM_MILLISECONDS);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("docapi.admin.wrong.tokens", wrong, AtomicLong::get)
                .description("Admin API requests with a missing or wrong token").register(registry);
    }

    /** @throws ApiException 429 {@code rate_limited} while {@code address} has used up its wrong tokens */
    void checkNotBlocked(String address) {
        Long until = blockedUntil.get(address);
        if (until == null) return;
        long left = until - System.nanoTime();
        if (left <= 0) {
            blockedUntil.remove(address, until);
            return;
        }
        throw throttled(left);
    }

    /**
     * Counts a wrong token from {@code address}.
     *
     * @throws ApiException 429 {@code rate_limited} when it was one too many; otherwise returns (the caller answers 401)
     */
    void wrong(String address) {
        wrong.incrementAndGet();
        ConsumptionProbe probe = buckets.tryConsume("admin-address:" + address);
        if (probe.isConsumed()) return;
        if (blockedUntil.size() >= MAX_BLOCKED) blockedUntil.values().removeIf(t -> t - System.nanoTime() <= 0);
        blockedUntil.put(address, System.nanoTime() + probe.getNanosToWaitForRefill());
        log.warn("admin API: more than {} wrong tokens a minute from {}; refused until its budget refills", PER_MINUTE, address);
        throw throttled(probe.getNanosToWaitForRefill());
    }

    private static ApiException throttled(long nanos) {
        long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nanos) + 1);
        return new ApiException(ErrorCode.RATE_LIMITED, "too many wrong admin tokens from this address; retry in " + seconds + " s", seconds, null);
    }
}
