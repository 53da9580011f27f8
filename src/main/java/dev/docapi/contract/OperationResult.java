package dev.docapi.contract;

import tools.jackson.databind.JsonNode;

/**
 * What an operation returns besides its output files (spec §2.3 "output members by operation"): each member is
 * null when the operation has none.
 */
public record OperationResult(String text, JsonNode data, String note, String model, JsonNode steps, JsonNode sources) {

    public static OperationResult empty() {
        return new OperationResult(null, null, null, null, null, null);
    }

    public static OperationResult ofText(String text) {
        return new OperationResult(text, null, null, null, null, null);
    }

    public static OperationResult ofNote(String note) {
        return new OperationResult(null, null, note, null, null, null);
    }

    public OperationResult withNote(String value) {
        return new OperationResult(text, data, value, model, steps, sources);
    }

    /** This result with {@code sentence} added after its note (or as its note when it has none). */
    public OperationResult withNoteAdded(String sentence) {
        return withNote(note == null ? sentence : note + " " + sentence);
    }

    public OperationResult withData(JsonNode value) {
        return new OperationResult(text, value, note, model, steps, sources);
    }

    public OperationResult withModel(String value) {
        return new OperationResult(text, data, note, value, steps, sources);
    }

    public OperationResult withSteps(JsonNode value) {
        return new OperationResult(text, data, note, model, value, sources);
    }

    /** This result with {@code value} as its sources (extract, ask: where each value or answer comes from). */
    public OperationResult withSources(JsonNode value) {
        return new OperationResult(text, data, note, model, steps, value);
    }
}
