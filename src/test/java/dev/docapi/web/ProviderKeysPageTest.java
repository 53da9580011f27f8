package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.ai.AiTestBase;
import dev.docapi.ai.Provider;
import dev.docapi.ai.ProviderKeys;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The provider keys page against the local replay of the providers' wire format ({@code ScriptedModelServer}). */
class ProviderKeysPageTest extends AiTestBase {
    @Autowired
    ProviderKeys keys;

    @Test
    void aKeyIsCheckedWithTheProviderListedWithoutItselfAndDeleted() {
        String email = "providers-" + UUID.randomUUID() + "@example.com";
        AreaClient c = new AreaClient(port);
        c.signUp(email, "a long enough password");
        String accountId = accounts.findByEmail(email).orElseThrow().id();

        String refused = c.submit("/providers", "/providers", Map.of("provider", "anthropic", "key", "sk-ant-bad-123")).body();
        assertThat(refused).contains("class=\"problem\"").doesNotContain("sk-ant-bad-123");
        assertThat(keys.list(accountId)).isEmpty();

        String added = c.submit("/providers", "/providers", Map.of("provider", "anthropic", "key", "sk-ant-good-456")).body();
        assertThat(added).contains("accepted by the provider").doesNotContain("sk-ant-good-456");
        assertThat(keys.list(accountId)).extracting(e -> e.provider()).containsExactly(Provider.ANTHROPIC);
        assertThat(keys.open(accountId, Provider.ANTHROPIC).orElseThrow().key()).isEqualTo("sk-ant-good-456");
        String page = c.get("/providers").body();
        assertThat(page).as("the model list of GET /v1/models, the account key's model included").contains("<td><code>anthropic/claude-sonnet-4-5</code></td><td>account").doesNotContain("sk-ant-good-456");

        AreaClient intruder = new AreaClient(port);
        intruder.signUp("intruder-" + UUID.randomUUID() + "@example.com", "a long enough password");
        assertThat(intruder.submit("/providers", "/providers/anthropic/delete", Map.of()).statusCode()).isEqualTo(404);
        assertThat(keys.list(accountId)).hasSize(1);

        assertThat(AreaClient.location(c.submit("/providers", "/providers/anthropic/delete", Map.of()))).endsWith("/providers?deleted");
        assertThat(keys.list(accountId)).isEmpty();
    }
}
