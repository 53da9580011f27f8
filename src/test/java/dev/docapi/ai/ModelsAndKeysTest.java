package dev.docapi.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.management.AdminCommands;
import dev.docapi.accounts.Plan;
import dev.docapi.config.DocapiProperties;
import dev.docapi.net.SafeHttpClient;
import dev.docapi.support.ApiTestBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

@ResourceLock(ApiTestBase.MODEL_LOCK)
class ModelsAndKeysTest extends ApiTestBase {
    @Autowired
    AdminCommands admin;
    @Autowired
    JdbcClient db;

    private static List<String> ids(JsonNode models, String source) {
        List<String> out = new ArrayList<>();
        for (JsonNode m : models.get("data")) if (m.get("source").asString().equals(source)) out.add(m.get("id").asString());
        return out;
    }

    @Test
    void modelsListsTheServiceModelAndEachPipeline() {
        var r = get(newKey(), "/models");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().get("object").asString()).isEqualTo("list");
        assertThat(ids(r.body(), "service")).containsExactly("openai/gpt-test", "openai/gpt-agent");
        JsonNode first = r.body().get("data").get(0);
        assertThat(first.get("object").asString()).isEqualTo("model");
        assertThat(first.get("provider").asString()).isEqualTo("openai");
        assertThat(first.get("reads_pdf").asBoolean()).isTrue();
        JsonNode p = r.body().get("pipelines");
        assertThat(p.get("extraction").asString()).isEqualTo("openai/gpt-test");
        assertThat(p.get("questions").asString()).isEqualTo("openai/gpt-test");
        assertThat(p.get("agent").asString()).isEqualTo("openai/gpt-agent");
        assertThat(p.get("editor").asString()).isEqualTo("openai/gpt-test");
        assertThat(get(null, "/models").status()).isEqualTo(401);
    }

    @Test
    @Tag("database")
    void anAccountKeyIsCheckedWithTheProviderStoredEncryptedAndListedButNeverShown() {
        var created = accounts.createAccount("keys-" + System.nanoTime() + "@example.com", Plan.PRO);
        String id = created.account().id();
        String secretKey = "sk-ant-good-" + System.nanoTime();
        assertThat(admin.run(new String[] {"add-provider-key", "--account", id, "--provider", "anthropic", "--key", secretKey}, System.out, System.err)).isZero();
        assertThat(admin.run(new String[] {"add-provider-key", "--account", id, "--provider", "google", "--key", "refused-key"}, System.out, System.err))
                .as("a key the provider refuses is not stored").isEqualTo(1);
        assertThat(admin.run(new String[] {"add-provider-key", "--account", id, "--provider", "custom/llama-test", "--key", "good-local"}, System.out, System.err))
                .as("custom needs --base-url").isEqualTo(1);
        assertThat(admin.run(new String[] {"add-provider-key", "--account", id, "--provider", "custom/llama-test", "--key", "good-local",
                "--base-url", MODEL.base("custom")}, System.out, System.err)).isZero();

        var r = get(created.apiKey(), "/models");
        assertThat(ids(r.body(), "account")).containsExactly("anthropic/claude-sonnet-4-5", "custom/llama-test");
        for (JsonNode m : r.body().get("data")) {
            if (m.get("id").asString().startsWith("custom/")) assertThat(m.get("reads_pdf").asBoolean()).isFalse();
        }
        assertThat(new String(r.raw(), StandardCharsets.UTF_8)).doesNotContain(secretKey).doesNotContain("good-local");

        List<String> sealed = db.sql("SELECT key_sealed FROM provider_keys WHERE account_id = ? ORDER BY provider").param(id).query(String.class).list();
        assertThat(sealed).hasSize(2);
        for (String s : sealed) assertThat(s).startsWith("v2:").doesNotContain(secretKey).doesNotContain("good-local");
        List<String> all = db.sql("SELECT provider || '|' || model || '|' || COALESCE(base_url, '') FROM provider_keys WHERE account_id = ?")
                .param(id).query(String.class).list();
        assertThat(String.join(",", all)).doesNotContain(secretKey);
        // another account does not see them
        assertThat(ids(get(newKey(), "/models").body(), "account")).isEmpty();
    }

    @Test
    void anAccountsCustomBaseUrlMustBeAPublicHttpsAddress() {
        var strict = new SafeHttpClient(new DocapiProperties(0, Path.of("."), null, null, null, null, 1, false, java.time.Duration.ofSeconds(1), 0, 0, null));
        var props = new AiProperties(null, null, null, null, null, null, null, null, 5, null, null, null, null);
        ProviderKeys keys = new ProviderKeys(null, null, strict, props);
        assertThatThrownBy(() -> keys.add("acct", "custom/x", "k", "http://example.com/v1")).hasMessageContaining("https");
        assertThatThrownBy(() -> keys.add("acct", "custom/x", "k", "https://localhost/v1")).hasMessageContaining("not a public address");
        assertThatThrownBy(() -> keys.add("acct", "custom/x", "k", "https://127.0.0.1:9/v1")).hasMessageContaining("not a public address");
        assertThatThrownBy(() -> keys.add("acct", "custom/x", "k", "https://10.1.2.3/v1")).hasMessageContaining("not a public address");
        // IP literals never reach OkHttp's Dns, so the URL check itself refuses them (URL imports and webhooks too)
        assertThat(strict.refuse("http://169.254.169.254/latest/meta-data", false)).contains("not a public address");
        assertThat(strict.refuse("http://[::1]:8080/", false)).contains("not a public address");
        assertThat(strict.refuse("https://93.184.215.14/", false)).isNull();
    }

    @Test
    void modelIdsNameTheirProvider() {
        assertThat(ModelId.parse("openrouter/meta-llama/llama-3.1-70b").name()).isEqualTo("meta-llama/llama-3.1-70b");
        assertThat(ModelId.parse("custom/llama3.1").provider()).isEqualTo(Provider.CUSTOM);
        assertThatThrownBy(() -> ModelId.parse("gpt-4")).hasMessageContaining("<provider>/<model name>");
        assertThatThrownBy(() -> ModelId.parse("acme/x")).hasMessageContaining("unknown model provider");
    }
}
