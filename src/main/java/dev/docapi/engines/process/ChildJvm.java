package dev.docapi.engines.process;

import dev.docapi.engines.EngineFailure;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command line of a small child JVM that runs one of this service's main classes, for Java engines that must run
 * sandboxed and bounded like any other (a thread cannot be stopped; a process can). The child gets this JVM's class
 * path as jars in a scratch folder of the service, made once per start and only read by the child: the packaged
 * Spring Boot jar's classes and nested jars unpacked (in its {@code classpath.idx} order), a development or test run's
 * class folders packed into jars, its jars as they are. From the Spring Boot jar through the launcher a child started
 * in 0.9 s; from these jars in 0.5 s, and in 0.25 s with a class-data archive of its main class ({@link #train}),
 * which needs a class path of jars (bench/RESULTS-engines.md). It is tuned to start fast and stay small: C1 only,
 * serial GC, a bounded heap.
 */
public final class ChildJvm {
    private static final Logger log = LoggerFactory.getLogger(ChildJvm.class);
    private static final String BOOT_CLASSES = "BOOT-INF/classes/";
    private static final String BOOT_LIB = "BOOT-INF/lib/";
    private static final Duration TRAINING_TIMEOUT = Duration.ofSeconds(60);

    private final ProcessRunner runner;
    private final Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    /** Class-data archives by main class name, once trained. */
    private final Map<String, Path> archives = new ConcurrentHashMap<>();
    private final Map<String, Boolean> trained = new ConcurrentHashMap<>();
    /** The scratch folder with the child's jars and archives, and the jars in class path order; once made. */
    private Path folder;
    private List<Path> classPath;

    /** @param runner runs the training (its sandbox also holds the scratch folder, removed at the next start) */
    public ChildJvm(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * The command that runs {@code main} with {@code args} in a JVM of at most {@code heapMb} MB of heap, with the
     * main class's archive and the home its training left when it was {@link #train trained}; pass
     * {@link #readable()} to the sandbox.
     *
     * @throws IOException when the class path cannot be prepared (first call only)
     */
    public List<String> command(Class<?> main, int heapMb, List<String> args) throws IOException {
        classPath();
        return command(main, heapMb, args, folder.resolve("home"));
    }

    private List<String> command(Class<?> main, int heapMb, List<String> args, Path home) throws IOException {
        List<Path> cp = classPath();
        List<String> cmd = new ArrayList<>(List.of(javaBin.toString(), "-Xmx" + heapMb + "m", "-Xss2m",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-XX:ReservedCodeCacheSize=48m",
                "-XX:CompressedClassSpaceSize=64m", "-XX:MaxMetaspaceSize=128m", "-Djava.awt.headless=true",
                "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-Duser.home=" + home));
        Path archive = archives.get(main.getName());
        if (archive != null) cmd.add("-XX:SharedArchiveFile=" + archive);
        cmd.addAll(List.of("-cp", String.join(File.pathSeparator, cp.stream().map(Path::toString).toList()), main.getName()));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * What the child must be able to read: the JDK, its scratch folder and the jars of a development run's class
     * path (all read-only).
     *
     * @throws IOException when the class path cannot be prepared (first call only)
     */
    public List<Path> readable() throws IOException {
        List<Path> r = new ArrayList<>(classPath().stream().filter(p -> !p.startsWith(folder)).toList());
        r.add(folder);
        r.add(javaBin.getParent().getParent());
        return r;
    }

    /**
     * Starts making {@code main}'s class-data archive, once, in the background (children started meanwhile run
     * without it): one sandboxed run on inputs the service made itself ({@code inputs} writes them into the given
     * folder and returns the arguments), never on a job's file, so that no document decides what later children map
     * or read. What the run leaves in its {@code user.home} becomes every later child's home, read-only: PDFBox keeps
     * its font cache there, which a child without it rebuilds for 1.3 s on every document whose fonts it looks up.
     * A training that fails leaves the child without an archive and home.
     */
    public void train(Class<?> main, int heapMb, Function<Path, List<String>> inputs) {
        if (trained.putIfAbsent(main.getName(), true) != null) return;
        // a platform thread: a virtual one could hold a class-loading lock while it waits for a carrier, and on 2 cores
        // both carriers were seen blocked on that lock at start (the node hung, probes included; issue 24's compose check)
        Thread.ofPlatform().daemon().name("child-jvm-training").start(() -> {
            try {
                List<Path> readable = readable(); // prepares the class path and its folder first
                Path dir = Files.createTempDirectory(folder, "train-");
                Path home = Files.createDirectory(dir.resolve("home"));
                Path archive = dir.resolve(main.getName() + ".jsa");
                List<String> cmd = command(main, heapMb, inputs.apply(dir), home);
                cmd.add(1, "-XX:ArchiveClassesAtExit=" + archive);
                ProcessRunner.Result r = runner.run(cmd, TRAINING_TIMEOUT, Sandbox.Access.of(dir, readable), Map.of(), ProcessRunner.Expect.ANY_EXIT);
                if (!r.ok() || !Files.isRegularFile(archive)) {
                    log.info("no class-data archive for {} (exit {}): {}", main.getSimpleName(), r.exitCode(), r.lastLine());
                    return;
                }
                if (!Files.exists(folder.resolve("home"))) Files.move(home, folder.resolve("home"));
                archives.put(main.getName(), Files.move(archive, folder.resolve(archive.getFileName())));
                log.info("class-data archive for {} made in {} ms", main.getSimpleName(), r.took().toMillis());
            } catch (IOException | java.io.UncheckedIOException | EngineFailure e) {
                log.info("no class-data archive for {}: {}", main.getSimpleName(), e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private synchronized List<Path> classPath() throws IOException {
        if (classPath != null) return classPath;
        List<Path> own = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(s -> !s.isEmpty()).map(s -> Path.of(s).toAbsolutePath().normalize()).filter(Files::exists).toList();
        Path dir = runner.sandbox().newScratchDir("child-jvm-");
        List<Path> cp = new ArrayList<>();
        if (own.size() == 1 && bootJar(own.getFirst())) {
            cp.addAll(unpack(own.getFirst(), dir));
        } else {
            for (Path p : own) {
                if (!Files.isDirectory(p)) {
                    cp.add(p);
                    cp.addAll(manifestClassPath(p));
                    continue;
                }
                Path jar = dir.resolve("folder-" + cp.size() + ".jar");
                pack(p, jar);
                cp.add(jar);
            }
        }
        folder = dir;
        classPath = List.copyOf(cp);
        return classPath;
    }

    /**
     * The jars a jar's manifest names in {@code Class-Path} (relative to its folder), which the JVM adds by itself: the
     * extracted jar a node starts from (Spring Boot's tools jar mode, issue 41) names its {@code lib/} jars there, and
     * the child's sandbox makes readable only the jars listed on its class path.
     */
    private static List<Path> manifestClassPath(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            java.util.jar.Manifest manifest = file.getManifest();
            String entries = manifest == null ? null : manifest.getMainAttributes().getValue(java.util.jar.Attributes.Name.CLASS_PATH);
            if (entries == null || entries.isBlank()) return List.of();
            List<Path> out = new ArrayList<>();
            for (String entry : entries.trim().split("\\s+")) {
                Path p = jar.toAbsolutePath().getParent().resolve(entry).normalize();
                if (Files.isRegularFile(p)) out.add(p);
            }
            return out;
        }
    }

    /** The boot jar's classes packed as {@code classes.jar}, then its nested jars copied out in {@code classpath.idx} order. */
    private static List<Path> unpack(Path bootJar, Path dir) throws IOException {
        List<Path> cp = new ArrayList<>();
        Path classes = dir.resolve("classes.jar");
        cp.add(classes);
        try (JarFile jar = new JarFile(bootJar.toFile());
             JarOutputStream packed = new JarOutputStream(Files.newOutputStream(classes))) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                String name = entry.getName();
                if (!entry.isDirectory() && name.startsWith(BOOT_CLASSES)) {
                    packed.putNextEntry(new JarEntry(name.substring(BOOT_CLASSES.length())));
                    try (InputStream in = jar.getInputStream(entry)) {
                        in.transferTo(packed);
                    }
                    packed.closeEntry();
                }
            }
            JarEntry idx = jar.getJarEntry("BOOT-INF/classpath.idx");
            if (idx == null) throw new IOException("the boot jar " + bootJar + " has no BOOT-INF/classpath.idx");
            try (InputStream in = jar.getInputStream(idx)) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    String name = line.strip().replaceFirst("^- \"(.*)\"$", "$1");
                    if (!name.startsWith(BOOT_LIB) || name.contains("..") || name.indexOf('/', BOOT_LIB.length()) >= 0) continue;
                    JarEntry nested = jar.getJarEntry(name);
                    if (nested == null) continue;
                    Path to = dir.resolve(name.substring(BOOT_LIB.length()));
                    try (InputStream in2 = jar.getInputStream(nested)) {
                        Files.copy(in2, to);
                    }
                    cp.add(to);
                }
            }
        }
        return cp;
    }

    /** A class folder as a jar (a class-data archive can only be made from jars). */
    private static void pack(Path folder, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream packed = new JarOutputStream(out);
             Stream<Path> files = Files.walk(folder)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                packed.putNextEntry(new JarEntry(folder.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, packed);
                packed.closeEntry();
            }
        }
    }

    /** True when {@code jar} is a Spring Boot executable jar (its classes under {@code BOOT-INF/}). */
    private static boolean bootJar(Path jar) {
        if (!Files.isRegularFile(jar)) return false;
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.getEntry(BOOT_CLASSES) != null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the class path jar " + jar, e);
        }
    }
}
