package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.config.DocapiProperties;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ChildJvm;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import dev.docapi.support.ApiTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.util.FileSystemUtils;

/**
 * The engine sandbox (issue 9) against real processes: a sandboxed process cannot read another account's blob, the
 * data dir or host files it was not given, cannot reach a loopback canary over TCP, UDP or DNS, and is stopped by its
 * bounds with a message in the user's terms. Each attack also runs once without the sandbox, to prove the test
 * would see it succeed.
 */
class SandboxTest extends ApiTestBase {
    private static final Duration T = Duration.ofSeconds(30);

    @Autowired
    ProcessRunner runner;
    @Autowired
    DocapiProperties props;

    private Path scratch;

    @BeforeEach
    void scratch() throws Exception {
        scratch = runner.sandbox().newScratchDir("test-");
    }

    @AfterEach
    void clean() throws Exception {
        FileSystemUtils.deleteRecursively(scratch);
    }

    @Test
    void anotherAccountsBlobAndTheDataDirAreInvisible() throws Exception {
        String canary = "canary-" + System.nanoTime();
        Path text = Files.writeString(Files.createTempFile("other-", ".txt"), canary);
        String other = uploadId(newKey(), text);
        Path blob = props.blobDir().resolve(other.substring(other.length() - 2)).resolve(other);
        assertThat(Files.readString(blob)).isEqualTo(canary);

        ProcessRunner.Result stolen = runner.run(List.of("cat", blob.toString()), T, Sandbox.Access.of(scratch), Map.of(), Expect.ANY_EXIT);
        assertThat(stolen.ok()).isFalse();
        assertThat(stolen.stdout()).doesNotContain(canary);
        ProcessRunner.Result listing = runner.run(List.of("ls", "-R", props.dataDir().toAbsolutePath().toString()), T, Sandbox.Access.of(scratch), Map.of(), Expect.ANY_EXIT);
        assertThat(listing.stdout()).doesNotContain(other).doesNotContain("files").doesNotContain("docapi.mv.db");
        ProcessRunner.Result passwd = runner.run(List.of("cat", "/etc/passwd", "/root/.bashrc"), T, Sandbox.Access.of(scratch), Map.of(), Expect.ANY_EXIT);
        assertThat(passwd.stdout()).doesNotContain("root:");

        // the same file, when it is this run's input, is readable (read-only): the test can tell the two apart
        ProcessRunner.Result own = runner.run(List.of("cat", blob.toString()), T, Sandbox.Access.of(scratch, blob), Map.of(), Expect.ANY_EXIT);
        assertThat(own.stdout()).isEqualTo(canary);
        ProcessRunner.Result write = runner.run(List.of("sh", "-c", "echo x >> " + blob), T, Sandbox.Access.of(scratch, blob), Map.of(), Expect.ANY_EXIT);
        assertThat(write.ok()).isFalse();
        assertThat(Files.readString(blob)).isEqualTo(canary);
    }

    @Test
    void noTcpUdpOrDnsLeavesTheSandbox() throws Exception {
        try (Canary canary = new Canary()) {
            String script = """
                    import socket
                    for f in (lambda: socket.create_connection(("127.0.0.1", %1$d), 2),
                              lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", %2$d)),
                              lambda: socket.getaddrinfo("localhost", %1$d)):
                        try:
                            f(); print("ok")
                        except Exception as e:
                            print("refused", type(e).__name__)
                    """.formatted(canary.tcpPort(), canary.udpPort());
            ProcessRunner.Result r = runner.run(List.of("python3", "-c", script), T, Sandbox.Access.of(scratch), Map.of(), Expect.ANY_EXIT);
            // a UDP send "succeeds" onto the sandbox's own loopback, which leads nowhere: the canary decides
            assertThat(r.stdout().lines().toList()).as(r.stderr()).containsExactly("refused ConnectionRefusedError", "ok", "refused gaierror");
            Thread.sleep(500);
            assertThat(canary.tcp.get()).isZero();
            assertThat(canary.udp.get()).isZero();

            // without the sandbox the same script reaches the canary
            ProcessRunner open = new ProcessRunner(new Sandbox(props, true, 0, 0, 0));
            open.run(List.of("python3", "-c", script), T, Sandbox.Access.of(scratch), Map.of(), Expect.ANY_EXIT);
            Thread.sleep(500);
            assertThat(canary.tcp.get()).isPositive();
            assertThat(canary.udp.get()).isPositive();
        }
    }

    /**
     * A sandbox whose service is gone before bubblewrap starts never runs its engine: its death signal is set first,
     * then its parent checked. Started by a shell instead of this JVM (as a service killed between the fork and
     * bubblewrap's start leaves it: another parent), the wrapped command exits 137 and the engine never runs; started
     * by this JVM, it runs.
     */
    @Test
    void aSandboxWhoseServiceIsGoneNeverRunsItsEngine() throws Exception {
        Path ran = scratch.resolve("ran");
        List<String> wrapped = runner.sandbox().wrap(List.of("/usr/bin/touch", ran.toString()), Sandbox.Access.of(scratch), Sandbox.Bounds.NONE, Map.of());
        List<String> viaShell = new java.util.ArrayList<>(List.of("/bin/sh", "-c", "\"$@\"; exit $?", "sh"));
        viaShell.addAll(wrapped);
        Process orphan = new ProcessBuilder(viaShell).redirectErrorStream(true).start();
        orphan.getInputStream().readAllBytes();
        assertThat(orphan.waitFor()).isEqualTo(137);
        assertThat(ran).doesNotExist();

        Process child = new ProcessBuilder(wrapped).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes());
        assertThat(child.waitFor()).as(out).isZero();
        assertThat(ran).exists();
    }

    /**
     * A child JVM of the service (how Tabula runs, {@link ChildJvm}) is sandboxed like any engine: from the packaged
     * class path it cannot reach a loopback canary, which the same JVM without the sandbox reaches.
     */
    @Test
    void aChildJvmHasNoNetwork() throws Exception {
        try (Canary canary = new Canary()) {
            ChildJvm jvm = new ChildJvm(runner);
            List<String> command = jvm.command(ConnectProbe.class, 64, List.of(Integer.toString(canary.tcpPort())));
            Sandbox.Access access = Sandbox.Access.of(scratch, jvm.readable());
            ProcessRunner.Result r = runner.run(command, T, access, Map.of(), Expect.success(0));
            assertThat(r.stdout().strip()).as(r.stderr()).isEqualTo("refused ConnectException");
            Thread.sleep(300);
            assertThat(canary.tcp.get()).isZero();

            ProcessRunner open = new ProcessRunner(new Sandbox(props, true, 0, 0, 0));
            assertThat(open.run(command, T, access, Map.of(), Expect.success(0)).stdout().strip()).isEqualTo("ok");
            Thread.sleep(300);
            assertThat(canary.tcp.get()).isPositive();
        }
    }

    /** Connects to {@code 127.0.0.1:<port>} and prints "ok", or "refused" and the exception's class. */
    static final class ConnectProbe {
        public static void main(String[] args) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 2000);
                System.out.println("ok");
            } catch (java.io.IOException e) {
                System.out.println("refused " + e.getClass().getSimpleName());
            }
        }
    }

    /** Issue 14: a timeout kills the whole process group, a grandchild that left the tree included, sandboxed or not. */
    @Test
    void aTimeoutKillsTheGrandchildrenToo() throws Exception {
        for (ProcessRunner r : List.of(runner, new ProcessRunner(new Sandbox(props, true, 0, 0, 0)))) {
            String marker = "987." + System.nanoTime() % 1000;
            // the subshell exits at once: its sleep is re-parented, out of the shell's tree, but stays in its group
            assertThatThrownBy(() -> r.run(List.of("sh", "-c", "(sleep " + marker + " &); sleep 600"), Duration.ofSeconds(2),
                    Sandbox.Access.of(scratch), Map.of(), Expect.ANY_EXIT)).isInstanceOf(EngineFailure.class)
                    .extracting(e -> ((EngineFailure) e).kind()).isEqualTo(EngineFailure.Kind.TIMEOUT);
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (alive(marker) && System.nanoTime() < deadline) Thread.sleep(100);
            assertThat(alive(marker)).as("sleep " + marker + " outlived the timeout (sandboxed: " + r.sandbox().enabled() + ")").isFalse();
        }
    }

    private static boolean alive(String marker) {
        return ProcessHandle.allProcesses().anyMatch(p -> p.info().commandLine().orElse("").contains("sleep " + marker));
    }

    @Test
    void boundsStopAProcessWithAMessageInTheUsersTerms() {
        Sandbox.Bounds memory = new Sandbox.Bounds(256L << 20, 60, 0);
        assertThatThrownBy(() -> runner.run(List.of("python3", "-c", "x = bytearray(1 << 30)"), T, Sandbox.Access.of(scratch), Map.of(), memory, Expect.ANY_EXIT))
                .isInstanceOf(EngineFailure.class).hasFieldOrPropertyWithValue("kind", EngineFailure.Kind.BOUND_EXCEEDED).hasMessageContaining("256 MB of memory");
        Sandbox.Bounds cpu = new Sandbox.Bounds(0, 1, 0);
        assertThatThrownBy(() -> runner.run(List.of("python3", "-c", "while True: pass"), T, Sandbox.Access.of(scratch), Map.of(), cpu, Expect.ANY_EXIT))
                .isInstanceOf(EngineFailure.class).hasFieldOrPropertyWithValue("kind", EngineFailure.Kind.BOUND_EXCEEDED).hasMessageContaining("1 s of CPU time");
        Sandbox.Bounds output = new Sandbox.Bounds(0, 60, 1 << 20);
        assertThatThrownBy(() -> runner.run(List.of("sh", "-c", "head -c 5000000 /dev/zero > big"), T, Sandbox.Access.of(scratch), Map.of(), output, Expect.ANY_EXIT))
                .isInstanceOf(EngineFailure.class).hasFieldOrPropertyWithValue("kind", EngineFailure.Kind.BOUND_EXCEEDED).hasMessageContaining("1 MB");
    }

    @Test
    void engineMessagesNameFilesNotServerPaths() throws Exception {
        Path input = Files.writeString(scratch.resolve("broken.pdf"), "not a pdf");
        ProcessRunner.Result r = runner.run(List.of("qpdf", "--check", input.toString()), T, Sandbox.Access.of(scratch), Map.of(), Expect.ANY_EXIT);
        assertThat(r.ok()).isFalse();
        assertThat(r.stderr()).contains("broken.pdf").doesNotContain(scratch.toString()).doesNotContain(props.dataDir().toAbsolutePath().toString());
    }

    /** Issue 14: the caller states which exit codes succeed; any other is an EngineFailure with the engine's last line. */
    @Test
    void exitCodesTheCallerDoesNotCallSuccessFailWithTheEnginesLastLine() throws Exception {
        Path damaged = Files.copy(corpus("pdf-broken/damaged-stream.pdf"), scratch.resolve("damaged.pdf"));
        List<String> check = List.of("qpdf", "--check", damaged.toString());
        // qpdf --check exits 3 on this file: success with warnings to the caller that says so, a failure to others
        assertThat(runner.run(check, T, Sandbox.Access.of(scratch), Map.of(), Expect.success(0, 3)).exitCode()).isEqualTo(3);
        assertThatThrownBy(() -> runner.run(check, T, Sandbox.Access.of(scratch), Map.of(), Expect.success(0)))
                .isInstanceOf(EngineFailure.class).hasFieldOrPropertyWithValue("kind", EngineFailure.Kind.FAILED)
                .hasMessageStartingWith("qpdf failed (exit 3): ");

        Path broken = Files.writeString(scratch.resolve("broken.pdf"), "not a pdf");
        assertThatThrownBy(() -> runner.run(List.of("qpdf", "--show-npages", broken.toString()), T, Sandbox.Access.of(scratch), Map.of(),
                Expect.success(0, 3).orFail(EngineFailure.Kind.INVALID_INPUT, "qpdf cannot read it")))
                .isInstanceOf(EngineFailure.class).hasFieldOrPropertyWithValue("kind", EngineFailure.Kind.INVALID_INPUT)
                .hasMessageStartingWith("qpdf cannot read it: qpdf: broken.pdf: ")
                .message().doesNotContain(scratch.toString()).doesNotContain("\n");
    }
}
