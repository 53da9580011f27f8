package dev.docapi.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.management.AdminPreflight;
import dev.docapi.support.ApiTestBase;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * {@code bin/docapi admin} run directly with another secret than the service's (issue 38) is told so before any
 * command runs: a sealed webhook secret of the real database does not open with it.
 */
class AdminSecretCheckTest extends ApiTestBase {
    @Autowired
    JdbcClient db;
    @Autowired
    SecretBox box;

    @Test
    void aSecretThatDoesNotOpenTheStoredSecretsIsNamedAndTheServicesOwnPasses() {
        newKey(); // an account: its webhook secret is sealed under the service's key
        assertThat(AdminPreflight.wrongSecret(db, box::open)).isEmpty();
        byte[] other = new byte[32];
        new SecureRandom().nextBytes(other);
        assertThat(AdminPreflight.wrongSecret(db, new SecretBox(other)::open))
                .hasValueSatisfying(m -> assertThat(m).contains("DOCAPI_SECRET", "is not the service's", "Nothing was changed"));
    }
}
