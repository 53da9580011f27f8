package dev.docapi.ai;

/** The AI pipelines of {@code GET /v1/models} (spec §2.5): which model each AI operation uses by default. */
public enum Pipeline {
    EXTRACTION, QUESTIONS, AGENT, EDITOR;

    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
