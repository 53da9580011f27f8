package dev.docapi.ai;

import dev.docapi.contract.OperationFailure;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads a model's structured answer: a JSON object, tolerating a Markdown code fence around it. */
public final class ModelJson {
    public static final JsonMapper JSON = JsonMapper.builder().build();

    private ModelJson() {
    }

    /** @throws OperationFailure when the answer is not a JSON object */
    public static JsonNode object(String text, String model) throws OperationFailure {
        String t = text == null ? "" : text.strip();
        if (t.startsWith("```")) {
            t = t.replaceFirst("^```[a-zA-Z]*\\s*", "");
            if (t.endsWith("```")) t = t.substring(0, t.length() - 3);
        }
        try {
            JsonNode n = JSON.readTree(t);
            if (n != null && n.isObject()) return n;
        } catch (JacksonException ignored) {
            // reported below
        }
        throw new OperationFailure("the model " + model + " did not return the JSON object asked for; retry, or use a stronger model");
    }
}
