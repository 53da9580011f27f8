package dev.docapi.ai;

/**
 * A model id {@code <provider_prefix>/<model_name>} (spec §2.5), e.g. {@code anthropic/claude-sonnet-4-5} or
 * {@code openrouter/meta-llama/llama-3.1-70b} (everything after the first slash is the provider's name).
 */
public record ModelId(Provider provider, String name) {

    /**
     * @throws IllegalArgumentException with a message for a person when {@code id} is not a model id
     */
    public static ModelId parse(String id) {
        if (id == null || id.isBlank()) throw new IllegalArgumentException("a model id is '<provider>/<model name>'");
        int slash = id.indexOf('/');
        if (slash <= 0 || slash == id.length() - 1) {
            throw new IllegalArgumentException("'" + id + "' is not a model id; use '<provider>/<model name>', e.g. 'openai/gpt-4.1-mini' (providers: openai, anthropic, google, openrouter, custom)");
        }
        Provider p = Provider.ofPrefix(id.substring(0, slash));
        if (p == null) {
            throw new IllegalArgumentException("unknown model provider '" + id.substring(0, slash) + "'; providers are openai, anthropic, google, openrouter, custom");
        }
        return new ModelId(p, id.substring(slash + 1).strip());
    }

    public String id() {
        return provider.prefix() + "/" + name;
    }

    @Override
    public String toString() {
        return id();
    }
}
