package dev.docapi.jobs;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job's work on a thread of its own, bounded by the job's deadline (issue 40 item 1). The queue worker that claimed
 * the job waits for it at most the deadline; past it the work's thread is interrupted (engines run through
 * {@code ProcessRunner} kill their process tree, LibreOffice and Chromium drop the conversion and replace the process
 * or tab) and abandoned: the worker is free for the next job at once, whatever the work does next. In-JVM parsing that
 * never looks at an interrupt (PDFBox, DSS) runs on until it ends by itself; {@link #abandoned()} counts such threads.
 *
 * <p>Work that has been abandoned must not leave results behind: storing a job's outputs and counting its operations
 * go through {@link #commit}, which refuses once the job was abandoned, and the deadline waits for a commit under way
 * (short, bounded work) instead of cutting it in half. Outside a job's thread {@link #commit} just runs its argument.
 */
public final class BoundedWork {
    private static final Logger log = LoggerFactory.getLogger(BoundedWork.class);
    private static final ScopedValue<BoundedWork> CURRENT = ScopedValue.newInstance();
    /** Threads of abandoned work that have not ended yet (on this node). */
    private static final AtomicInteger ABANDONED_RUNNING = new AtomicInteger();
    /** How long a stopped worker waits for interrupted work to end (its engine killed) before it lets go. */
    static final Duration INTERRUPTED_WAIT = Duration.ofSeconds(10);

    private final String jobId;
    private final ReentrantLock commits = new ReentrantLock();
    private volatile boolean stopped;
    /** The work's thread has ended (guarded by {@link #commits}). */
    private boolean ended;

    private BoundedWork(String jobId) {
        this.jobId = jobId;
    }

    /** The job ran past its deadline and was abandoned; {@link #getMessage()} says so for the client. */
    public static final class Exceeded extends Exception {
        Exceeded(String message) {
            super(message);
        }
    }

    /**
     * Runs {@code work} on a new platform thread named {@code job-<jobId>} and returns what it returns, or throws
     * what it throws.
     *
     * @param deadline  how long the work may take
     * @param exceeded  the failure's message when it takes longer
     * @throws Exceeded            when the deadline passed: the work was interrupted and abandoned
     * @throws InterruptedException when the calling worker was interrupted (the node is stopping): the work was
     *                              interrupted too, and waited for a moment so its engines are gone
     */
    public static <T> T run(String jobId, Duration deadline, String exceeded, Callable<T> work) throws Exception {
        BoundedWork run = new BoundedWork(jobId);
        CompletableFuture<T> result = new CompletableFuture<>();
        long started = System.nanoTime();
        // a platform thread: the work is CPU-bound and must not pin the carriers that serve requests (issue 40 item 0)
        Thread thread = Thread.ofPlatform().daemon().name("job-" + jobId).unstarted(() -> {
            try {
                result.complete(ScopedValue.where(CURRENT, run).call(work::call));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            } finally {
                run.ended(started);
            }
        });
        thread.start();
        try {
            return unwrap(() -> result.get(deadline.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            if (!run.stop(thread, result)) return unwrap(result::get); // it finished (committing) meanwhile: that stands
            throw new Exceeded(exceeded);
        } catch (InterruptedException e) {
            if (!run.stop(thread, result)) return unwrap(result::get);
            // give the killed engines a moment to go, so the node stops with none left behind
            try {
                result.get(INTERRUPTED_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException | CancellationException ignored) {
                // it ended one way or the other, or is abandoned
            } catch (InterruptedException again) {
                Thread.currentThread().interrupt();
            }
            throw e;
        }
    }

    /** The result of {@code get}, or what the work threw. */
    private static <T> T unwrap(Callable<T> get) throws Exception {
        try {
            return get.call();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) throw cause;
            if (e.getCause() instanceof Error error) throw error;
            throw e;
        }
    }

    /**
     * Marks the work stopped (after any commit under way) and interrupts its thread.
     *
     * @return false when the work finished meanwhile (its result or failure stands)
     */
    private boolean stop(Thread thread, CompletableFuture<?> result) {
        commits.lock();
        try {
            if (result.isDone()) return false;
            stopped = true;
            if (!ended) ABANDONED_RUNNING.incrementAndGet();
        } finally {
            commits.unlock();
        }
        thread.interrupt();
        log.info("job {}: work interrupted and abandoned", jobId);
        return true;
    }

    private void ended(long started) {
        commits.lock();
        try {
            ended = true;
            if (!stopped) return;
            ABANDONED_RUNNING.decrementAndGet();
        } finally {
            commits.unlock();
        }
        log.info("job {}: abandoned work ended after {} s", jobId, (System.nanoTime() - started) / 1_000_000_000L);
    }

    /**
     * Runs {@code commit} (storing outputs, counting operations) unless the current job's work was stopped; the job's
     * deadline waits for it. Outside a job's thread it just runs {@code commit}.
     *
     * @throws CancellationException when the current job's work was stopped (its deadline passed)
     */
    public static <T> T commit(Callable<T> commit) throws Exception {
        BoundedWork run = CURRENT.isBound() ? CURRENT.get() : null;
        if (run == null) return commit.call();
        run.commits.lock();
        try {
            run.checkNotStopped();
            return commit.call();
        } finally {
            run.commits.unlock();
        }
    }

    /** As {@link #commit(Callable)} for work that returns nothing and throws no checked exception. */
    public static void commit(Runnable commit) {
        try {
            commit(() -> {
                commit.run();
                return null;
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Throws when the current job's work was stopped: work that reports progress stops at its next report.
     *
     * @throws CancellationException when it was stopped; nothing outside a job's thread
     */
    public static void checkStopped() {
        if (CURRENT.isBound()) CURRENT.get().checkNotStopped();
    }

    private void checkNotStopped() {
        if (stopped) throw new CancellationException("job " + jobId + " was stopped at its deadline");
    }

    /** Threads of work abandoned at its deadline that are still running on this node. */
    public static int abandoned() {
        return ABANDONED_RUNNING.get();
    }
}
