package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.ai.Provider;
import dev.docapi.ai.ProviderKeys;
import dev.docapi.support.ApiTestBase;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;

/** The provider keys page against the local replay of the providers' wire format ({@code ScriptedModelServer}). */
@ResourceLock(ApiTestBase.MODEL_LOCK)
class ProviderKeysPageTest extends ApiTestBase {
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

    @Test
    void theModelChosenForAPipelineIsWhatGetModelsReportsAndWhatARequestWithoutModelRunsOn() {
        String email = "pipelines-" + UUID.randomUUID() + "@example.com";
        AreaClient c = new AreaClient(port);
        c.signUp(email, "a long enough password");
        String accountId = accounts.findByEmail(email).orElseThrow().id();
        String apiKey = accounts.createKey(accountId, "pipelines");
        c.submit("/providers", "/providers", Map.of("provider", "anthropic", "key", "sk-ant-good-789"));
        assertThat(get(apiKey, "/models").body().path("pipelines").path("questions").asString()).as("the service's default").isEqualTo("openai/gpt-test");

        String refused = c.submit("/providers", "/providers/pipelines",
                Map.of("extraction", "anthropic/claude-sonnet-4-5", "questions", "openai/gpt-5")).body();
        assertThat(refused).contains("class=\"problem\"").contains("openai/gpt-5");
        assertThat(get(apiKey, "/models").body().path("pipelines").path("extraction").asString()).as("all or nothing").isEqualTo("openai/gpt-test");

        String saved = c.submit("/providers", "/providers/pipelines", Map.of("questions", "anthropic/claude-sonnet-4-5", "agent", "")).body();
        assertThat(saved).contains("Pipeline models saved").contains("<option value=\"anthropic/claude-sonnet-4-5\" selected=\"selected\">");
        var pipelines = get(apiKey, "/models").body().path("pipelines");
        assertThat(pipelines.path("questions").asString()).isEqualTo("anthropic/claude-sonnet-4-5");
        assertThat(pipelines.path("extraction").asString()).isEqualTo("openai/gpt-test");
        assertThat(pipelines.path("agent").asString()).isEqualTo("openai/gpt-agent");
        assertThat(c.get("/providers").body()).contains("<span>questions</span>: <code>anthropic/claude-sonnet-4-5</code>");

        String file = uploadId(apiKey, corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        MODEL.script(dev.docapi.ai.ScriptedModelServer.anthropicText("{\"in_document\":true,\"answer\":\"abc potato\"}"));
        var job = run(apiKey, "ask", Map.of("file", file, "question", "What is in the text field?"));
        assertThat(job.path("output").path("model").asString()).isEqualTo("anthropic/claude-sonnet-4-5");
        assertThat(MODEL.calls()).singleElement().satisfies(call -> {
            assertThat(call.path()).isEqualTo("/anthropic/v1/messages");
            assertThat(call.header("x-api-key")).isEqualTo("sk-ant-good-789");
        });

        c.submit("/providers", "/providers/anthropic/delete", Map.of());
        assertThat(get(apiKey, "/models").body().path("pipelines").path("questions").asString())
                .as("a choice whose key is gone falls back to the default").isEqualTo("openai/gpt-test");
    }
}
