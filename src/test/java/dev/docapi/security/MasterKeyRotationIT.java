package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.PackagedService;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/docapi admin rotate-master-key} (issue 10) against the packaged service's own data dir: every stored
 * secret is re-sealed under a new key in {@code secrets.key}, reads back unchanged, and the service starts and
 * authenticates on the rotated data.
 */
class MasterKeyRotationIT {

    @Test
    void rotatingTheMasterKeyKeepsEverySecretReadable() throws Exception {
        // the account is made through the running service; admin never creates a database (issue 38), and the
        // master key is rotated with the service stopped
        PackagedService service = new PackagedService().start();
        String key = service.newKey("rotate@example.com", "pro");
        String webhookSecret = service.admin("show-webhook-secret", "--email", "rotate@example.com");
        assertThat(webhookSecret).startsWith("whsec_");
        service.terminate();
        String before = master(service.dataDir());

        assertThat(service.admin("rotate-master-key")).contains("re-sealed under the new master key");
        assertThat(master(service.dataDir())).isNotEqualTo(before);
        assertThat(service.admin("show-webhook-secret", "--email", "rotate@example.com")).isEqualTo(webhookSecret);

        service.start();
        try {
            assertThat(service.get(key, "/usage").has("plan")).isTrue();
        } finally {
            service.terminate();
        }
    }

    private static String master(Path dataDir) throws Exception {
        return Files.readAllLines(dataDir.resolve("secrets.key")).stream().filter(l -> l.startsWith("master=")).findFirst().orElseThrow();
    }
}
