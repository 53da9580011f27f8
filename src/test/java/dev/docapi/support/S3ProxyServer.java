package dev.docapi.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real S3-compatible server for tests: S3Proxy ({@code target/s3proxy.jar}, copied there by the
 * maven-dependency-plugin) in its own JVM on a free loopback port, with the filesystem backend, so an object
 * {@code key} of {@code bucket} is the file {@link #object}. It checks AWS v2/v4 signatures with
 * {@link #ACCESS_KEY}/{@link #SECRET_KEY}. Several services (nodes) can share one server.
 */
public final class S3ProxyServer implements AutoCloseable {
    public static final String ACCESS_KEY = "docapi-test-access";
    public static final String SECRET_KEY = "docapi-test-secret";
    private static final long START_TIMEOUT_MS = 60_000;

    private final Process process;
    private final Path home;
    private final int port;

    private S3ProxyServer(Process process, Path home, int port) {
        this.process = process;
        this.home = home;
        this.port = port;
    }

    /**
     * Starts a server and waits until it listens.
     *
     * @throws IllegalStateException when target/s3proxy.jar is missing (run the build through
     *                               {@code generate-test-resources}) or the server does not come up in 60 s
     */
    public static S3ProxyServer start() {
        Path jar = Path.of("target", "s3proxy.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) throw new IllegalStateException(jar + " is missing; run mvn generate-test-resources");
        try {
            Path home = Files.createTempDirectory("s3proxy-");
            Files.createDirectories(home.resolve("data"));
            int port = freePort();
            Path properties = home.resolve("s3proxy.properties");
            Files.write(properties, List.of(
                    "s3proxy.endpoint=http://127.0.0.1:" + port,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + ACCESS_KEY,
                    "s3proxy.credential=" + SECRET_KEY,
                    "jclouds.provider=filesystem",
                    "jclouds.identity=" + ACCESS_KEY,
                    "jclouds.credential=" + SECRET_KEY,
                    "jclouds.filesystem.basedir=" + home.resolve("data")), StandardCharsets.UTF_8);
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Process process = new ProcessBuilder(java.toString(), "-jar", jar.toString(), "--properties", properties.toString())
                    .redirectErrorStream(true).redirectOutput(home.resolve("s3proxy.log").toFile()).start();
            S3ProxyServer server = new S3ProxyServer(process, home, port);
            // A test context may outlive every test class that uses it; the server must not outlive the JVM.
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
            server.awaitListening();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base URL, e.g. {@code http://127.0.0.1:40123}. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** Where the filesystem backend keeps object {@code key} of {@code bucket}. */
    public Path object(String bucket, String key) {
        return home.resolve("data").resolve(bucket).resolve(key);
    }

    /** Stops the server and removes its data. */
    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor();
            try (Stream<Path> files = Files.walk(home)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException ignored) {
            // only a temp folder left behind
        }
    }

    private void awaitListening() throws IOException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) throw new IllegalStateException("S3Proxy exited: " + log());
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                sleep();
            }
        }
        String log = log();
        close();
        throw new IllegalStateException("S3Proxy did not listen within 60 s: " + log);
    }

    private String log() throws IOException {
        return Files.readString(home.resolve("s3proxy.log"));
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
