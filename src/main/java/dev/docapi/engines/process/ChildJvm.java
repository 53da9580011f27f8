package dev.docapi.engines.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;

/**
 * The command line of a small child JVM that runs one of this service's main classes, for Java engines that must run
 * sandboxed and bounded like any other (a thread cannot be stopped; a process can). The child gets this JVM's class
 * path: the class folders and jars of a development or test run, or the packaged Spring Boot jar, started through
 * Spring Boot's {@code PropertiesLauncher} with {@code -Dloader.main} (the jar's own main class is the service).
 * The child is tuned to start fast and stay small: C1 only, the JDK's class-data archive, a bounded heap.
 */
public final class ChildJvm {
    private static final String LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

    private final Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    private final List<Path> classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(s -> !s.isEmpty()).map(s -> Path.of(s).toAbsolutePath().normalize()).filter(Files::exists).toList();
    private final boolean bootJar = classPath.size() == 1 && bootJar(classPath.getFirst());

    /**
     * The command that runs {@code main} with {@code args} in a JVM of at most {@code heapMb} MB of heap; pass its
     * {@link #readable()} files to the sandbox.
     */
    public List<String> command(Class<?> main, int heapMb, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(javaBin.toString(), "-Xmx" + heapMb + "m", "-Xss2m",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-XX:ReservedCodeCacheSize=48m",
                "-XX:CompressedClassSpaceSize=64m", "-XX:MaxMetaspaceSize=128m", "-Djava.awt.headless=true",
                "-cp", String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList())));
        if (bootJar) cmd.addAll(List.of("-Dloader.main=" + main.getName(), LAUNCHER));
        else cmd.add(main.getName());
        cmd.addAll(args);
        return cmd;
    }

    /** What the child must be able to read: the JDK and the class path (all read-only). */
    public List<Path> readable() {
        List<Path> r = new ArrayList<>(classPath);
        r.add(javaBin.getParent().getParent());
        return r;
    }

    /** True when {@code jar} is a Spring Boot executable jar (its classes under {@code BOOT-INF/}). */
    private static boolean bootJar(Path jar) {
        if (!Files.isRegularFile(jar)) return false;
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.getEntry("BOOT-INF/classes/") != null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the class path jar " + jar, e);
        }
    }
}
