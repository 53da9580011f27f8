package dev.docapi.openapi;

import static dev.docapi.core.J.o;

import dev.docapi.api.JobResponses;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The JSON Schema of a {@code POST /{operation}} body (spec §4.4), generated from the operation's declaration: its
 * input member ({@code file} or {@code files}), its {@link dev.docapi.operations.OptionSchema} properties and required
 * options, and the common {@code wait} and {@code webhook_url}. Unknown members are refused by the validator, so the
 * schema is closed.
 */
public final class OperationRequestSchema {
    /** What {@code wait} means over HTTP. */
    public static final String HTTP_WAIT = "seconds to wait for the job before answering 202; 0 answers at once";

    private OperationRequestSchema() {
    }

    /** The whole request body schema of {@code op}. */
    public static Map<String, Object> of(Operation<?> op) {
        Map<String, Object> props = op.spec().requestProperties(inputSchema(op.inputs()));
        props.putAll(commonMembers(HTTP_WAIT));
        return o("type", "object", "description", op.description(), "properties", props, "required", op.spec().requiredMembers(),
                "additionalProperties", false);
    }

    /** The schema of the input member: one file id, or an array of {@code min}-{@code max} file ids. */
    public static Map<String, Object> inputSchema(Inputs in) {
        String kinds = kinds(in);
        if (!in.many()) return o("type", "string", "description", "id of the input file (" + kinds + ")");
        return o("type", "array", "items", o("type", "string"), "minItems", in.min(), "maxItems", in.max(),
                "description", in.min() + "-" + in.max() + " input file ids, in order (" + kinds + ")");
    }

    /**
     * {@code wait} and {@code webhook_url}, accepted by every operation and workflow run (spec §4.4), over HTTP and MCP;
     * {@code waitDescription} says what happens when the wait is over, in the caller's terms.
     */
    public static Map<String, Object> commonMembers(String waitDescription) {
        return o(
                "wait", o("type", "integer", "minimum", 0, "maximum", JobResponses.MAX_WAIT, "default", JobResponses.DEFAULT_WAIT,
                        "description", waitDescription),
                "webhook_url", o("type", "string", "format", "uri",
                        "description", "public http(s) URL on port 80 or 443; the finished job is POSTed there, signed (see webhooks)"));
    }

    static String kinds(Inputs in) {
        if (in.pdfOnly()) return "PDF only";
        return in.kinds().stream().map(FileKind::id).collect(Collectors.joining(", "));
    }
}
