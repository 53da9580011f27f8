package dev.docapi.engines.process;

import dev.docapi.engines.EngineFailure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs external engines (qpdf, gs, ocrmypdf, ...) inside the {@link Sandbox}: a per-tool concurrency limit, resource
 * bounds, a timeout after which the whole sandbox is killed, stdout and stderr kept to their last 64 KiB, and the
 * sandbox's paths cut from stderr (so no server path reaches a client). Every way a run can fail — timeout, bound,
 * an exit code the caller does not call success ({@link Expect}) — is thrown as one {@link EngineFailure}. Inject it; never start engine processes
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
    private final MemoryCaps caps;
    private final ObservationRegistry observations;
    private final Map<String, Semaphore> limits = new ConcurrentHashMap<>();
    private final int defaultLimit = Math.max(2, Runtime.getRuntime().availableProcessors());

    /** A runner whose runs are not observed (tools and tests outside the service). */
    public ProcessRunner(Sandbox sandbox) {
        this(sandbox, MemoryCaps.off(), ObservationRegistry.NOOP);
    }

    /**
     * A runner that observes every run as {@code docapi.engine.run} ({@link #observe}). Each run's process tree is
     * held to the kernel's memory cap ({@link MemoryCaps}).
     */
    @org.springframework.beans.factory.annotation.Autowired
    public ProcessRunner(Sandbox sandbox, MemoryCaps caps, ObservationRegistry observations) {
        this.sandbox = sandbox;
        this.caps = caps;
        this.observations = observations;
    }

    /** The outcome of a finished process. {@code stdout}/{@code stderr} hold at most their last 64 KiB. */
    public record Result(int exitCode, String stdout, String stderr, Duration took) {
        private static final int MAX_LINE = 300;

        public boolean ok() {
            return exitCode == 0;
        }

        /**
         * The last non-blank line of stderr (else of stdout), at most {@value #MAX_LINE} characters, or
         * {@code no message}: what a failure says of the engine's own words.
         */
        public String lastLine() {
            String line = lastLines(stderr, 1);
            if (line.isEmpty()) line = lastLines(stdout, 1);
            if (line.isEmpty()) return "no message";
            return line.length() > MAX_LINE ? line.substring(0, MAX_LINE) + "..." : line;
        }
    }

    /**
     * What the caller of a run expects: the exit codes that mean success (qpdf's 3, "succeeded with warnings", is one)
     * and the {@link EngineFailure} to throw for any other, made from the finished run. A failure made by
     * {@link #orFail(EngineFailure.Kind, String)} ends with the engine's {@link Result#lastLine}.
     *
     * @param success the exit codes that succeed; null: every exit code is an answer the caller reads
     * @param failure makes the failure thrown for any other exit code; null: {@code FAILED}, "{tool} failed (exit N)"
     */
    public record Expect(Set<Integer> success, Function<Result, EngineFailure> failure) {
        /**
         * Every exit code is an answer the caller reads itself (a probe: {@code qpdf --check}, Tesseract's script
         * detection).
         */
        public static final Expect ANY_EXIT = new Expect(null, null);

        /** Exit {@code codes} succeed, any other fails. */
        public static Expect success(int... codes) {
            return new Expect(Arrays.stream(codes).boxed().collect(Collectors.toUnmodifiableSet()), null);
        }

        /** Any other exit code fails as {@code kind}: "{@code message}: {engine's last line}". */
        public Expect orFail(EngineFailure.Kind kind, String message) {
            return orFail(r -> new EngineFailure(kind, message + ": " + r.lastLine()));
        }

        /** Any other exit code fails with what {@code failure} makes of the run (e.g. per documented exit code). */
        public Expect orFail(Function<Result, EngineFailure> failure) {
            return new Expect(success, failure);
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
    public Result run(List<String> command, Duration timeout, Expect expect) throws EngineFailure, InterruptedException {
        return run(command, timeout, Sandbox.Access.of(null), Map.of(), expect);
    }

    /** As {@link #run(List, Duration, Sandbox.Access, Map, Sandbox.Bounds, Expect)} with the default bounds. */
    public Result run(List<String> command, Duration timeout, Sandbox.Access access, Map<String, String> env, Expect expect)
            throws EngineFailure, InterruptedException {
        return run(command, timeout, access, env, sandbox.defaults(), expect);
    }

    /**
     * Runs {@code command} (its first element names the tool for the concurrency limit) in a sandbox that sees
     * {@code access}, with extra environment variables and {@code bounds}. Its working directory is
     * {@code access.writable()}.
     *
     * @return the finished run, whose exit code is one {@code expect} calls success
     * @throws EngineFailure        {@code TIMEOUT} when it ran past {@code timeout} (its process group is killed
     *                              first), {@code BOUND_EXCEEDED} when one of {@code bounds} stopped it,
     *                              {@code FAILED} when it could not start, else {@code expect}'s failure for an exit
     *                              code that is not a success
     * @throws InterruptedException if the calling thread was interrupted (the sandbox is killed first)
     */
    public Result run(List<String> command, Duration timeout, Sandbox.Access access, Map<String, String> env,
                      Sandbox.Bounds bounds, Expect expect) throws EngineFailure, InterruptedException {
        String tool = Path.of(command.getFirst()).getFileName().toString();
        return observe(tool, timeout, bounds, observation -> runObserved(tool, command, timeout, access, env, bounds, expect, observation));
    }

    /** Work of an engine run, observed by {@link #observe}; it may add keys (an exit code) to the observation. */
    @FunctionalInterface
    public interface Observed<T> {
        T run(Observation observation) throws EngineFailure, InterruptedException;
    }

    /**
     * Runs {@code work} observed as {@code docapi.engine.run} (issue 24), the one observation block of every engine,
     * warm ones (LibreOffice, Chromium) included: a span, child of the job's, naming the engine, its sandbox bounds
     * and timeout; and a timer tagged {@code engine} and {@code outcome} — ok, failed, timeout, bound (from the
     * {@link EngineFailure}'s kind), interrupted.
     *
     * @param engine  the engine's name ({@code libreoffice}, {@code chromium}, or the tool a process runs)
     * @param timeout the run's time limit, for the span
     * @param bounds  the run's sandbox bounds, for the span (0: none)
     */
    public <T> T observe(String engine, Duration timeout, Sandbox.Bounds bounds, Observed<T> work) throws EngineFailure, InterruptedException {
        Observation observation = Observation.createNotStarted("docapi.engine.run", observations)
                .contextualName("engine " + engine)
                .lowCardinalityKeyValue("engine", engine)
                .highCardinalityKeyValue("sandbox", sandbox.enabled() ? "bubblewrap" : "off")
                .highCardinalityKeyValue("bounds.memory_mb", String.valueOf(bounds.memoryBytes() >> 20))
                .highCardinalityKeyValue("bounds.cpu_seconds", String.valueOf(bounds.cpuSeconds()))
                .highCardinalityKeyValue("timeout_seconds", String.valueOf(timeout.toSeconds()))
                .start();
        String outcome = "failed";
        try (Observation.Scope scope = observation.openScope()) {
            T r = work.run(observation);
            outcome = "ok";
            return r;
        } catch (EngineFailure e) {
            outcome = switch (e.kind()) {
                case TIMEOUT -> "timeout";
                case BOUND_EXCEEDED -> "bound";
                default -> "failed";
            };
            throw e;
        } catch (InterruptedException e) {
            outcome = "interrupted";
            throw e;
        } finally {
            observation.lowCardinalityKeyValue("outcome", outcome).stop();
        }
    }

    private Result runObserved(String tool, List<String> command, Duration timeout, Sandbox.Access access, Map<String, String> env,
                               Sandbox.Bounds bounds, Expect expect, Observation observation) throws EngineFailure, InterruptedException {
        Semaphore limit = limits.computeIfAbsent(tool, t -> new Semaphore(defaultLimit, true));
        limit.acquire();
        long start = System.nanoTime();
        Process process = null;
        Result result;
        try (MemoryCaps.Cap cap = caps.open(tool)) {
            ProcessBuilder pb = new ProcessBuilder(cap.enter(sandbox.wrap(command, access, bounds, env)));
            if (access.writable() != null) pb.directory(access.writable().toFile());
            if (!sandbox.enabled()) pb.environment().putAll(env);
            process = spawn(pb);
            process.getOutputStream().close();
            Tail out = Tail.drain(process.getInputStream());
            Tail err = Tail.drain(process.getErrorStream());
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                stop(process);
                throw new EngineFailure(EngineFailure.Kind.TIMEOUT,
                        tool + " did not finish within " + timeout.toSeconds() + " s and was stopped");
            }
            out.thread.join(5000);
            err.thread.join(5000);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            log.debug("{} exited {} in {} ms", tool, process.exitValue(), took.toMillis());
            result = new Result(process.exitValue(), out.text(), withoutPaths(err.text(), access), took);
            observation.highCardinalityKeyValue("exit_code", String.valueOf(result.exitCode()));
            if (cap.oomKills() > 0) {
                log.info("{} stopped by its memory cap of {} MB (peak {} MB)", tool, cap.megabytes(), cap.peakBytes() >> 20);
                throw new EngineFailure(EngineFailure.Kind.BOUND_EXCEEDED, tool + " was stopped: the file needs more than the "
                        + cap.megabytes() + " MB of memory one engine run may use (DOCAPI_ENGINE_MEMORY_CAP_MB)");
            }
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, tool + " could not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            if (process != null) stop(process);
            throw e;
        } finally {
            limit.release();
        }
        checkBounds(tool, result, bounds);
        checkExit(tool, result, expect);
        return result;
    }

    /** @throws EngineFailure {@code BOUND_EXCEEDED} when {@code r} failed because it hit one of {@code bounds} */
    private static void checkBounds(String tool, Result r, Sandbox.Bounds bounds) throws EngineFailure {
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
            throw new EngineFailure(EngineFailure.Kind.BOUND_EXCEEDED, tool + " was stopped: the file " + why);
        }
    }

    /** @throws EngineFailure {@code expect}'s failure when {@code r}'s exit code is not one it calls success */
    private static void checkExit(String tool, Result r, Expect expect) throws EngineFailure {
        if (expect.success() == null || expect.success().contains(r.exitCode())) return;
        log.info("{} exited {}: {}", tool, r.exitCode(), lastLines(r.stderr(), 5));
        throw expect.failure() != null ? expect.failure().apply(r)
                : new EngineFailure(EngineFailure.Kind.FAILED, tool + " failed (exit " + r.exitCode() + "): " + r.lastLine());
    }

    /** The last {@code n} non-blank lines of {@code text}, stripped, joined by newlines ("" when there are none). */
    static String lastLines(String text, int n) {
        List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
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
     * Stops an engine's process: asked first (SIGTERM, up to 2 s), then {@link #killTree}. A sandbox's parent shell,
     * asked, stops bubblewrap before it kills it ({@code Sandbox.PARENT}); a SIGKILL to bubblewrap while it still set
     * the sandbox up left the sandbox's PID 1 and engine running under init ({@code SandboxParentTest}: 0-3 of 80
     * sandboxes killed 0-19.5 ms after their start, in three runs).
     */
    public static void stop(Process process) {
        process.destroy();
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        killTree(process);
    }

    /**
     * Kills a process, its process group (started by {@link #spawn}, the group holds every process it started that
     * did not start a session of its own, daemonised ones included) and every descendant (children first, so none is
     * re-parented and left), with SIGKILL at once. A sandbox's own processes also die with its PID namespace; stop an
     * engine with {@link #stop}.
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
