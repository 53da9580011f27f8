package dev.docapi.engines.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.config.DocapiProperties;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM runs from jars in a scratch folder (class folders packed), sandboxed; after a training on the service's
 * own input it starts with a class-data archive that the JVM really maps ({@code -Xshare:on} refuses to start
 * otherwise), and gives the same result.
 */
class ChildJvmTest {
    private static final Duration T = Duration.ofSeconds(60);

    @Test
    void aTrainedChildMapsItsArchiveAndAnswersTheSame(@TempDir Path data) throws Exception {
        DocapiProperties props = new DocapiProperties(0, data, null, null, null, null, 1, false, Duration.ofSeconds(1), 0, 0, null);
        ProcessRunner runner = new ProcessRunner(new Sandbox(props, false, 0, 0, 0));
        ChildJvm jvm = new ChildJvm(runner);
        Path scratch = runner.sandbox().newScratchDir("test-");
        Sandbox.Access access = Sandbox.Access.of(scratch, jvm.readable());

        List<String> untrained = jvm.command(Greeter.class, 64, List.of("world"));
        assertThat(untrained).noneMatch(a -> a.startsWith("-XX:SharedArchiveFile"));
        assertThat(untrained.get(untrained.indexOf("-cp") + 1).split(File.pathSeparator)).allMatch(p -> p.endsWith(".jar"));
        assertThat(runner.run(untrained, T, access, Map.of(), ProcessRunner.Expect.success(0)).stdout().strip()).isEqualTo("hello world");

        jvm.train(Greeter.class, 64, dir -> List.of("trainer"));
        List<String> trained = untrained;
        for (long end = System.nanoTime() + T.toNanos(); System.nanoTime() < end && trained.stream().noneMatch(a -> a.startsWith("-XX:SharedArchiveFile")); ) {
            Thread.sleep(100);
            trained = jvm.command(Greeter.class, 64, List.of("world"));
        }
        String archive = trained.stream().filter(a -> a.startsWith("-XX:SharedArchiveFile=")).findFirst().orElseThrow();
        assertThat(Path.of(archive.substring(archive.indexOf('=') + 1))).isRegularFile();

        List<String> strict = new ArrayList<>(trained);
        strict.add(1, "-Xshare:on"); // fails to start unless the archive is mapped
        ProcessRunner.Result r = runner.run(strict, T, access, Map.of(), ProcessRunner.Expect.ANY_EXIT);
        assertThat(r.exitCode()).as(r.stderr() + r.stdout()).isZero();
        assertThat(r.stdout().strip()).isEqualTo("hello world");
        try (var left = Files.list(scratch)) {
            assertThat(left.toList()).as("nothing of the training in a job's folder").isEmpty();
        }
    }

    /** Prints "hello " and its argument. */
    static final class Greeter {
        public static void main(String[] args) {
            System.out.println("hello " + args[0]);
        }
    }
}
