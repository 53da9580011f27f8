package dev.docapi.engines.process;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The command line of a small child JVM that runs one of this service's main classes, for Java engines that must run
 * sandboxed and bounded like any other (a thread cannot be stopped; a process can). The child gets this JVM's class
 * path: the class folders and jars of a development or test run as they are; the packaged Spring Boot jar unpacked
 * once per start into a scratch folder of the service (its classes and its nested jars, in the jar's
 * {@code classpath.idx} order), because a JVM that reads nested jars through Spring Boot's launcher starts twice as
 * slowly (0.9 s against 0.5 s for a one-page Tabula run, bench/RESULTS-engines.md). The child only reads that folder.
 * It is tuned to start fast and stay small: C1 only, the JDK's class-data archive, a bounded heap.
 */
public final class ChildJvm {
    private static final String BOOT_CLASSES = "BOOT-INF/classes/";
    private static final String BOOT_LIB = "BOOT-INF/lib/";

    private final Sandbox sandbox;
    private final Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    private final List<Path> ownClassPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(s -> !s.isEmpty()).map(s -> Path.of(s).toAbsolutePath().normalize()).filter(Files::exists).toList();
    private final boolean bootJar = ownClassPath.size() == 1 && bootJar(ownClassPath.getFirst());
    /** The unpacked boot jar's folder, once made. */
    private Path unpacked;
    private List<Path> childClassPath;

    /** @param sandbox where the unpacked boot jar goes (one of its scratch folders, removed at the next start) */
    public ChildJvm(Sandbox sandbox) {
        this.sandbox = sandbox;
    }

    /**
     * The command that runs {@code main} with {@code args} in a JVM of at most {@code heapMb} MB of heap; pass its
     * {@link #readable()} files to the sandbox.
     *
     * @throws IOException when the service's boot jar cannot be unpacked (first call only)
     */
    public List<String> command(Class<?> main, int heapMb, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(javaBin.toString(), "-Xmx" + heapMb + "m", "-Xss2m",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-XX:ReservedCodeCacheSize=48m",
                "-XX:CompressedClassSpaceSize=64m", "-XX:MaxMetaspaceSize=128m", "-Djava.awt.headless=true",
                "-cp", String.join(File.pathSeparator, classPath().stream().map(Path::toString).toList()), main.getName()));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * What the child must be able to read: the JDK and its class path (all read-only).
     *
     * @throws IOException when the service's boot jar cannot be unpacked (first call only)
     */
    public List<Path> readable() throws IOException {
        List<Path> r = new ArrayList<>(bootJar ? List.of(unpack()) : classPath());
        r.add(javaBin.getParent().getParent());
        return r;
    }

    private synchronized List<Path> classPath() throws IOException {
        if (childClassPath == null) {
            childClassPath = bootJar ? unpackedClassPath(unpack(), ownClassPath.getFirst()) : ownClassPath;
        }
        return childClassPath;
    }

    /** Unpacks the boot jar's classes and nested jars (once; the folder is gone at the next start). */
    private synchronized Path unpack() throws IOException {
        if (unpacked != null) return unpacked;
        Path dir = sandbox.newScratchDir("child-jvm-");
        try (JarFile jar = new JarFile(ownClassPath.getFirst().toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                String name = entry.getName();
                if (entry.isDirectory() || !(name.startsWith(BOOT_CLASSES) || name.startsWith(BOOT_LIB)) || name.contains("..")) continue;
                Path to = dir.resolve(name.substring("BOOT-INF/".length()));
                Files.createDirectories(to.getParent());
                try (InputStream in = jar.getInputStream(entry)) {
                    Files.copy(in, to);
                }
            }
        }
        unpacked = dir;
        return dir;
    }

    /** {@code classes/}, then the nested jars in {@code classpath.idx} order (the order the launcher uses). */
    private static List<Path> unpackedClassPath(Path dir, Path bootJar) throws IOException {
        List<Path> cp = new ArrayList<>(List.of(dir.resolve("classes")));
        try (JarFile jar = new JarFile(bootJar.toFile())) {
            JarEntry idx = jar.getJarEntry("BOOT-INF/classpath.idx");
            if (idx == null) throw new IOException("the boot jar " + bootJar + " has no BOOT-INF/classpath.idx");
            try (InputStream in = jar.getInputStream(idx)) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    String entry = line.strip().replaceFirst("^- \"(.*)\"$", "$1");
                    if (entry.startsWith(BOOT_LIB)) cp.add(dir.resolve(entry.substring("BOOT-INF/".length())));
                }
            }
        }
        return cp;
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
