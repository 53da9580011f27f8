package dev.docapi.operations;

import dev.docapi.contract.OperationResult;
import dev.docapi.core.J;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A member of a succeeded job's {@code output} (spec §2.3 "output members by operation"), with its JSON Schema.
 * Every operation returns {@link #FILES}; {@link OperationSpec#outputs} declares which others it may return, and the
 * job's response schema is built from those declarations.
 */
public enum OutputMember {
    FILES("files", "type", "array", "items", J.o("$ref", "#/components/schemas/FileObject"),
            "description", "resulting files (a workflow run: the last step's)"),
    TEXT("text", "type", "string", "description", "text result (agent: its summary)"),
    // an object with its members open, never null or untyped: an any-value member is nullable to stock generators, which
    // makes it a JsonNullable that resttemplate's object mapper cannot read, and "object or array" becomes a Map or a
    // List that fails on the other (issue 39)
    DATA("data", "type", "object", "description", "the operation's structured result (extract: the extracted fields, an absent "
            + "field is null; form-fields, redact, validate-pdfa, pdfa, verify-signatures, edit-plan: see the operation); a "
            + "workflow run whose last step ran once per file: {object: list, data: [one result per run]}"),
    MODEL("model", "type", "string", "description", "model id used"),
    NOTE("note", "type", "string", "description", "free text, e.g. compress could not reach target_mb"),
    STEPS("steps", "type", "array", "items", J.o("type", "object"),
            "description", "workflow runs: what each step did; agent: every operation run with arguments and results"),
    // an addition to the spec (issue 36): where each value or answer comes from, for a client to highlight
    SOURCES("sources", "type", "array", "items", J.o("type", "object", "properties", J.o(
                    "field", J.o("type", "string", "description", "extract: the value's path, e.g. customer.name or items[0].price"),
                    "quote", J.o("type", "string", "description", "the words the model cited"),
                    "page", J.o("type", "integer", "description", "page from 1 (an image: 1)"),
                    "box", J.o("type", "object", "description", "the element's box in points from the page's top-left",
                            "properties", J.o("x", J.o("type", "number"), "y", J.o("type", "number"),
                                    "width", J.o("type", "number"), "height", J.o("type", "number")),
                            "required", List.of("x", "y", "width", "height")),
                    "element", J.o("type", "string", "description", "the document model element's id, e.g. e12 (convert to json: index 12)"),
                    "text", J.o("type", "string", "description", "the element's whole text"))),
            "description", "extract, ask: where each value or the answer comes from; a source whose words are found in no "
                    + "element of the document's model (an image, an unreadable page) has no box, element or text");

    /** The members in the order the job's schema lists them. */
    public static final List<OutputMember> ALL = List.of(values());

    private final String id;
    private final Map<String, Object> schema;

    /** @param schema the JSON Schema as alternating keys and values, in the order they are shown */
    OutputMember(String id, Object... schema) {
        this.id = id;
        Map<String, Object> ordered = new LinkedHashMap<>();
        for (int i = 0; i < schema.length; i += 2) ordered.put((String) schema[i], schema[i + 1]);
        this.schema = Collections.unmodifiableMap(ordered);
    }

    /** The member's name in {@code output}, e.g. {@code text}. */
    public String id() {
        return id;
    }

    /** The member's JSON Schema: {@code type} (when it has one), {@code items}, {@code description}. */
    public Map<String, Object> schema() {
        return schema;
    }

    /** Whether {@code result} (for {@link #FILES}: always) carries this member. */
    boolean in(OperationResult result) {
        return switch (this) {
            case FILES -> true;
            case TEXT -> result.text() != null;
            case DATA -> result.data() != null;
            case MODEL -> result.model() != null;
            case NOTE -> result.note() != null;
            case STEPS -> result.steps() != null;
            case SOURCES -> result.sources() != null;
        };
    }
}
