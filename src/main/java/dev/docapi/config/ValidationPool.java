package dev.docapi.config;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import jakarta.annotation.PreDestroy;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * A few platform threads for the CPU-heavy part of checking a request (issue 40 item 0): sniffing and opening an
 * upload, parsing an operation's input files, deriving a certificate's key, filling a template once. Requests are served on virtual threads, and those are not
 * time-sliced over their carriers (one per core): work that keeps a carrier busy for seconds stalls every other
 * request of the node, the management port's probes included. Here the operating system shares the cores between
 * these threads and the carriers, so {@code GET /v1} and the probes answer at once whatever is being checked.
 *
 * <p>Bounded three ways: {@code DOCAPI_VALIDATION_THREADS} threads (default: half the cores, at least 2), at most
 * {@link #PER_ACCOUNT} checks of one account waiting or running, and at most {@link #QUEUE} waiting in all. Past
 * either bound a request answers 429 {@code rate_limited} with {@code Retry-After} (spec §7: the code every endpoint
 * that checks files may answer; uploads have no {@code too_many_jobs}); the
 * work each check may do is bounded where it is done (template fills, key derivations, page and pixel limits).
 */
@Component
public class ValidationPool {
    /** The checks of one account waiting or running at once. */
    static final int PER_ACCOUNT = 32;
    /** The checks waiting for a thread, all accounts together. */
    static final int QUEUE = 256;
    private static final long RETRY_AFTER_SECONDS = 2;

    private final ThreadPoolExecutor pool;
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    /** @param threads {@code DOCAPI_VALIDATION_THREADS}; 0 or less: half the cores, at least 2 */
    public ValidationPool(@Value("${docapi.validation-threads:0}") int threads) {
        int n = threads > 0 ? threads : Math.max(2, Runtime.getRuntime().availableProcessors() / 2);
        AtomicInteger count = new AtomicInteger();
        pool = new ThreadPoolExecutor(n, n, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                r -> Thread.ofPlatform().name("validation-" + count.incrementAndGet()).daemon(true).unstarted(r));
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * Runs {@code work} on the pool and waits for it; what it throws is thrown here as it is (an {@link ApiException}
     * stays the request's answer). If the waiting thread is interrupted the work is cancelled. On a platform thread
     * (a job's worker running a workflow step, this pool's own) it runs {@code work} in place: only virtual threads
     * must not hold a carrier.
     *
     * @param accountId whose request it checks, for {@link #PER_ACCOUNT}
     * @throws ApiException 429 {@code rate_limited} when the account or the node has too many checks in flight
     */
    public <T> T call(String accountId, Callable<T> work) {
        if (!Thread.currentThread().isVirtual()) return inPlace(work);
        AtomicInteger mine = inFlight.computeIfAbsent(accountId, k -> new AtomicInteger());
        try {
            if (mine.incrementAndGet() > PER_ACCOUNT) {
                throw busy("this account has " + PER_ACCOUNT + " requests being checked already; send the next when one has answered");
            }
            Future<T> future;
            try {
                future = pool.submit(work);
            } catch (RejectedExecutionException full) {
                throw busy("this node has too many requests waiting to be checked; retry shortly");
            }
            return await(future);
        } finally {
            if (mine.decrementAndGet() <= 0) inFlight.remove(accountId, mine);
        }
    }

    private static <T> T inPlace(Callable<T> work) {
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new ApiException(ErrorCode.INTERRUPTED, "the service stopped while checking this request; send it again");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error err) throw err;
            throw new IllegalStateException(cause);
        }
    }

    private static ApiException busy(String message) {
        return new ApiException(ErrorCode.RATE_LIMITED, message, RETRY_AFTER_SECONDS, null);
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
