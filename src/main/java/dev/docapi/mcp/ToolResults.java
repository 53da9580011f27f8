package dev.docapi.mcp;

import dev.docapi.core.J;
import dev.docapi.core.ApiException;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Tool results (spec §4.2): a job as structured content (its id, status, output files with one-hour
 * {@code download_url}s, text and data) plus a short text for the model; errors as tool errors carrying the API's
 * {@code {error: {code, message}}}.
 */
final class ToolResults {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ToolResults() {
    }

    /** A job view: succeeded, still running (poll with get_job), or failed (a tool error). */
    static CallToolResult job(ObjectNode job) {
        String status = job.path("status").asString();
        if (status.equals("failed")) {
            JsonNode error = job.path("error");
            ObjectNode body = JSON.createObjectNode();
            body.set("error", error);
            body.set("job", job);
            return CallToolResult.builder().isError(true)
                    .addTextContent(error.path("code").asString() + ": " + error.path("message").asString() + " (job " + job.path("id").asString() + ")")
                    .structuredContent(toMap(body)).build();
        }
        StringBuilder text = new StringBuilder("job ").append(job.path("id").asString()).append(" ").append(status);
        if (status.equals("succeeded")) {
            for (JsonNode f : job.path("output").path("files")) {
                text.append("\n").append(f.path("name").asString()).append(" (").append(f.path("id").asString()).append(", ")
                        .append(f.path("size").asLong()).append(" bytes): ").append(f.path("download_url").asString());
            }
            if (job.path("output").has("text")) text.append("\n\n").append(job.path("output").path("text").asString());
            if (job.path("output").has("data")) text.append("\n\n").append(job.path("output").get("data").toString());
            if (job.path("output").has("note")) text.append("\nnote: ").append(job.path("output").path("note").asString());
            text.append("\n(download links are valid one hour; files are kept 24 hours)");
        } else {
            text.append(": still running; call get_job with job_id ").append(job.path("id").asString()).append(" to poll");
        }
        return CallToolResult.builder().addTextContent(text.toString()).structuredContent(toMap(job)).isError(false).build();
    }

    /** Any JSON result (a file list, a workflow list). */
    static CallToolResult value(JsonNode value, String text) {
        return CallToolResult.builder().addTextContent(text).structuredContent(toMap(value)).isError(false).build();
    }

    /** The API error as a tool error: text {@code code: message}, structured {@code {error: {code, message}}}. */
    static CallToolResult error(ApiException e) {
        Map<String, Object> body = J.o("error", J.o("code", e.code().code(), "message", e.getMessage()));
        return CallToolResult.builder().isError(true).addTextContent(e.code().code() + ": " + e.getMessage()).structuredContent(body).build();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> toMap(JsonNode node) {
        return JSON.convertValue(node, Map.class);
    }
}
