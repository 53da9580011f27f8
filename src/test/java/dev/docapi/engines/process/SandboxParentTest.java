package dev.docapi.engines.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.config.DocapiProperties;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox dies with the service even when the service is killed while bubblewrap still sets the sandbox up (issue
 * 41, {@code OrphanIT}'s flaky orphan): stand-in services, each killed with SIGKILL 0-19 ms after it started a real
 * sandbox, leave no process of it behind. Without the sandbox's parent shell ({@code Sandbox.PARENT}), bubblewrap 0.8
 * left about a third of these sandboxes running.
 */
class SandboxParentTest {
    /**
     * A stand-in service: reads the wrapped command line, one argument a line up to an empty line, starts it, sleeps
     * {@code $0} seconds and kills itself. It ignores SIGHUP, as a service started under {@code nohup} does, and its
     * children inherit that: the sandbox's parent shell, trapping HUP, must not (every sandbox was left so).
     */
    private static final String SERVICE = "trap '' HUP; while IFS= read -r a && [ -n \"$a\" ]; do set -- \"$@\" \"$a\"; done; \"$@\" & sleep \"$0\"; kill -KILL $$";

    @Test
    void aServiceKilledWhileItsSandboxStartsLeavesNoProcessOfIt(@TempDir Path data) throws Exception {
        Sandbox sandbox = sandbox(data);
        String marker = "61." + System.nanoTime() % 100_000;
        try {
            for (int i = 0; i < 40; i++) {
                String delay = String.format("0.%03d", i % 20);
                Process service = new ProcessBuilder("/bin/sh", "-c", SERVICE, delay).redirectErrorStream(true).start();
                List<String> wrapped = sandbox.wrap(List.of("/usr/bin/sleep", marker), Sandbox.Access.of(null), Sandbox.Bounds.NONE, Map.of(), service.pid());
                try (OutputStream in = service.getOutputStream()) {
                    in.write((String.join("\n", wrapped) + "\n\n").getBytes(StandardCharsets.UTF_8));
                }
                assertThat(service.waitFor(5, TimeUnit.SECONDS)).isTrue();
                assertThat(service.exitValue()).isEqualTo(137);
            }
            assertNothingLeft(marker);
        } finally {
            running(marker).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * A sandbox the service stops ({@link ProcessRunner#stop}: a job's timeout, cancel or deadline) 0-19.5 ms after
     * starting it leaves no process of it behind, however far bubblewrap had got with setting it up.
     */
    @Test
    void aSandboxKilledWhileItStartsLeavesNoProcessOfIt(@TempDir Path data) throws Exception {
        Sandbox sandbox = sandbox(data);
        String marker = "62." + System.nanoTime() % 100_000;
        try {
            for (int i = 0; i < 80; i++) {
                List<String> wrapped = sandbox.wrap(List.of("/usr/bin/sleep", marker), Sandbox.Access.of(null), Sandbox.Bounds.NONE, Map.of());
                Process p = new ProcessBuilder(wrapped).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                Thread.sleep(i % 40 / 2, i % 2 * 500_000);
                ProcessRunner.stop(p);
            }
            assertNothingLeft(marker);
        } finally {
            running(marker).forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static Sandbox sandbox(Path data) {
        return new Sandbox(new DocapiProperties(0, data, null, null, null, null, 1, false, Duration.ofSeconds(1), 0, 0, null), false, 0, 0, 0);
    }

    /** No process of {@code marker}'s sandboxes runs within 3 s (a sandbox being killed may take a moment to go). */
    private static void assertNothingLeft(String marker) throws InterruptedException {
        List<ProcessHandle> left = running(marker);
        for (int i = 0; i < 30 && !left.isEmpty(); i++) {
            Thread.sleep(100);
            left = running(marker);
        }
        assertThat(left.stream().map(SandboxParentTest::describe).toList()).as("processes of sandboxes left").isEmpty();
    }

    /** A process's pid, /proc state and parent, and its command line's start: what tells a stuck trap from an orphan. */
    private static String describe(ProcessHandle ph) {
        String stat;
        try {
            stat = java.nio.file.Files.readString(Path.of("/proc/" + ph.pid() + "/stat"));
            stat = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 3)[0] + " ppid " + stat.substring(stat.lastIndexOf(')') + 2).split(" ", 3)[1];
        } catch (java.io.IOException | RuntimeException e) {
            stat = "?";
        }
        String command = ph.info().commandLine().orElse("?");
        return ph.pid() + " " + stat + " " + command.substring(0, Math.min(80, command.length()));
    }

    /** Every process whose command line holds {@code marker}: a sandbox's engine, or its bubblewrap before it ran it. */
    private static List<ProcessHandle> running(String marker) {
        return ProcessHandle.allProcesses().filter(ph -> ph.info().commandLine().orElse("").contains(marker)).toList();
    }
}
