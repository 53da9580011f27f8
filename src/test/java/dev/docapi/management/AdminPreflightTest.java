package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.config.DocapiProperties;
import dev.docapi.config.MasterKey;
import java.net.ServerSocket;
import java.time.Duration;
import org.flywaydb.core.Flyway;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/docapi admin} with no service to reach never creates a database (issue 38): the real entry point, run as
 * its own process, exits 1 naming what is missing and leaves the data directory as it found it.
 */
class AdminPreflightTest {

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * {@code java dev.docapi.DocapiApplication admin args...} with {@code env}; returns exit code and output. With
     * {@code bin/docapi admin}'s JVM flags (C1 only, serial GC, a small heap): a short command's start costs a third.
     */
    private static Map.Entry<Integer, String> admin(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "dev.docapi.DocapiApplication", "admin"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("DOCAPI_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return Map.entry(p.exitValue(), out);
    }

    @Test
    void withoutTheServicesDatabaseItExits1NamingWhatIsMissingAndCreatesNothing() throws Exception {
        Path data = Files.createTempDirectory("docapi-admin-").resolve("data");
        String port = String.valueOf(freePort()); // no service there
        var noDatabase = admin(Map.of("DOCAPI_DATA_DIR", data.toString(), "DOCAPI_MANAGEMENT_PORT", port), "list-accounts");
        assertThat(noDatabase.getKey()).as(noDatabase.getValue()).isEqualTo(1);
        assertThat(noDatabase.getValue()).contains("DOCAPI_MANAGEMENT_PORT", port, "no service database at " + data.resolve("db"), "DOCAPI_DATA_DIR");
        assertThat(data).as("nothing created").doesNotExist();

        // with a secret, still no database of its own
        var withSecret = admin(Map.of("DOCAPI_DATA_DIR", data.toString(), "DOCAPI_MANAGEMENT_PORT", port, "DOCAPI_SECRET", "not-the-services"),
                "create-account", "--email", "nobody@example.com");
        assertThat(withSecret.getKey()).as(withSecret.getValue()).isEqualTo(1);
        assertThat(data).as("nothing created").doesNotExist();

        // PostgreSQL without the secret: named
        var postgres = admin(Map.of("DOCAPI_DATA_DIR", data.toString(), "DOCAPI_MANAGEMENT_PORT", port,
                "DOCAPI_DATABASE_URL", "jdbc:postgresql://127.0.0.1:" + freePort() + "/docapi"), "list-accounts");
        assertThat(postgres.getKey()).as(postgres.getValue()).isEqualTo(1);
        assertThat(postgres.getValue()).contains("DOCAPI_SECRET is not set");
        assertThat(data).as("nothing created").doesNotExist();
    }

    @Test
    void directlyItRunsOnTheServicesDatabaseAndRefusesAnotherSecret() throws Exception {
        // the service's data dir as a first start leaves it: the key file and the migrated embedded database
        Path data = Files.createTempDirectory("docapi-admin-");
        DocapiProperties props = new DocapiProperties(0, data, null, null, null, null, 1, false, Duration.ZERO, 0, 0, "n1");
        MasterKey key = new MasterKey(props, "");
        Flyway.configure().dataSource("jdbc:h2:" + data.resolve("db").resolve("docapi"), "sa", key.databasePassword())
                .locations("classpath:db/migration").load().migrate();
        String port = String.valueOf(freePort()); // no service there: the command runs in its own JVM

        var created = admin(Map.of("DOCAPI_DATA_DIR", data.toString(), "DOCAPI_MANAGEMENT_PORT", port),
                "--direct", "create-account", "--email", "direct@example.com");
        assertThat(created.getKey()).as(created.getValue()).isZero();
        assertThat(created.getValue().strip().lines().reduce((a, b) -> b).orElseThrow()).startsWith("dk_");

        var wrong = admin(Map.of("DOCAPI_DATA_DIR", data.toString(), "DOCAPI_MANAGEMENT_PORT", port, "DOCAPI_SECRET", "not-the-services"),
                "create-account", "--email", "wrong@example.com");
        assertThat(wrong.getKey()).as(wrong.getValue()).isEqualTo(1);
        assertThat(wrong.getValue()).contains("is not the service's").doesNotContain("dk_");
    }

    @Test
    void theServicesOwnEmbeddedDatabaseAndKeyFileAreEnough() throws Exception {
        Path data = Files.createTempDirectory("docapi-admin-");
        Files.createDirectories(data.resolve("db"));
        Files.writeString(data.resolve("db").resolve("docapi.mv.db"), "");
        assertThat(AdminPreflight.missing(Map.of("DOCAPI_DATA_DIR", data.toString()))).hasValueSatisfying(m -> assertThat(m).contains("secrets.key"));
        Files.writeString(data.resolve("secrets.key"), "master=x\n");
        assertThat(AdminPreflight.missing(Map.of("DOCAPI_DATA_DIR", data.toString()))).isEmpty();
        assertThat(AdminPreflight.missing(Map.of("DOCAPI_DATA_DIR", data.toString(), "DOCAPI_DATABASE_URL", "jdbc:postgresql://db/docapi"))).isEmpty();
    }
}
