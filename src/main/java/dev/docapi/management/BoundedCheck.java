package dev.docapi.management;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.health.contributor.Health;

/**
 * A health check whose answer comes within {@link #LIMIT}, however long the thing it checks hangs (a pool waiting
 * 30 s for a connection to a stopped database, an S3 call retrying): the check runs on a virtual thread, at most one at
 * a time; a probe that comes while one is still hanging reports DOWN at once instead of starting another.
 */
final class BoundedCheck {
    static final Duration LIMIT = Duration.ofSeconds(2);

    /** The check: returns normally when the thing is reachable, throws what it met otherwise. */
    interface Check {
        void run() throws Exception;
    }

    private final String what;
    private final Check check;
    private CompletableFuture<Void> running;

    BoundedCheck(String what, Check check) {
        this.what = what;
        this.check = check;
    }

    Health health() {
        CompletableFuture<Void> f;
        synchronized (this) {
            if (running == null || running.isDone()) {
                CompletableFuture<Void> started = new CompletableFuture<>();
                Thread.ofVirtual().name("health-" + what).start(() -> {
                    try {
                        check.run();
                        started.complete(null);
                    } catch (Throwable e) {
                        started.completeExceptionally(e);
                    }
                });
                running = started;
            }
            f = running;
        }
        try {
            f.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            return Health.up().build();
        } catch (TimeoutException e) {
            return Health.down().withDetail("error", what + " did not answer within " + LIMIT.toSeconds() + " s").build();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            return Health.down().withDetail("error", what + " is unreachable: " + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage())).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.unknown().build();
        }
    }
}
