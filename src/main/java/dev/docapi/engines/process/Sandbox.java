package dev.docapi.engines.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import dev.docapi.config.DocapiProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Wraps an engine's command line in a bubblewrap sandbox (issue 9): every namespace unshared (no network at all: TCP,
 * UDP and DNS fail; its own PID tree), a new session, killed with the service ({@code --die-with-parent}), all
 * capabilities dropped. The sandbox sees read-only system files ({@code /usr}, fonts, the loader cache), a private
 * {@code /tmp}, the one folder it may write (its job's scratch folder) and the files it is given to read — never the
 * blob store, another job's folder, the data dir or the database. Resource bounds ({@link Bounds}) are applied inside
 * with {@code prlimit}.
 *
 * <p>With {@code DOCAPI_UNSANDBOXED=true} commands run as they are (only the bounds apply); the service refuses to
 * start when bubblewrap cannot create a sandbox and that variable is not set ({@link #verify()}).
 */
@Component
public class Sandbox {
    private static final Logger log = LoggerFactory.getLogger(Sandbox.class);
    private static final String BWRAP = "/usr/bin/bwrap";
    private static final String PRLIMIT = "/usr/bin/prlimit";
    private static final String SETPRIV = "/usr/bin/setpriv";
    /** coreutils' {@code env}: {@code --default-signal} resets a signal's handling before the parent shell starts. */
    private static final String ENV = "/usr/bin/env";
    /**
     * Run by {@code /bin/sh} under {@code setpriv --pdeathsig HUP} (HUP, INT and TERM reset to their defaults by
     * {@code env --default-signal}): the sandbox's parent for its whole run. It exits
     * unless its parent is still the service ({@code $1}), runs bubblewrap as its child (stdin passed on through fd 3:
     * an asynchronous command's own stdin is {@code /dev/null}) and exits with its status. When the service dies (the
     * HUP), or the sandbox is stopped (INT, TERM), it stops bubblewrap and waits until it has stopped (a signal is
     * only sent when {@code kill} returns: bubblewrap, running on another core, could still start PID 1 after its
     * children were read), so that it starts nothing more, then kills its child, PID 1 of the sandbox's PID namespace
     * (the kernel kills the rest of the namespace with it), and bubblewrap.
     *
     * <p>Why not bubblewrap's {@code --die-with-parent} alone: bubblewrap 0.8 arms it in the sandbox's PID 1 only
     * after setting the sandbox up. A service killed in those milliseconds left the sandbox running: blocked for good
     * before its set-up, or running its engine to the end unsupervised (37 of 100 services killed 0-19 ms after they
     * started a sandbox; none with this parent; {@code SandboxParentTest}).
     */
    private static final String PARENT = "exec 3<&0; "
            + "trap 'kill -STOP $! 2>/dev/null; n=0; "
            + "while [ -n \"$!\" ] && [ $n -lt 100000 ] && read -r _ _ s _ < /proc/$!/stat; do case $s in [TtZX]) break;; esac; n=$((n + 1)); done 2>/dev/null; "
            + "for c in $(cat /proc/$!/task/$!/children 2>/dev/null); do kill -KILL $c; done; "
            + "kill -KILL $! 2>/dev/null; exit 137' HUP INT TERM; "
            + "read -r _ _ _ parent _ < /proc/$$/stat; [ \"$parent\" = \"$1\" ] || exit 137; "
            + "shift; \"$@\" <&3 3<&- & wait $!";
    /** System folders an engine may read; absent ones are skipped. */
    private static final List<String> SYSTEM_READ_ONLY = List.of("/usr", "/etc/fonts", "/etc/ld.so.cache",
            "/etc/alternatives", "/etc/ssl/certs", "/etc/libreoffice", "/etc/ImageMagick-6", "/var/cache/fontconfig",
            "/etc/chromium.d", "/etc/chromium",
            // Debian's Ghostscript CMaps and CID font map: without them pdfwrite re-encodes an OCR layer's CID font so
            // that its text shows .notdef (issue 27: veraPDF's rule 6.2.11.8-1 on every OCR'd scan made PDF/A)
            "/var/lib/ghostscript");

    private final boolean enabled;
    private final Bounds defaults;
    private final Path scratchRoot;

    /**
     * What one engine run may use. Zero means "no limit" for that resource.
     *
     * @param memoryBytes virtual memory ({@code RLIMIT_AS}) of each process, bytes
     * @param cpuSeconds  CPU time of each process ({@code RLIMIT_CPU}), seconds
     * @param fileBytes   largest file a process may write ({@code RLIMIT_FSIZE}), bytes
     */
    public record Bounds(long memoryBytes, long cpuSeconds, long fileBytes) {
        public static final Bounds NONE = new Bounds(0, 0, 0);

        public Bounds withMemory(long bytes) {
            return new Bounds(bytes, cpuSeconds, fileBytes);
        }
    }

    /**
     * What a sandboxed process may touch: one writable folder (bound read-write at the same path, also its working
     * directory, {@code HOME} and {@code TMPDIR}) and files or folders it may read (bound read-only at the same path).
     * Paths inside {@code writable} need not be listed.
     */
    public record Access(Path writable, List<Path> readable) {
        public Access {
            writable = writable == null ? null : writable.toAbsolutePath().normalize();
            readable = readable.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        }

        public static Access of(Path writable, Path... readable) {
            return new Access(writable, List.of(readable));
        }

        public static Access of(Path writable, Collection<Path> readable) {
            return new Access(writable, List.copyOf(readable));
        }
    }

    public Sandbox(DocapiProperties props,
                   @Value("${docapi.sandbox.unsandboxed:false}") boolean unsandboxed,
                   @Value("${docapi.sandbox.memory-mb:3072}") long memoryMb,
                   @Value("${docapi.sandbox.cpu-seconds:3600}") long cpuSeconds,
                   @Value("${docapi.sandbox.output-mb:1024}") long outputMb) {
        this.enabled = !unsandboxed;
        this.defaults = new Bounds(memoryMb << 20, cpuSeconds, outputMb << 20);
        this.scratchRoot = props.workDir();
    }

    /**
     * A new private folder for one engine run that has no job folder (e.g. reading a page count at upload); the
     * caller deletes it. It lies under the work folder, which is emptied at start-up ({@link ScratchCleaner}).
     */
    public Path newScratchDir(String prefix) throws IOException {
        Files.createDirectories(scratchRoot);
        return Files.createTempDirectory(scratchRoot, prefix);
    }

    /** True unless the operator switched the sandbox off with {@code DOCAPI_UNSANDBOXED=true}. */
    public boolean enabled() {
        return enabled;
    }

    /** The bounds of an ordinary engine run ({@code DOCAPI_ENGINE_MEMORY_MB}, {@code _CPU_SECONDS}, {@code _OUTPUT_MB}). */
    public Bounds defaults() {
        return defaults;
    }

    /**
     * Checks at start-up that a sandbox can be created here (user namespaces allowed, bubblewrap installed).
     *
     * @throws IllegalStateException when it cannot and {@code DOCAPI_UNSANDBOXED} is not {@code true}; the message says why
     */
    @jakarta.annotation.PostConstruct
    public void verify() {
        if (!enabled) {
            log.warn("DOCAPI_UNSANDBOXED=true: engines run WITHOUT a sandbox; untrusted documents can reach this host's files and network");
            return;
        }
        String why;
        try {
            Process p = new ProcessBuilder(wrap(List.of("/usr/bin/true"), Access.of(null), Bounds.NONE, Map.of()))
                    .redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0) {
                log.info("engine sandbox: bubblewrap, no network, job folder only");
                return;
            }
            why = "bubblewrap could not create a sandbox: " + out;
        } catch (IOException e) {
            why = "bubblewrap is not installed (" + BWRAP + "); run scripts/install-deps";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted while checking the sandbox";
        }
        throw new IllegalStateException("docapi will not run untrusted documents outside a sandbox: " + why
                + ". Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), or set"
                + " DOCAPI_UNSANDBOXED=true to run engines without one (not for untrusted input).");
    }

    /**
     * The command line that runs {@code command} inside the sandbox with {@code bounds} and {@code env} as its only
     * extra environment (or, unsandboxed, under the bounds only; the caller then sets {@code env}). The executable is
     * resolved on this host's {@code PATH} first.
     */
    public List<String> wrap(List<String> command, Access access, Bounds bounds, Map<String, String> env) {
        return wrap(command, access, bounds, env, ProcessHandle.current().pid());
    }

    /** {@link #wrap(List, Access, Bounds, Map)} for a sandbox whose parent is the process {@code service}, not this JVM. */
    List<String> wrap(List<String> command, Access access, Bounds bounds, Map<String, String> env, long service) {
        List<String> cmd = new ArrayList<>();
        if (enabled) {
            // the signals the parent shell traps, reset to their defaults first: a shell cannot trap a signal ignored
            // when it starts (POSIX), and a service started under nohup hands its children SIGHUP ignored, which left
            // every sandbox running when such a service was killed (SandboxParentTest under nohup)
            cmd.addAll(List.of(SETPRIV, "--pdeathsig", "HUP", "--", ENV, "--default-signal=HUP,INT,TERM", "/bin/sh", "-c", PARENT, "sh",
                    String.valueOf(service)));
            cmd.addAll(List.of(BWRAP, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                    "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
                    "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                    "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"));
            for (String dir : SYSTEM_READ_ONLY) cmd.addAll(List.of("--ro-bind-try", dir, dir));
            Set<Path> readable = new LinkedHashSet<>(access.readable());
            for (Path p : readable) {
                if (access.writable() != null && p.startsWith(access.writable())) continue;
                cmd.addAll(List.of("--ro-bind", p.toString(), p.toString()));
            }
            String home = access.writable() != null ? access.writable().toString() : "/tmp";
            if (access.writable() != null) cmd.addAll(List.of("--bind", home, home));
            cmd.addAll(List.of("--chdir", home, "--clearenv", "--setenv", "PATH", "/usr/bin:/bin",
                    "--setenv", "HOME", home, "--setenv", "TMPDIR", home, "--setenv", "LANG", "C.UTF-8"));
            env.forEach((k, v) -> cmd.addAll(List.of("--setenv", k, v)));
            cmd.add("--");
        }
        if (bounds.memoryBytes() > 0 || bounds.cpuSeconds() > 0 || bounds.fileBytes() > 0) {
            cmd.add(PRLIMIT);
            if (bounds.memoryBytes() > 0) cmd.add("--as=" + bounds.memoryBytes());
            // soft limit first: SIGXCPU (exit 152) tells a CPU bound apart from a kill; the hard limit follows shortly
            if (bounds.cpuSeconds() > 0) cmd.add("--cpu=" + bounds.cpuSeconds() + ":" + (bounds.cpuSeconds() + 10));
            if (bounds.fileBytes() > 0) cmd.add("--fsize=" + bounds.fileBytes());
            cmd.add("--");
        }
        cmd.add(resolve(command.getFirst()));
        cmd.addAll(command.subList(1, command.size()));
        return cmd;
    }

    /**
     * An executable's absolute path: the system's ({@code /usr/bin}, all a sandbox can see) when it has one, else the
     * first on this host's {@code PATH} (unsandboxed runs).
     */
    static String resolve(String executable) {
        if (executable.contains("/")) return executable;
        String path = "/usr/bin:/bin:" + System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, executable);
            if (Files.isExecutable(p)) return p.toString();
        }
        return executable;
    }
}
