package dev.docapi.operations.reversepages;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.ai.ScriptedModelServer;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import tools.jackson.databind.JsonNode;

/**
 * Issue 14: adding an operation is one package. {@link ReversePagesOperation} is declared nowhere else, yet it is an
 * endpoint, an OpenAPI path, an MCP tool, a workflow step and one of the agent's tools. Results are read back with
 * {@code pdftotext}, not with the PDFBox the operation uses. The test service declares it ({@code ApiTestBase}'s imports).
 */
@ResourceLock(ApiTestBase.MODEL_LOCK)
class ReversePagesOperationTest extends ApiTestBase {
    private static final Path FOUR = corpus("pdf-text/pdflatex-4-pages-objstm.pdf");

    @Test
    void aNewOperationPackageIsAnEndpointAToolAStepAndAnAgentTool() throws Exception {
        String key = newKey();
        String id = uploadId(key, FOUR);
        String lastPage = Independent.pdftotext(FOUR, 4, 4);

        // HTTP, with its option validated from the declaration
        JsonNode job = run(key, "reverse-pages", Map.of("file", id));
        assertThat(Independent.pdftotext(downloadOutput(job, 0), 1, 1)).isEqualTo(lastPage);
        Response wrong = post(key, "/reverse-pages", Map.of("file", id, "keep_first", "yes"));
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(wrong.body().at("/error/message").asString()).contains("'keep_first' must be true or false");

        // OpenAPI
        JsonNode openapi = get(null, "/openapi.json").body();
        assertThat(openapi.at("/paths/~1reverse-pages/post/operationId").asString()).isEqualTo("reverse_pages");

        // MCP
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
                .endpoint("/v1/mcp").httpRequestCustomizer((b, method, uri, body, ctx) -> b.header("Authorization", "Bearer " + key)).build();
        try (McpSyncClient mcp = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(90)).build()) {
            mcp.initialize();
            Tool tool = mcp.listTools().tools().stream().filter(t -> t.name().equals("reverse_pages")).findFirst().orElseThrow();
            assertThat(JSON.valueToTree(tool.inputSchema()).at("/properties/keep_first/type").asString()).isEqualTo("boolean");
            CallToolResult result = mcp.callTool(new CallToolRequest("reverse_pages", Map.of("file", id, "keep_first", true)));
            assertThat(result.isError()).as(result.toString()).isFalse();
        }

        // a workflow step: reversed twice is the original order
        Response wf = post(key, "/workflows/run", Map.of("file", id, "steps", List.of(
                Map.of("operation", "reverse-pages"), Map.of("operation", "reverse-pages"))));
        assertThat(wf.status()).as(wf.toString()).isEqualTo(200);
        assertThat(Independent.pdftotext(downloadOutput(wf.body(), 0), 4, 4)).isEqualTo(lastPage);

        // one of the agent's tools
        MODEL.script(
                ScriptedModelServer.openAiToolCall("call_1", "reverse_pages", r -> "{\"file\":\"" + id + "\"}"),
                ScriptedModelServer.openAiText("Reversed."));
        JsonNode agent = run(key, "agent", json().put("goal", "reverse the pages").put("wait", 120)
                .set("files", JSON.createArrayNode().add(id)));
        JsonNode step = agent.at("/output/steps/0");
        assertThat(step.path("operation").asString()).isEqualTo("reverse-pages");
        assertThat(step.path("status").asString()).as(step.toString()).isEqualTo("succeeded");
        assertThat(Independent.pdftotext(downloadOutput(agent, 0), 1, 1)).isEqualTo(lastPage);
    }
}
