package dev.docapi.engines.libreoffice;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.EngineFailure.Kind;
import dev.docapi.engines.process.MemoryCaps;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jodconverter.core.office.OfficeException;
import org.jodconverter.local.LocalConverter;
import org.jodconverter.local.office.ExistingProcessAction;
import org.jodconverter.local.office.LocalOfficeManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.util.FileSystemUtils;

/**
 * A pool of warm LibreOffice processes driven through JODConverter (DESIGN §2 "Office → PDF"), each in its own
 * sandbox (issue 9). A process is a slot: its own folder (profile, private {@code /tmp}, and an exchange folder that
 * holds one conversion's input and output and is emptied after it), its own memory bound, no network. It sees no
 * blob store and no other slot, so a document linking to another account's file or a URL finds nothing. Each process
 * converts one document at a time; it is restarted after {@link OfficeProperties#maxTasks} conversions, and killed
 * and restarted when a conversion runs past {@link OfficeProperties#taskTimeout} or the process dies, so one bad file
 * fails only its own conversion and restarts only its own process. Started in the background when the service is
 * ready, or on first use.
 *
 * <p>Its failures are {@link EngineFailure}s of the same kinds as the process engines' (issue 40), observed in the
 * same block ({@link ProcessRunner#observe}): a document LibreOffice cannot load is {@code INVALID_INPUT}; a
 * conversion past the task timeout is {@code TIMEOUT}; one stopped by the memory cap is {@code BOUND_EXCEEDED}; a
 * crashed process, a pool that cannot start or a document that gives no output is {@code FAILED}.
 */
@Component
@EnableConfigurationProperties(OfficeProperties.class)
public class OfficePool {
    private static final Logger log = LoggerFactory.getLogger(OfficePool.class);
    private static final Path SOFFICE = Path.of("/usr/bin/soffice");
    /**
     * Runs inside the sandbox before LibreOffice: exposes its private loopback port as a UNIX socket ({@link UnoRelay});
     * a connection made while LibreOffice is still starting waits for it (up to 2 min) instead of being refused.
     */
    private static final String BESIDE_OFFICE =
            "socat UNIX-LISTEN:\"$0\",fork,unlink-early TCP:127.0.0.1:\"$1\",retry=1200,interval=0.1 & shift; exec \"$@\"";

    private final OfficeProperties props;
    private final Sandbox sandbox;
    private final MemoryCaps caps;
    private final AtomicInteger conversions = new AtomicInteger();
    // written under the pool's lock, which is held while a process starts (seconds, minutes on a loaded host); read
    // without it by health and metrics, which must never wait for a start (issue 41: readiness stalled 2 minutes)
    private final List<Slot> slots = new CopyOnWriteArrayList<>();
    /** Every slot's folder from its start until its processes are gone: a slot still starting is in no list of slots. */
    private final Set<Path> dirs = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean warming;
    private final ProcessRunner runner;
    private final java.util.concurrent.atomic.AtomicLong restarts = new java.util.concurrent.atomic.AtomicLong();
    private final BlockingQueue<Slot> free = new LinkedBlockingQueue<>();
    private Path template;

    /**
     * One LibreOffice process with its folder and memory cgroup (kept across the restarts JODConverter makes);
     * {@code relay} is null when the sandbox is off.
     */
    private record Slot(Path dir, Path exchange, LocalOfficeManager manager, LocalConverter converter, UnoRelay relay, MemoryCaps.Cap cap) {
    }

    /** @param runner observes each conversion as an engine run ({@link ProcessRunner#observe}) */
    public OfficePool(OfficeProperties props, Sandbox sandbox, MemoryCaps caps, ProcessRunner runner) {
        this.props = props;
        this.sandbox = sandbox;
        this.caps = caps;
        this.runner = runner;
        // if the JVM ends without closing the context (a killed test fork, SIGTERM races), leave no office behind
        Runtime.getRuntime().addShutdownHook(new Thread(this::killOwnProcesses, "office-pool-cleanup"));
    }

    /** True when LibreOffice is installed (otherwise Office conversions answer 503 at validation). */
    public boolean available() {
        return !props.officeHome().isBlank() ? Files.isDirectory(Path.of(props.officeHome())) : Files.isExecutable(SOFFICE)
                || Files.isDirectory(Path.of("/usr/lib/libreoffice/program"));
    }

    public OfficeProperties settings() {
        return props;
    }

    @EventListener(ApplicationReadyEvent.class)
    void warm() {
        if (!available()) {
            log.warn("engine libreoffice: not found; Office → PDF answers 503");
            return;
        }
        log.info("engine libreoffice: {} process(es), {} s per conversion, {} MB each, restart after {} conversions{}",
                props.processes(), props.taskTimeout().toSeconds(), props.memoryMb(), props.maxTasks(),
                props.warmAtStart() ? ", warming now" : ", started on first use");
        if (!props.warmAtStart()) return;
        warming = true;
        // a platform thread: a virtual one could hold a class-loading lock while it waits for a carrier, and on 2 cores
        // both carriers were seen blocked on that lock at start (the node hung, probes included; issue 24's compose check)
        Thread.ofPlatform().daemon().name("office-warm").start(() -> {
            try {
                start();
            } catch (Exception e) {
                log.warn("LibreOffice pool did not start; it is retried on first use: {}", e.getMessage());
            } finally {
                warming = false;
            }
        });
    }

    /** True while the pool is being started at the service's start (readiness waits for it; issue 24). */
    public boolean warming() {
        return warming;
    }

    /** How many LibreOffice processes are running (0 before the pool's first start). */
    public int running() {
        return slots.size();
    }

    /** Starts the pool if it is not running (idempotent; blocks until the processes accept work). */
    public synchronized void start() throws OfficeException, IOException {
        if (!slots.isEmpty()) return;
        long t0 = System.nanoTime();
        // JODConverter copies the profile template whenever it (re)starts a process, so it lives as long as the pool
        template = sandbox.newScratchDir("office-profile-");
        try (InputStream xcu = OfficePool.class.getResourceAsStream("/libreoffice/registrymodifications.xcu")) {
            Files.createDirectories(template.resolve("user"));
            Files.copy(xcu, template.resolve("user/registrymodifications.xcu"));
        }
        try {
            for (int i = 0; i < Math.max(1, props.processes()); i++) slots.add(startSlot(template));
        } catch (OfficeException | IOException | RuntimeException e) {
            stop(); // a half-started pool leaves no process behind
            throw e;
        }
        free.addAll(slots);
        log.info("LibreOffice pool started: {} process(es){} ({} ms)", slots.size(), sandbox.enabled() ? ", sandboxed" : "",
                (System.nanoTime() - t0) / 1_000_000);
    }

    private Slot startSlot(Path template) throws OfficeException, IOException {
        Path dir = sandbox.newScratchDir("office-");
        dirs.add(dir);
        Path exchange = Files.createDirectories(dir.resolve("exchange"));
        Path profile = Files.createDirectories(dir.resolve("profile"));
        UnoRelay relay = null;
        int port;
        MemoryCaps.Cap cap = caps.open("libreoffice");
        // JODConverter appends LibreOffice's own command line to the launcher: it starts in the slot's cgroup
        List<String> launcher = cap.enter(List.of());
        if (sandbox.enabled()) {
            relay = UnoRelay.start(dir.resolve("uno.sock"));
            port = relay.port();
            // JODConverter appends LibreOffice's own command line; the sandbox sees this slot's folder and nothing else
            Sandbox.Bounds bounds = new Sandbox.Bounds(props.memoryMb() << 20, 0, sandbox.defaults().fileBytes());
            launcher = cap.enter(sandbox.wrap(List.of("/bin/sh", "-c", BESIDE_OFFICE, dir.resolve("uno.sock").toString(), String.valueOf(port)),
                    Sandbox.Access.of(dir), bounds, Map.of()));
        } else {
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
        }
        LocalOfficeManager.Builder b = LocalOfficeManager.builder()
                .workingDir(profile.toFile())
                .templateProfileDir(template.toFile())
                .portNumbers(port)
                .runAsArgs(launcher.toArray(String[]::new))
                .maxTasksPerProcess(props.maxTasks())
                .taskExecutionTimeout(props.taskTimeout().toMillis())
                .taskQueueTimeout(props.queueTimeout().toMillis())
                // ports are ours alone: never kill or reuse a process some other service started on them
                .existingProcessAction(ExistingProcessAction.FAIL)
                // start() returns once the process accepts work (JODConverter's default starts it in the background:
                // the pool then had no process yet, and a first task could meet its start-up restart, exit code 81)
                .startFailFast(true)
                .processTimeout(120_000L); // start-up can be slow on a busy 2-core box
        if (!props.officeHome().isBlank()) b.officeHome(props.officeHome());
        LocalOfficeManager m = b.build();
        Slot slot = new Slot(dir, exchange, m, LocalConverter.builder().officeManager(m).build(), relay, cap);
        try {
            m.start();
        } catch (OfficeException | RuntimeException e) {
            stopSlot(slot);
            throw e;
        }
        return slot;
    }

    /**
     * Converts {@code in} to {@code out}; the formats come from the file extensions (e.g. {@code .docx} → {@code .pdf}).
     * The input is copied into a free process's exchange folder, which is emptied afterwards whatever happens. A
     * process stopped by a timeout or a crash is replaced, and later conversions are unaffected.
     *
     * @throws EngineFailure {@code INVALID_INPUT} when LibreOffice cannot load the document; {@code TIMEOUT} when it
     *                       ran past the task timeout ({@code DOCAPI_OFFICE_TASK_TIMEOUT}) or no process became free
     *                       within the queue timeout; {@code BOUND_EXCEEDED} when the kernel's memory cap stopped it;
     *                       {@code ENGINE_MISSING} when LibreOffice is not installed; {@code FAILED} when its process
     *                       crashed, the pool could not start or the conversion gave no output
     */
    public void convert(Path in, Path out) throws EngineFailure, InterruptedException {
        if (!available()) throw new EngineFailure(Kind.ENGINE_MISSING, "LibreOffice is not installed on this node");
        Sandbox.Bounds bounds = new Sandbox.Bounds(props.memoryMb() << 20, 0, sandbox.defaults().fileBytes());
        runner.observe("libreoffice", props.taskTimeout(), bounds, observation -> {
            convertInPool(in, out);
            return null;
        });
    }

    /** Conversions stopped by their timeout or a crash, after which JODConverter restarted that process. */
    public long restarts() {
        return restarts.get();
    }

    private void convertInPool(Path in, Path out) throws EngineFailure, InterruptedException {
        try {
            start();
        } catch (OfficeException | IOException e) {
            log.warn("LibreOffice could not be started: {}", e.toString());
            throw new EngineFailure(Kind.FAILED, "LibreOffice could not be started on this node; the document was not converted", e);
        }
        Slot slot = free.poll(props.queueTimeout().toMillis(), TimeUnit.MILLISECONDS);
        if (slot == null) {
            throw new EngineFailure(Kind.TIMEOUT, "no LibreOffice process became free within " + props.queueTimeout().toMinutes()
                    + " min (DOCAPI_OFFICE_QUEUE_TIMEOUT); the document was not converted");
        }
        long restartsBefore = restarts.get();
        try {
            Path src = slot.exchange().resolve(in.getFileName());
            Path dst = slot.exchange().resolve("output." + extension(out));
            Files.copy(in, src);
            convert(slot, src, dst);
            Files.move(dst, out, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            log.warn("LibreOffice's exchange folder failed: {}", e.toString());
            throw new EngineFailure(Kind.FAILED, "the document could not be handed to LibreOffice or its output taken back", e);
        } finally {
            try {
                emptyExchange(slot);
                if (restarts.get() > restartsBefore) {
                    // a job stopped at its deadline still replaces the process it leaves behind (issue 40 item 1)
                    boolean interrupted = Thread.interrupted();
                    try {
                        slot = replace(slot);
                    } finally {
                        if (interrupted) Thread.currentThread().interrupt();
                    }
                }
            } finally {
                if (slot != null) free.add(slot); // whatever happens, the process serves the next document
            }
        }
    }

    /**
     * A fresh slot in place of one whose process was stopped by a timeout or crashed: JODConverter restarts such a
     * process in place, but on a busy machine that restart was seen failing ("Could not start the office process")
     * and every later task of the slot then ran into its timeout. When no new process starts, the slot is dropped
     * (null): the pool goes on with the others, and starts anew on the next conversion when none is left.
     */
    private synchronized Slot replace(Slot slot) {
        int i = slots.indexOf(slot);
        if (i < 0) return null; // the pool was stopped meanwhile
        stopSlot(slot);
        try {
            Slot fresh = startSlot(template);
            slots.set(i, fresh);
            return fresh;
        } catch (OfficeException | IOException | RuntimeException e) {
            log.warn("a LibreOffice process could not be replaced after a failed conversion: {}", e.getMessage());
            slots.remove(i);
            if (slots.isEmpty()) log.warn("no LibreOffice process left; the pool starts again on the next conversion");
            return null;
        }
    }

    private void convert(Slot slot, Path in, Path out) throws EngineFailure, IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            long t0 = System.nanoTime();
            long oomKills = slot.cap().oomKills();
            try {
                executeWatched(slot, in, out);
                break;
            } catch (InterruptedException e) {
                Files.deleteIfExists(out);
                Thread.currentThread().interrupt(); // the caller's thread stays stopped
                throw stoppedWithItsJob(e);
            } catch (ProcessEnded e) {
                Files.deleteIfExists(out);
                restarts.incrementAndGet(); // the slot is replaced
                log.warn("LibreOffice's process ended while converting {} ({} ms)", in.getFileName(), (System.nanoTime() - t0) / 1_000_000);
                if (slot.cap().oomKills() > oomKills) {
                    throw new EngineFailure(Kind.BOUND_EXCEEDED, "LibreOffice was stopped: the document needs more than the " + slot.cap().megabytes()
                            + " MB of memory one LibreOffice process may use (DOCAPI_ENGINE_MEMORY_CAP_MB)");
                }
                throw crashed();
            } catch (OfficeException e) {
                Files.deleteIfExists(out);
                if (Thread.currentThread().isInterrupted()) throw stoppedWithItsJob(e);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                boolean timedOut = causeChainMentions(e, "did not complete within timeout");
                // a process on its first start restarts itself once (exit code 81) and may drop the first task
                boolean cancelled = !timedOut && (causeChainMentions(e, "cancelled") || causeChainMentions(e, "component loader"));
                log.warn("LibreOffice conversion of {} failed after {} ms (attempt {}): {}", in.getFileName(), ms, attempt, e.toString());
                if (slot.cap().oomKills() > oomKills) {
                    // the kernel stopped it at the cap (issue 31): the same document would only reach it again
                    restarts.incrementAndGet();
                    throw new EngineFailure(Kind.BOUND_EXCEEDED, "LibreOffice was stopped: the document needs more than the " + slot.cap().megabytes()
                            + " MB of memory one LibreOffice process may use (DOCAPI_ENGINE_MEMORY_CAP_MB)", e);
                }
                // A task handed to a process that is being restarted (after an earlier timeout or crash) is cancelled
                // at once: that is not this document's fault, so try again on the fresh process. A task cancelled
                // after running a while lost its process under it (JODConverter sees the connection drop before
                // executeWatched sees the process gone): a crash of this conversion, not retried, and the slot replaced.
                if (cancelled && ms < 1000 && attempt <= 3) {
                    sleepQuietly(1000L * attempt);
                    continue;
                }
                if (timedOut || cancelled) restarts.incrementAndGet();
                throw failure(e, timedOut, cancelled);
            }
        }
        conversions.incrementAndGet();
        if (!Files.isRegularFile(out) || Files.size(out) == 0) {
            Files.deleteIfExists(out);
            throw new EngineFailure(Kind.FAILED, "LibreOffice loaded the document but wrote no output for it");
        }
    }

    /**
     * What a failed conversion was, in words a client may read (JODConverter's own texts stay in the log): only a
     * document LibreOffice could not load is the input's fault; a timeout or a crash is not, though its message says
     * what bound the document met.
     */
    private EngineFailure failure(OfficeException e, boolean timedOut, boolean cancelled) {
        if (timedOut) {
            return new EngineFailure(Kind.TIMEOUT, "LibreOffice did not finish converting the document within " + props.taskTimeout().toSeconds()
                    + " s (DOCAPI_OFFICE_TASK_TIMEOUT) and was stopped: the document needs more time than one conversion may take", e);
        }
        if (cancelled) return crashed();
        // JODConverter's words for a document LibreOffice refused to load, and for one that asks for a password
        if (causeChainMentions(e, "password requested")) {
            return new EngineFailure(Kind.PASSWORD_NEEDED, "LibreOffice could not open the document: it is password-protected", e);
        }
        if (causeChainMentions(e, "could not open document")) {
            return new EngineFailure(Kind.INVALID_INPUT,
                    "LibreOffice could not open the document: it is damaged or not a document LibreOffice can read", e);
        }
        return new EngineFailure(Kind.FAILED, "LibreOffice failed while converting the document", e);
    }

    /** A conversion whose LibreOffice process ended under it: not the document's fault, as far as anyone can tell. */
    private EngineFailure crashed() {
        return new EngineFailure(Kind.FAILED, "LibreOffice stopped while converting the document (its process crashed, was killed or went past its "
                + props.memoryMb() + " MB memory bound) and was replaced; the conversion may succeed if retried");
    }

    /** The slot's LibreOffice processes were all gone while a conversion was running. */
    private static final class ProcessEnded extends Exception {
    }

    /** How long a slot may show no LibreOffice process during a conversion before the process counts as ended. */
    private static final long GONE_MS = 3000;

    /**
     * Runs the conversion while watching the slot's processes: JODConverter notices a LibreOffice that died under
     * a task only at the task timeout (a killed process was seen to hold its conversion for the full 120 s and then
     * be reported as a timeout), so a conversion whose processes are all gone for {@value #GONE_MS} ms is abandoned
     * at once (the slot is then replaced, which ends the abandoned call).
     *
     * @throws ProcessEnded when the processes ended under the conversion
     */
    private void executeWatched(Slot slot, Path in, Path out) throws OfficeException, ProcessEnded, InterruptedException {
        java.util.concurrent.FutureTask<Void> task = new java.util.concurrent.FutureTask<>(() -> {
            slot.converter().convert(in.toFile()).to(out.toFile()).execute();
            return null;
        });
        Thread.ofPlatform().daemon().name("office-convert").start(task);
        boolean seen = false;
        long goneSince = 0;
        try {
            while (true) {
                try {
                    task.get(500, TimeUnit.MILLISECONDS);
                    return;
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof OfficeException oe) throw oe;
                    if (e.getCause() instanceof RuntimeException re) throw re;
                    throw new IllegalStateException(e.getCause());
                } catch (java.util.concurrent.TimeoutException e) {
                    if (!processesIn(slot.dir()).isEmpty()) {
                        seen = true;
                        goneSince = 0;
                    } else if (seen && goneSince == 0) {
                        goneSince = System.nanoTime();
                    } else if (seen && System.nanoTime() - goneSince > GONE_MS * 1_000_000) {
                        throw new ProcessEnded();
                    }
                }
            }
        } finally {
            if (!task.isDone()) task.cancel(true);
        }
    }

    /** Empties the exchange folder; a file LibreOffice removes meanwhile (its lock file) is no error. */
    private static void emptyExchange(Slot slot) {
        try (var files = Files.list(slot.exchange())) {
            for (Path p : (Iterable<Path>) files::iterator) {
                try {
                    FileSystemUtils.deleteRecursively(p);
                } catch (IOException e) {
                    if (Files.exists(p)) log.warn("could not empty LibreOffice's exchange folder: {}", e.toString());
                }
            }
        } catch (IOException e) {
            log.warn("could not list LibreOffice's exchange folder: {}", e.toString());
        }
    }

    private static String extension(Path p) {
        String name = p.getFileName().toString();
        return name.substring(name.lastIndexOf('.') + 1);
    }

    /** Conversions that succeeded since start (for tests and logs). */
    public int conversions() {
        return conversions.get();
    }

    /** Stops the processes and removes their folders (on shutdown). */
    @jakarta.annotation.PreDestroy
    public synchronized void stop() {
        slots.forEach(this::stopSlot);
        slots.clear();
        free.clear();
        if (template != null) FileSystemUtils.deleteRecursively(template.toFile());
        template = null;
    }

    private void stopSlot(Slot slot) {
        // killed first: JODConverter's stop asks a busy process to terminate and waits up to the process timeout
        // (120 s) for it, and replace() and stop() hold the pool's lock meanwhile, so one conversion stopped with its
        // job held every later conversion of the node for two minutes. Nothing of a pool process needs saving.
        processesIn(slot.dir()).forEach(ProcessHandle::destroyForcibly);
        try {
            slot.manager().stop();
        } catch (OfficeException | RuntimeException e) {
            log.warn("LibreOffice process did not stop cleanly: {}", e.getMessage());
        }
        killAllIn(slot.dir());
        dirs.remove(slot.dir());
        slot.cap().close();
        try {
            if (slot.relay() != null) slot.relay().close();
            FileSystemUtils.deleteRecursively(slot.dir().toFile());
        } catch (IOException e) {
            log.warn("LibreOffice folder {} not removed: {}", slot.dir().getFileName(), e.getMessage());
        }
    }

    /** Kills this pool's LibreOffice processes (and only those), by their process id. */
    private void killOwnProcesses() {
        dirs.forEach(OfficePool::killAllIn);
    }

    /**
     * Kills every process of a slot's folder, again until none is left (up to 2 s): one round can kill bubblewrap
     * while its sandbox's PID 1, still setting up, has not yet armed its own death with its parent, which left that
     * PID 1 and LibreOffice running under init after a SIGTERM ({@code OrphanIT}, once in a CI run); the next round
     * finds them by the same folder.
     */
    private static void killAllIn(Path dir) {
        for (int round = 0; round < 40; round++) {
            List<ProcessHandle> left = processesIn(dir);
            if (left.isEmpty()) return;
            left.forEach(ProcessHandle::destroyForcibly);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The live LibreOffice processes of this pool: those whose profile lies in one of this pool's slot folders.
     * (Not "descendants of this JVM": LibreOffice's launcher re-parents {@code soffice.bin} to init on restart.)
     */
    public List<ProcessHandle> processes() {
        return List.copyOf(slots).stream().flatMap(s -> processesIn(s.dir()).stream()).toList();
    }

    private static List<ProcessHandle> processesIn(Path dir) {
        String marker = "UserInstallation=file://" + dir + "/";
        return ProcessHandle.allProcesses().filter(ph -> {
            String cmd = ph.info().commandLine().orElse("");
            return cmd.contains("soffice") && cmd.contains(marker);
        }).toList();
    }

    /**
     * The job was stopped (its deadline passed, or the node is stopping) while LibreOffice may still be busy with the
     * document: its process is replaced, not handed to the next document (issue 40 item 1).
     */
    private EngineFailure stoppedWithItsJob(Exception cause) {
        restarts.incrementAndGet();
        return new EngineFailure(Kind.TIMEOUT, "the conversion was stopped with its job (its deadline passed or the node is stopping)", cause);
    }

    private static boolean causeChainMentions(Throwable e, String words) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().toLowerCase(java.util.Locale.ROOT).contains(words.toLowerCase(java.util.Locale.ROOT))) return true;
        }
        return false;
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
