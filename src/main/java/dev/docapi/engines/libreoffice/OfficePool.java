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
    private volatile int[] activePorts = new int[0];
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
        if (!props.warmAtStart() || !available()) return;
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
        activePorts = ports;
        if (workingDir == null) workingDir = Files.createTempDirectory("docapi-office-");
        LocalOfficeManager.Builder b = LocalOfficeManager.builder()
                .workingDir(workingDir.toFile())
                .portNumbers(ports)
                .maxTasksPerProcess(props.maxTasks())
                .taskExecutionTimeout(props.taskTimeout().toMillis())
                .taskQueueTimeout(props.queueTimeout().toMillis())
                // ports are ours alone: never kill or reuse a process some other service started on them
                .existingProcessAction(ExistingProcessAction.FAIL)
                .processTimeout(30_000L);
        if (!props.officeHome().isBlank()) b.officeHome(props.officeHome());
        LocalOfficeManager m = b.build();
        long t0 = System.nanoTime();
        m.start();
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
        long t0 = System.nanoTime();
        try {
            converter.convert(in.toFile()).to(out.toFile()).execute();
        } catch (OfficeException e) {
            Files.deleteIfExists(out);
            boolean timedOut = causeChainMentions(e, "timeout") || causeChainMentions(e, "did not complete");
            log.warn("LibreOffice conversion of {} failed after {} ms: {}", in.getFileName(), (System.nanoTime() - t0) / 1_000_000, e.toString());
            throw new ConversionException(timedOut
                    ? "LibreOffice did not finish converting the document within " + props.taskTimeout().toSeconds() + " s; the conversion was stopped"
                    : "LibreOffice could not convert the document (it is damaged, protected or not a document LibreOffice can read)",
                    timedOut, e);
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

    /** Kills the LibreOffice processes this JVM started on this pool's ports (and only those), by their process id. */
    private void killOwnProcesses() {
        processes().forEach(ProcessHandle::destroyForcibly);
    }

    /** The live LibreOffice processes of this pool: descendants of this JVM listening on the pool's ports. */
    public java.util.List<ProcessHandle> processes() {
        int[] ports = activePorts;
        return ProcessHandle.current().descendants().filter(ph -> {
            String cmd = ph.info().commandLine().orElse("");
            if (!cmd.contains("soffice")) return false;
            for (int port : ports) if (cmd.contains("port=" + port + ",") || cmd.contains("port=" + port + ";")) return true;
            return false;
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

    private static boolean causeChainMentions(Throwable e, String word) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().toLowerCase(java.util.Locale.ROOT).contains(word)) return true;
            if (t instanceof java.util.concurrent.TimeoutException) return true;
        }
        return false;
    }
}
