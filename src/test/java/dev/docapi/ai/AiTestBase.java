package dev.docapi.ai;

import dev.docapi.support.ApiTestBase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service with its own model configured as {@code openai/gpt-test} (the agent pipeline overridden to
 * {@code openai/gpt-agent}), every provider's base URL pointing at one {@link ScriptedModelServer}.
 * All AI test classes share this configuration, hence one running service; a test with another base (the editor's
 * browser test) registers it with {@link #aiProperties}.
 */
public abstract class AiTestBase extends ApiTestBase {
    public static final ScriptedModelServer MODEL = new ScriptedModelServer();

    @DynamicPropertySource
    public static void aiProperties(DynamicPropertyRegistry registry) {
        registry.add("docapi.ai.service-model", () -> "openai/gpt-test");
        registry.add("docapi.ai.service-model-key", () -> "sk-service-good");
        registry.add("docapi.ai.agent", () -> "openai/gpt-agent");
        registry.add("docapi.ai.secret", () -> "test-operator-secret");
        registry.add("docapi.ai.timeout-seconds", () -> "20");
        for (String p : new String[] {"openai", "anthropic", "google", "openrouter"}) {
            registry.add("docapi.ai." + p + "-base-url", () -> MODEL.base(p));
        }
    }
}
