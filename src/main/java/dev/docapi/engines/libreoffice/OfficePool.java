package dev.docapi.engines.libreoffice;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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

/**
 * A pool of warm LibreOffice processes driven through JODConverter (DESIGN §2 "Office → PDF"). Each process converts
 * one document at a time; it is restarted after {@link OfficeProperties#maxTasks} conversions, and killed and
 * restarted when a conversion runs past {@link OfficeProperties#taskTimeout} or the process dies, so one bad file
 * fails only its own conversion. Started in the background when the service is ready, or on first use.
 */
@Component
@EnableConfigurationProperties(OfficeProperties.class)
public class OfficePool {
    private static final Logger log = LoggerFactory.getLogger(OfficePool.class);
    private static final Path SOFFICE = Path.of("/usr/bin/soffice");

    private final OfficeProperties props;
    private final AtomicInteger conversions = new AtomicInteger();
    private volatile LocalOfficeManager manager;
    private volatile LocalConverter converter;
    private volatile Path workingDir;

    /** Thrown when a document could not be converted: LibreOffice refused it, timed out on it or died on it. */
    public static class ConversionException extends Exception {
        private final boolean timedOut;

        ConversionException(String message, boolean timedOut, Throwable cause) {
            super(message, cause);
            this.timedOut = timedOut;
        }

        public boolean timedOut() {
            return timedOut;
        }
    }

    public OfficePool(OfficeProperties props) {
        this.props = props;
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
        log.info("engine libreoffice: {} process(es), {} s per conversion, restart after {} conversions{}", props.processes(),
                props.taskTimeout().toSeconds(), props.maxTasks(), props.warmAtStart() ? ", warming now" : ", started on first use");
        if (!props.warmAtStart()) return;
        Thread.ofVirtual().name("office-warm").start(() -> {
            try {
                start();
            } catch (Exception e) {
                log.warn("LibreOffice pool did not start; it is retried on first use: {}", e.getMessage());
            }
        });
    }

    /** Starts the pool if it is not running (idempotent; blocks until the processes accept work). */
    public synchronized void start() throws OfficeException, IOException {
        if (manager != null && manager.isRunning()) return;
        int[] ports = ports();
        if (workingDir == null) workingDir = Files.createTempDirectory("docapi-office-");
        LocalOfficeManager.Builder b = LocalOfficeManager.builder()
                .workingDir(workingDir.toFile())
                .portNumbers(ports)
                .maxTasksPerProcess(props.maxTasks())
                .taskExecutionTimeout(props.taskTimeout().toMillis())
                .taskQueueTimeout(props.queueTimeout().toMillis())
                // ports are ours alone: never kill or reuse a process some other service started on them
                .existingProcessAction(ExistingProcessAction.FAIL)
                .processTimeout(120_000L); // start-up can be slow on a busy 2-core box
        if (!props.officeHome().isBlank()) b.officeHome(props.officeHome());
        LocalOfficeManager m = b.build();
        long t0 = System.nanoTime();
        try {
            m.start();
        } catch (OfficeException | RuntimeException e) {
            // a half-started pool must not leave processes behind (the next start picks new ports)
            try {
                m.stop();
            } catch (OfficeException | RuntimeException ignored) {
                // already failing; the processes are killed below
            }
            killOwnProcesses();
            throw e;
        }
        manager = m;
        converter = LocalConverter.builder().officeManager(m).build();
        log.info("LibreOffice pool started: {} process(es) on port(s) {} in {} ms", ports.length, Arrays.toString(ports),
                (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Converts {@code in} to {@code out}; the formats come from the file extensions (e.g. {@code .docx} → {@code .pdf}).
     *
     * @throws ConversionException when LibreOffice cannot load the file, takes longer than the task timeout, or its
     *                             process dies; the pool restarts that process and later conversions are unaffected
     */
    public void convert(Path in, Path out) throws ConversionException, IOException {
        try {
            start();
        } catch (OfficeException e) {
            throw new IOException("LibreOffice could not be started: " + e.getMessage(), e);
        }
        for (int attempt = 1; ; attempt++) {
            long t0 = System.nanoTime();
            try {
                converter.convert(in.toFile()).to(out.toFile()).execute();
                break;
            } catch (OfficeException e) {
                Files.deleteIfExists(out);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                boolean timedOut = causeChainMentions(e, "did not complete within timeout");
                boolean cancelled = !timedOut && causeChainMentions(e, "cancelled");
                log.warn("LibreOffice conversion of {} failed after {} ms (attempt {}): {}", in.getFileName(), ms, attempt, e.toString());
                // A task handed to a process that is being restarted (after another document's timeout or crash) is
                // cancelled at once: that is not this document's fault, so try again on the fresh process. A task
                // cancelled after running a while was probably the one that crashed it: one more try, then fail.
                if (cancelled && (ms < 1000 ? attempt <= 3 : attempt <= 1)) {
                    sleepQuietly(1000L * attempt);
                    continue;
                }
                throw new ConversionException(timedOut
                        ? "LibreOffice did not finish converting the document within " + props.taskTimeout().toSeconds() + " s; the conversion was stopped"
                        : cancelled ? "LibreOffice stopped while converting the document (its process crashed and was restarted)"
                        : "LibreOffice could not convert the document (it is damaged, protected or not a document LibreOffice can read)",
                        timedOut, e);
            }
        }
        conversions.incrementAndGet();
        if (!Files.isRegularFile(out) || Files.size(out) == 0) {
            Files.deleteIfExists(out);
            throw new ConversionException("LibreOffice produced no output for the document", false, null);
        }
    }

    /** Conversions that succeeded since start (for tests and logs). */
    public int conversions() {
        return conversions.get();
    }

    /** Stops the processes (on shutdown). */
    @jakarta.annotation.PreDestroy
    public synchronized void stop() {
        if (manager == null) return;
        try {
            manager.stop();
        } catch (OfficeException e) {
            log.warn("LibreOffice pool did not stop cleanly: {}", e.getMessage());
        }
        manager = null;
        killOwnProcesses();
        if (workingDir != null) org.springframework.util.FileSystemUtils.deleteRecursively(workingDir.toFile());
    }

    /** Kills this pool's LibreOffice processes (and only those), by their process id. */
    private void killOwnProcesses() {
        processes().forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * The live LibreOffice processes of this pool: those whose profile lies in this pool's private working directory.
     * (Not "descendants of this JVM": LibreOffice's launcher re-parents {@code soffice.bin} to init on restart.)
     */
    public java.util.List<ProcessHandle> processes() {
        Path dir = workingDir;
        if (dir == null) return java.util.List.of();
        String marker = "UserInstallation=file://" + dir;
        return ProcessHandle.allProcesses().filter(ph -> {
            String cmd = ph.info().commandLine().orElse("");
            return cmd.contains("soffice") && cmd.contains(marker);
        }).toList();
    }

    private int[] ports() throws IOException {
        int n = Math.max(1, props.processes());
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            if (props.ports() > 0) {
                ports[i] = props.ports() + i;
            } else {
                try (ServerSocket s = new ServerSocket(0)) {
                    ports[i] = s.getLocalPort();
                }
            }
        }
        return ports;
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
