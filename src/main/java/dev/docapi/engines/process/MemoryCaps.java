package dev.docapi.engines.process;

import dev.docapi.config.DocapiProperties;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Memory caps the kernel enforces on an engine's whole process tree (issue 31): each capped run — a one-off engine
 * run, the Chromium browser, one LibreOffice process — gets a memory cgroup of its own, a child of the service's,
 * with a limit on resident memory and page cache together and no swap. Past it the kernel's OOM killer stops a
 * process of that tree, never the service or another job's engine. {@code RLIMIT_AS} cannot do this: Chromium's and
 * LibreOffice's allocators reserve far more address space than they use.
 *
 * <p>Works where the service may write its own cgroup: cgroup v1's memory hierarchy, or a delegated cgroup v2 subtree
 * (a systemd unit with {@code Delegate=yes}, a container with a writable cgroup namespace). On v2 the service first
 * moves its own processes to a leaf {@code docapi-service}, as the "no internal processes" rule asks, so the memory
 * controller can be enabled for its children. Elsewhere caps are off, said once at start, and the per-engine bounds
 * remain (V8's heap limit, {@code RLIMIT_AS}, CPU time, timeouts) — docs/security.md lists them per deployment.
 *
 * <p>The cap is {@code DOCAPI_ENGINE_MEMORY_CAP_MB}; 0 (the default) sizes it from the node: its memory divided by
 * the workers plus two (the JVM and the warm engines), between 768 and 2048 MB.
 */
@Component
public class MemoryCaps {
    private static final Logger log = LoggerFactory.getLogger(MemoryCaps.class);
    private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");
    private static final String PREFIX = "docapi-";
    /** Enters the cgroup named by $0, then runs the command: every process it starts stays in it. */
    private static final String ENTER = "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"";

    private enum Version { V1, V2 }

    private final Version version;
    private final Path base;
    private final long bytes;
    private final AtomicLong sequence = new AtomicLong();

    /**
     * @param capMb the cap of one run in MB ({@code DOCAPI_ENGINE_MEMORY_CAP_MB}); 0 sizes it from the node's memory
     *              and {@code DOCAPI_WORKERS}; negative switches caps off
     */
    public MemoryCaps(DocapiProperties props, @Value("${docapi.sandbox.memory-cap-mb:0}") long capMb) {
        this.bytes = capMb > 0 ? capMb << 20 : capMb == 0 ? sized(props.workers()) : 0;
        Path found = null;
        Version v = null;
        String why = "DOCAPI_ENGINE_MEMORY_CAP_MB is negative";
        if (bytes > 0) {
            try {
                found = cgroupV1();
                v = Version.V1;
                if (found == null) {
                    found = cgroupV2();
                    v = Version.V2;
                }
                why = found == null ? "this host gives the service no cgroup it may write (no cgroup delegation)" : null;
            } catch (IOException | RuntimeException e) {
                found = null;
                why = "its cgroup could not be prepared: " + e.getMessage();
            }
        }
        this.base = found;
        this.version = found == null ? null : v;
        if (found != null) {
            removeLeftovers();
            log.info("engine memory cap: {} MB per engine run, enforced by the kernel (cgroup {}, {})", bytes >> 20,
                    version == Version.V1 ? "v1" : "v2", base);
        } else {
            log.warn("engine memory cap off: {}; engines are bounded by V8's heap limit, RLIMIT_AS, CPU time and timeouts only", why);
        }
    }

    /** Caps switched off: for tools and tests that start engines outside the service. */
    public static MemoryCaps off() {
        return new MemoryCaps(null, -1);
    }

    /** True when runs are capped by the kernel here. */
    public boolean enforced() {
        return base != null;
    }

    /** The cap of one run, bytes (0 when caps are off). */
    public long bytes() {
        return base == null ? 0 : bytes;
    }

    /** The node's memory over the workers plus two, clamped to 768..2048 MB. */
    private static long sized(int workers) {
        long total = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
        long share = total / (Math.max(1, workers) + 2);
        return Math.clamp(share, 768L << 20, 2048L << 20);
    }

    /**
     * A new cgroup for one run of {@code engine}, limited to {@link #bytes()}; close it when the run's processes are
     * gone. When caps are off, a cap that limits nothing.
     */
    public Cap open(String engine) {
        if (base == null) return new Cap(null, 0);
        Path dir = base.resolve(PREFIX + engine.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + ProcessHandle.current().pid() + "-" + sequence.incrementAndGet());
        try {
            Files.createDirectory(dir);
            if (version == Version.V1) {
                Files.writeString(dir.resolve("memory.limit_in_bytes"), Long.toString(bytes));
                // memory + swap at the same limit: no swap
                writeIfPresent(dir.resolve("memory.memsw.limit_in_bytes"), Long.toString(bytes));
            } else {
                Files.writeString(dir.resolve("memory.max"), Long.toString(bytes));
                writeIfPresent(dir.resolve("memory.swap.max"), "0");
            }
            return new Cap(dir, bytes);
        } catch (IOException e) {
            log.warn("could not make the memory cgroup of a {} run ({}); it runs uncapped", engine, e.toString());
            removeQuietly(dir);
            return new Cap(null, 0);
        }
    }

    /** One run's cgroup. */
    public final class Cap implements AutoCloseable {
        private final Path dir;
        private final long limit;

        private Cap(Path dir, long limit) {
            this.dir = dir;
            this.limit = limit;
        }

        /** The limit in MB, for messages (0: none). */
        public long megabytes() {
            return limit >> 20;
        }

        /** {@code command} preceded by a shell that moves itself into this cgroup, then execs it; as is when uncapped. */
        public List<String> enter(List<String> command) {
            if (dir == null) return command;
            List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", ENTER, dir.toString()));
            cmd.addAll(command);
            return cmd;
        }

        /** How many processes of this cgroup the kernel killed for passing the cap, so far. */
        public long oomKills() {
            if (dir == null) return 0;
            Path file = dir.resolve(version == Version.V1 ? "memory.oom_control" : "memory.events");
            try {
                for (String line : Files.readAllLines(file)) {
                    if (line.startsWith("oom_kill ")) return Long.parseLong(line.substring(9).strip());
                }
            } catch (IOException | NumberFormatException e) {
                log.debug("could not read {}: {}", file, e.toString());
            }
            return 0;
        }

        /** The most memory the run used at once, bytes (0 when unknown). */
        public long peakBytes() {
            if (dir == null) return 0;
            try {
                Path f = dir.resolve(version == Version.V1 ? "memory.max_usage_in_bytes" : "memory.peak");
                return Files.exists(f) ? Long.parseLong(Files.readString(f).strip()) : 0;
            } catch (IOException | NumberFormatException e) {
                return 0;
            }
        }

        /** Removes the cgroup; its processes have exited (or are being killed: it is retried for up to 2 s). */
        @Override
        public void close() {
            if (dir == null) return;
            for (int i = 0; i < 20 && Files.exists(dir); i++) {
                try {
                    Files.delete(dir);
                } catch (IOException e) {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            if (Files.exists(dir)) log.warn("memory cgroup {} still has processes; left for the next start to remove", dir);
        }
    }

    /** The service's own memory cgroup on v1, when it may make children there. */
    private static Path cgroupV1() throws IOException {
        for (String line : selfCgroups()) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && List.of(f[1].split(",")).contains("memory")) {
                Path dir = CGROUP_ROOT.resolve("memory").resolve(f[2].substring(1));
                return Files.isWritable(dir) && Files.exists(dir.resolve("memory.limit_in_bytes")) ? dir : null;
            }
        }
        return null;
    }

    /**
     * The service's own cgroup on a v2 hierarchy, with the memory controller enabled for its children, when it may do
     * that: its processes are moved into a leaf first (a cgroup with processes cannot enable controllers for children).
     */
    private static Path cgroupV2() throws IOException {
        if (!Files.exists(CGROUP_ROOT.resolve("cgroup.controllers"))) return null;
        for (String line : selfCgroups()) {
            if (!line.startsWith("0::")) continue;
            Path dir = CGROUP_ROOT.resolve(line.substring(3).replaceFirst("^/", ""));
            if (!Files.isWritable(dir.resolve("cgroup.subtree_control"))) return null;
            if (!Files.readString(dir.resolve("cgroup.controllers")).contains("memory")) return null;
            if (!Files.readString(dir.resolve("cgroup.subtree_control")).contains("memory")) {
                Path leaf = dir.resolve(PREFIX + "service");
                if (!Files.exists(leaf)) Files.createDirectory(leaf);
                for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                    try {
                        Files.writeString(leaf.resolve("cgroup.procs"), pid);
                    } catch (IOException e) {
                        // a process that exited meanwhile
                    }
                }
                Files.writeString(dir.resolve("cgroup.subtree_control"), "+memory");
            }
            return dir;
        }
        return null;
    }

    private static List<String> selfCgroups() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/cgroup"));
    }

    /**
     * Cgroups a service that is gone left (it was killed mid-run; their processes died with it). Names carry the pid
     * of the service that made them, so another node on this host keeps its own.
     */
    private void removeLeftovers() {
        try (var dirs = Files.list(base)) {
            dirs.filter(d -> {
                String[] parts = d.getFileName().toString().split("-");
                if (!d.getFileName().toString().startsWith(PREFIX) || parts.length < 4) return false;
                try {
                    return ProcessHandle.of(Long.parseLong(parts[parts.length - 2])).map(h -> !h.isAlive()).orElse(true);
                } catch (NumberFormatException e) {
                    return false;
                }
            }).forEach(MemoryCaps::removeQuietly);
        } catch (IOException e) {
            log.debug("could not list {}: {}", base, e.toString());
        }
    }

    private static void removeQuietly(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            log.debug("could not remove {}: {}", dir, e.toString());
        }
    }

    private static void writeIfPresent(Path file, String value) throws IOException {
        if (Files.exists(file)) Files.writeString(file, value);
    }
}
