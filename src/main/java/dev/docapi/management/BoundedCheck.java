package dev.docapi.management;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * A health check that answers a probe within {@link #ANSWER}, however long the thing it checks hangs (a pool waiting
 * 30 s for a connection to a stopped database, an S3 call retrying). The check runs on a virtual thread, at most one
 * at a time; a probe waits for it at most {@link #ANSWER} (under HAProxy's 1 s {@code timeout check}, so the balancer
 * never hangs up on a probe), and otherwise gets the last answer — or DOWN once the check has run past {@link #LIMIT}.
 * An answer younger than {@link #FRESH} is reused, so a balancer probing every second and the readiness metrics do
 * not each start a check.
 *
 * <p>Logs once per change of state (issue 38), never per probe and never with a stack trace: a WARN line when the
 * thing becomes unreachable or too slow, an INFO line when it answers again.
 */
final class BoundedCheck {
    /** A check running longer than this makes the thing DOWN. */
    static final Duration LIMIT = Duration.ofSeconds(2);
    /** How long a probe waits for a running check before answering with the last result. */
    static final Duration ANSWER = Duration.ofMillis(500);
    /** A result this young is the answer, without a new check. */
    static final Duration FRESH = Duration.ofMillis(500);
    private static final Logger log = LoggerFactory.getLogger(BoundedCheck.class);

    /** The check: returns normally when the thing is reachable, throws what it met otherwise. */
    interface Check {
        void run() throws Exception;
    }

    private final String what;
    private final Check check;
    private final LongSupplier clock;
    private CompletableFuture<Health> running;
    private long startedAt;
    private Health last;
    private long lastAt;

    BoundedCheck(String what, Check check) {
        this(what, check, System::nanoTime);
    }

    BoundedCheck(String what, Check check, LongSupplier nanoClock) {
        this.what = what;
        this.check = check;
        this.clock = nanoClock;
    }

    Health health() {
        CompletableFuture<Health> f;
        long started;
        synchronized (this) {
            boolean idle = running == null || running.isDone();
            if (idle && last != null && clock.getAsLong() - lastAt < FRESH.toNanos()) return last;
            if (idle) {
                CompletableFuture<Health> started0 = new CompletableFuture<>();
                Thread.ofVirtual().name("health-" + what).start(() -> started0.complete(record(runCheck())));
                running = started0;
                startedAt = clock.getAsLong();
            }
            f = running;
            started = startedAt;
        }
        try {
            return f.get(ANSWER.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            if (clock.getAsLong() - started >= LIMIT.toNanos()) {
                return record(Health.down().withDetail("error", what + " did not answer within " + LIMIT.toSeconds() + " s").build());
            }
            synchronized (this) {
                return last != null ? last : Health.down().withDetail("error", what + " has not answered yet").build();
            }
        } catch (ExecutionException e) {
            return record(Health.down().withDetail("error", what + " could not be checked").build());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.unknown().build();
        }
    }

    private Health runCheck() {
        try {
            check.run();
            return Health.up().build();
        } catch (Throwable e) {
            return Health.down().withDetail("error", what + " is unreachable: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage())).build();
        }
    }

    /** Keeps {@code h} as the last answer, logging a change between UP and not UP. */
    private Health record(Health h) {
        Health before;
        synchronized (this) {
            before = last;
            last = h;
            lastAt = clock.getAsLong();
        }
        boolean up = Status.UP.equals(h.getStatus());
        boolean wasUp = before != null && Status.UP.equals(before.getStatus());
        if (!up && (before == null || wasUp)) {
            log.warn("readiness: {} is DOWN ({}); readiness stays DOWN until it answers", what, h.getDetails().get("error"));
        } else if (up && before != null && !wasUp) {
            log.info("readiness: {} answers again", what);
        }
        return h;
    }
}
