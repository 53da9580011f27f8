package dev.docapi.engines.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs external engines (qpdf, gs, ocrmypdf, ...): a per-tool concurrency limit, a timeout after which the whole
 * process tree is killed, stdout and stderr kept to their last 64 KiB. Inject it; never start processes elsewhere.
 */
@Component
public class ProcessRunner {
    private static final Logger log = LoggerFactory.getLogger(ProcessRunner.class);
    private static final int KEEP_BYTES = 64 * 1024;

    private final Map<String, Semaphore> limits = new ConcurrentHashMap<>();
    private final int defaultLimit = Math.max(2, Runtime.getRuntime().availableProcessors());

    /** The outcome of a finished process. {@code stdout}/{@code stderr} hold at most their last 64 KiB. */
    public record Result(int exitCode, String stdout, String stderr, Duration took) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /** Thrown when a process ran past its timeout and was killed with its children. */
    public static class TimeoutException extends IOException {
        public TimeoutException(String tool, Duration timeout) {
            super(tool + " did not finish within " + timeout.toSeconds() + " s and was stopped");
        }
    }

    /** Sets how many {@code tool} processes may run at once on this node (default: the number of cores, min 2). */
    public void setLimit(String tool, int permits) {
        limits.put(tool, new Semaphore(permits, true));
    }

    /** Runs {@code command} (its first element names the tool for the concurrency limit). */
    public Result run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        return run(command, timeout, null, Map.of());
    }

    /**
     * Runs {@code command} in {@code workDir} (null: the current directory) with extra environment variables.
     *
     * @throws TimeoutException     if it ran past {@code timeout} (the process tree is killed first)
     * @throws IOException          if it could not be started (e.g. the tool is not installed)
     * @throws InterruptedException if the calling thread was interrupted (the process tree is killed first)
     */
    public Result run(List<String> command, Duration timeout, Path workDir, Map<String, String> env)
            throws IOException, InterruptedException {
        String tool = Path.of(command.getFirst()).getFileName().toString();
        Semaphore limit = limits.computeIfAbsent(tool, t -> new Semaphore(defaultLimit, true));
        limit.acquire();
        long start = System.nanoTime();
        Process process = null;
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            if (workDir != null) pb.directory(workDir.toFile());
            pb.environment().putAll(env);
            process = pb.start();
            process.getOutputStream().close();
            Tail out = Tail.drain(process.getInputStream());
            Tail err = Tail.drain(process.getErrorStream());
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                killTree(process);
                throw new TimeoutException(tool, timeout);
            }
            out.thread.join(5000);
            err.thread.join(5000);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            log.debug("{} exited {} in {} ms", tool, process.exitValue(), took.toMillis());
            return new Result(process.exitValue(), out.text(), err.text(), took);
        } catch (InterruptedException e) {
            if (process != null) killTree(process);
            throw e;
        } finally {
            limit.release();
        }
    }

    /** Kills a process and every descendant it started (children first, so none is re-parented and left). */
    public static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads a stream to its end on a virtual thread, keeping only the last {@link #KEEP_BYTES}. */
    private static final class Tail {
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private Thread thread;

        static Tail drain(InputStream in) {
            Tail t = new Tail();
            t.thread = Thread.ofVirtual().start(() -> {
                byte[] chunk = new byte[8192];
                try (in) {
                    int n;
                    while ((n = in.read(chunk)) > 0) {
                        synchronized (t.buffer) {
                            t.buffer.write(chunk, 0, n);
                            if (t.buffer.size() > 2 * KEEP_BYTES) {
                                byte[] all = t.buffer.toByteArray();
                                t.buffer.reset();
                                t.buffer.write(all, all.length - KEEP_BYTES, KEEP_BYTES);
                            }
                        }
                    }
                } catch (IOException ignored) {
                    // the process was killed; what was read is kept
                }
            });
            return t;
        }

        String text() {
            synchronized (buffer) {
                byte[] all = buffer.toByteArray();
                int from = Math.max(0, all.length - KEEP_BYTES);
                return new String(all, from, all.length - from, StandardCharsets.UTF_8);
            }
        }
    }
}
