package dev.docapi.ai;

import java.util.Locale;

/**
 * A model provider, selected by the prefix of a model id (spec §2.5). Hosted providers read PDFs and images
 * themselves; {@code custom/} (any OpenAI-compatible server) receives the document's text.
 */
public enum Provider {
    OPENAI("https://api.openai.com/v1", true, "gpt-4.1-mini"),
    ANTHROPIC("https://api.anthropic.com/v1", true, "claude-sonnet-4-5"),
    GOOGLE("https://generativelanguage.googleapis.com/v1beta", true, "gemini-2.5-flash"),
    OPENROUTER("https://openrouter.ai/api/v1", true, null),
    CUSTOM(null, false, null);

    private final String defaultBaseUrl;
    private final boolean readsPdf;
    private final String defaultModel;

    Provider(String defaultBaseUrl, boolean readsPdf, String defaultModel) {
        this.defaultBaseUrl = defaultBaseUrl;
        this.readsPdf = readsPdf;
        this.defaultModel = defaultModel;
    }

    /** The model id prefix, e.g. {@code openai}. */
    public String prefix() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String defaultBaseUrl() {
        return defaultBaseUrl;
    }

    public boolean readsPdf() {
        return readsPdf;
    }

    /** A sensible model when an account adds a key without naming one; null where there is none. */
    public String defaultModel() {
        return defaultModel;
    }

    /** True for the providers spoken to through the OpenAI chat-completions wire format. */
    public boolean openAiCompatible() {
        return this == OPENAI || this == OPENROUTER || this == CUSTOM;
    }

    /** @return the provider of {@code prefix}, or null */
    public static Provider ofPrefix(String prefix) {
        for (Provider p : values()) if (p.prefix().equals(prefix)) return p;
        return null;
    }
}
