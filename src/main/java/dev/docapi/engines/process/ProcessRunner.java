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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs external engines (qpdf, gs, ocrmypdf, ...) inside the {@link Sandbox}: a per-tool concurrency limit, resource
 * bounds, a timeout after which the whole sandbox is killed, stdout and stderr kept to their last 64 KiB, and the
 * sandbox's paths cut from stderr (so no server path reaches a client). Inject it; never start engine processes
 * elsewhere ({@link #spawn} is the one way to start a long-lived one).
 */
@Component
public class ProcessRunner {
    private static final Logger log = LoggerFactory.getLogger(ProcessRunner.class);
    private static final int KEEP_BYTES = 64 * 1024;
    /**
     * Processes are started from this one long-lived platform thread: bubblewrap's {@code --die-with-parent} (Linux
     * {@code PR_SET_PDEATHSIG}) fires when the <em>thread</em> that forked it ends, and pooled or virtual threads'
     * carriers come and go. This thread lives as long as the JVM, so sandboxes die exactly when the service does.
     */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "engine-spawner");
        t.setDaemon(true);
        return t;
    });

    private final Sandbox sandbox;
    private final Map<String, Semaphore> limits = new ConcurrentHashMap<>();
    private final int defaultLimit = Math.max(2, Runtime.getRuntime().availableProcessors());

    public ProcessRunner(Sandbox sandbox) {
        this.sandbox = sandbox;
    }

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

    /**
     * Thrown when a process was stopped by one of its {@link Sandbox.Bounds}: its message says which, in the user's
     * terms (the file needs more memory, CPU time or output than one engine run may use).
     */
    public static class BoundExceededException extends IOException {
        public BoundExceededException(String message) {
            super(message);
        }
    }

    /** Exit statuses of a process killed by {@code SIGXCPU} and {@code SIGXFSZ} (128 + signal number). */
    private static final int EXIT_CPU = 128 + 24, EXIT_FSIZE = 128 + 25;
    private static final java.util.regex.Pattern OUT_OF_MEMORY = java.util.regex.Pattern.compile(
            "(?i)MemoryError|bad_alloc|cannot allocate memory|out of memory|failed to allocate|VMerror");

    /** Sets how many {@code tool} processes may run at once on this node (default: the number of cores, min 2). */
    public void setLimit(String tool, int permits) {
        limits.put(tool, new Semaphore(permits, true));
    }

    /** The sandbox engines run in (for engines that start long-lived processes through {@link #spawn}). */
    public Sandbox sandbox() {
        return sandbox;
    }

    /** Runs {@code command} in a sandbox that may write nothing but its private {@code /tmp} (e.g. {@code gs --version}). */
    public Result run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        return run(command, timeout, Sandbox.Access.of(null), Map.of());
    }

    /** As {@link #run(List, Duration, Sandbox.Access, Map, Sandbox.Bounds)} with the default bounds. */
    public Result run(List<String> command, Duration timeout, Sandbox.Access access, Map<String, String> env)
            throws IOException, InterruptedException {
        return run(command, timeout, access, env, sandbox.defaults());
    }

    /**
     * Runs {@code command} (its first element names the tool for the concurrency limit) in a sandbox that sees
     * {@code access}, with extra environment variables and {@code bounds}. Its working directory is
     * {@code access.writable()}.
     *
     * @throws TimeoutException     if it ran past {@code timeout} (the sandbox is killed first)
     * @throws IOException          if it could not be started (e.g. the tool is not installed)
     * @throws InterruptedException if the calling thread was interrupted (the sandbox is killed first)
     */
    public Result run(List<String> command, Duration timeout, Sandbox.Access access, Map<String, String> env,
                      Sandbox.Bounds bounds) throws IOException, InterruptedException {
        String tool = Path.of(command.getFirst()).getFileName().toString();
        Semaphore limit = limits.computeIfAbsent(tool, t -> new Semaphore(defaultLimit, true));
        limit.acquire();
        long start = System.nanoTime();
        Process process = null;
        try {
            ProcessBuilder pb = new ProcessBuilder(sandbox.wrap(command, access, bounds, env));
            if (access.writable() != null) pb.directory(access.writable().toFile());
            if (!sandbox.enabled()) pb.environment().putAll(env);
            process = spawn(pb);
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
            Result result = new Result(process.exitValue(), out.text(), withoutPaths(err.text(), access), took);
            checkBounds(tool, result, bounds);
            return result;
        } catch (InterruptedException e) {
            if (process != null) killTree(process);
            throw e;
        } finally {
            limit.release();
        }
    }

    /** @throws BoundExceededException when {@code r} failed because it hit one of {@code bounds} */
    private static void checkBounds(String tool, Result r, Sandbox.Bounds bounds) throws BoundExceededException {
        if (r.ok()) return;
        String why = null;
        if (r.exitCode() == EXIT_CPU && bounds.cpuSeconds() > 0) {
            why = "needs more than the " + bounds.cpuSeconds() + " s of CPU time one engine run may use";
        } else if (r.exitCode() == EXIT_FSIZE && bounds.fileBytes() > 0) {
            why = "would produce a file larger than the " + (bounds.fileBytes() >> 20) + " MB one engine run may write";
        } else if (bounds.memoryBytes() > 0 && OUT_OF_MEMORY.matcher(r.stderr() + r.stdout()).find()) {
            why = "needs more than the " + (bounds.memoryBytes() >> 20) + " MB of memory one engine run may use";
        }
        if (why != null) {
            log.info("{} stopped by a bound (exit {}): {}", tool, r.exitCode(), why);
            throw new BoundExceededException("the file " + why);
        }
    }

    /** util-linux's {@code setsid}: execs the command as the leader of a new session and process group. */
    private static final String SETSID = "/usr/bin/setsid";

    /**
     * Starts {@code pb} from the spawner thread (see {@link #SPAWNER}); use it for every engine process, including
     * long-lived ones, so that it dies with the service. The process leads its own process group (through
     * {@code setsid}), so that {@link #killTree} reaches a child that left the tree (a daemonised grandchild).
     */
    public static Process spawn(ProcessBuilder pb) throws IOException {
        if (java.nio.file.Files.isExecutable(Path.of(SETSID))) {
            List<String> command = new java.util.ArrayList<>(pb.command());
            command.addFirst(SETSID);
            pb.command(command);
        }
        try {
            return SPAWNER.submit(pb::start).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + pb.command().getFirst(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            throw new IOException(e.getCause());
        }
    }

    /** {@code text} with the sandbox's folders cut out: a file in it is named by its path inside, an input by its name. */
    static String withoutPaths(String text, Sandbox.Access access) {
        String t = text;
        if (access.writable() != null) t = t.replace(access.writable() + "/", "").replace(access.writable().toString(), ".");
        for (Path p : access.readable()) {
            Path name = p.getFileName();
            if (name != null) t = t.replace(p.toString(), name.toString());
        }
        return t;
    }

    /**
     * Kills a process, its process group (started by {@link #spawn}, the group holds every process it started that
     * did not start a session of its own, daemonised ones included) and every descendant (children first, so none is
     * re-parented and left). A sandbox's own processes also die with its PID namespace.
     */
    public static void killTree(Process process) {
        killGroup(process.pid());
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code kill -KILL -- -pgid}: Java has no call that signals a process group. No such group is not an error. */
    private static void killGroup(long pgid) {
        try {
            Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) kill.destroyForcibly();
        } catch (IOException e) {
            log.warn("could not kill process group {}: {}", pgid, e.getMessage());
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
