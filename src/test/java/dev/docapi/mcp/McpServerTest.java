package dev.docapi.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.accounts.Plan;
import dev.docapi.accounts.UsageService;
import dev.docapi.limits.LimitsProperties;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The MCP server through the SDK's own client over real HTTP (spec §4.2 POST /mcp, §5.6). */
@Tag("database")
class McpServerTest extends ApiTestBase {
    private static final Path ROTATED = corpus("pdf-text/rotated-page-90.pdf");

    @Autowired
    OperationRegistry registry;

    @Autowired
    UsageService usage;

    @Autowired
    LimitsProperties limits;

    private McpSyncClient client(String key) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
                .endpoint("/v1/mcp")
                .httpRequestCustomizer((builder, method, uri, body, ctx) -> {
                    if (key != null) builder.header("Authorization", "Bearer " + key);
                })
                .build();
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(90)).initializationTimeout(Duration.ofSeconds(20)).build();
    }

    @Test
    void initialiseWithAKeyListsOneToolPerOperationPlusJobAndFileTools() {
        try (McpSyncClient mcp = client(newKey())) {
            assertThat(mcp.initialize().serverInfo().name()).isEqualTo("docapi");
            Map<String, Tool> tools = mcp.listTools().tools().stream().collect(Collectors.toMap(Tool::name, t -> t));
            for (Operation<?> op : registry.all()) {
                assertThat(tools).containsKey(op.toolName());
                Tool t = tools.get(op.toolName());
                JsonNode schema = JSON.valueToTree(t.inputSchema());
                assertThat(schema.get("properties").propertyNames())
                        .containsAll(op.options().names()).contains(op.inputs().member(), "wait", "webhook_url");
                assertThat(schema.get("required").valueStream().map(JsonNode::asString).toList())
                        .containsAll(op.options().required()).contains(op.inputs().member());
            }
            assertThat(tools).containsKeys("get_job", "list_files", "list_workflows", "run_workflow");
            for (String required : List.of("compress_pdf", "ocr_pdf", "convert_file", "merge_pdfs", "split_pdf", "rotate_pdf", "organize_pdf",
                    "remove_pages", "add_page_numbers", "watermark_pdf", "protect_pdf", "unlock_pdf", "images_to_pdf", "compare_pdfs",
                    "extract_text", "extract_data", "ask_document", "run_agent")) {
                assertThat(tools).as("issue 5 tool list").containsKey(required);
            }
            for (Tool t : tools.values()) {
                assertThat(t.annotations().destructiveHint()).as(t.name() + " overwrites nothing").isFalse();
                assertThat(t.outputSchema()).as(t.name() + " declares its structured result").containsEntry("type", "object");
            }
            for (String reads : List.of("get_job", "list_files", "list_workflows", "validate_pdfa", "list_form_fields", "extract_text", "chunk_document")) {
                assertThat(tools).containsKey(reads);
                assertThat(tools.get(reads).annotations().readOnlyHint()).as(reads + " is read-only").isTrue();
            }
            for (String writes : List.of("rotate_pdf", "compress_pdf", "run_workflow")) {
                assertThat(tools.get(writes).annotations().readOnlyHint()).as(writes + " makes new files").isFalse();
                assertThat(tools.get(writes).annotations().idempotentHint()).as(writes + ": each call is a new job").isFalse();
            }
            JsonNode job = JSON.valueToTree(tools.get("rotate_pdf").outputSchema());
            assertThat(job.at("/properties/output/properties/files/items/$ref").asString()).isEqualTo("#/$defs/FileObject");
            assertThat(job.at("/$defs/FileObject/required").isArray()).isTrue();
            JsonNode angle = JSON.valueToTree(tools.get("rotate_pdf").inputSchema()).at("/properties/angle/enum");
            assertThat(angle.valueStream().map(JsonNode::asInt).toList()).isEqualTo(List.of(90, 180, 270));
            assertThat(JSON.valueToTree(tools.get("rotate_pdf").inputSchema()).at("/properties/wait/default").asInt())
                    .as("the spec's default wait, as over HTTP").isEqualTo(60);
        }
    }

    @Test
    void initialiseWithoutAKeyOrWithAWrongKeyIsRefusedWith401() {
        try (McpSyncClient mcp = client(null)) {
            assertThatThrownBy(mcp::initialize).hasStackTraceContaining("401");
        }
        try (McpSyncClient mcp = client("dk_not_a_real_key")) {
            assertThatThrownBy(mcp::initialize).hasStackTraceContaining("401");
        }
        Response raw = mcpPost(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", null);
        assertThat(raw.status()).isEqualTo(401);
        assertThat(raw.code()).isEqualTo("missing_api_key");
        raw = mcpPost("dk_wrong", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", null);
        assertThat(raw.status()).isEqualTo(401);
        assertThat(raw.code()).isEqualTo("invalid_api_key");
    }

    @Test
    void rotatePdfByBase64ReturnsADownloadLinkToTheRotatedPdf() throws Exception {
        String key = newKey();
        try (McpSyncClient mcp = client(key)) {
            mcp.initialize();
            String b64 = Base64.getEncoder().encodeToString(Files.readAllBytes(ROTATED));
            CallToolResult result = mcp.callTool(new CallToolRequest("rotate_pdf",
                    Map.of("file", Map.of("name", "rotated-page-90.pdf", "content_base64", b64), "angle", 90)));
            assertThat(result.isError()).as(text(result)).isFalse();
            JsonNode job = JSON.valueToTree(result.structuredContent());
            assertThat(job.path("status").asString()).isEqualTo("succeeded");
            assertThat(job.path("id").asString()).startsWith("job_");
            assertThat(text(result)).contains(job.at("/output/files/0/download_url").asString());
            assertRotatedBy90(downloadOutput(job, 0));
            // the same job over the HTTP API, and get_job sees it too
            assertThat(get(key, "/jobs/" + job.path("id").asString()).body().path("status").asString()).isEqualTo("succeeded");
            CallToolResult polled = mcp.callTool(new CallToolRequest("get_job", Map.of("job_id", job.path("id").asString())));
            assertThat(JSON.valueToTree(polled.structuredContent()).path("status").asString()).isEqualTo("succeeded");
        }
    }

    @Test
    void rotatePdfByFileIdAndTheFileIsListedByListFiles() throws Exception {
        String key = newKey();
        String id = uploadId(key, ROTATED);
        try (McpSyncClient mcp = client(key)) {
            mcp.initialize();
            CallToolResult files = mcp.callTool(new CallToolRequest("list_files", Map.of()));
            assertThat(JSON.valueToTree(files.structuredContent()).at("/data/0/id").asString()).isEqualTo(id);
            CallToolResult result = mcp.callTool(new CallToolRequest("rotate_pdf", Map.of("file", id, "angle", 90)));
            assertThat(result.isError()).as(text(result)).isFalse();
            JsonNode job = JSON.valueToTree(result.structuredContent());
            assertThat(job.at("/input/files/0").asString()).isEqualTo(id);
            assertRotatedBy90(downloadOutput(job, 0));
        }
    }

    @Test
    void aJobLongerThanTheToolsWaitComesBackWithItsIdAndIsPolledWithGetJob() throws Exception {
        String key = newKey();
        String id = uploadId(key, ROTATED);
        try (McpSyncClient mcp = client(key)) {
            mcp.initialize();
            CallToolResult started = mcp.callTool(new CallToolRequest("rotate_pdf", Map.of("file", id, "angle", 90, "wait", 0)));
            assertThat(started.isError()).isFalse();
            JsonNode job = JSON.valueToTree(started.structuredContent());
            assertThat(job.path("status").asString()).isIn("queued", "running");
            assertThat(text(started)).contains("get_job").contains(job.path("id").asString());
            long end = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (!job.path("status").asString().equals("succeeded") && System.nanoTime() < end) {
                Thread.sleep(200);
                job = JSON.valueToTree(mcp.callTool(new CallToolRequest("get_job", Map.of("job_id", job.path("id").asString()))).structuredContent());
            }
            assertThat(job.path("status").asString()).isEqualTo("succeeded");
            assertRotatedBy90(downloadOutput(job, 0));
            CallToolResult unknown = mcp.callTool(new CallToolRequest("get_job", Map.of("job_id", "job_nope")));
            assertThat(JSON.valueToTree(unknown.structuredContent()).at("/error/code").asString()).isEqualTo("job_not_found");
        }
    }

    @Test
    void aFileGivenByUrlIsFetchedAndProcessed() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/doc.pdf", exchange -> {
            byte[] bytes = Files.readAllBytes(ROTATED);
            exchange.getResponseHeaders().add("Content-Type", "application/pdf");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        try (McpSyncClient mcp = client(newKey())) {
            mcp.initialize();
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/doc.pdf";
            CallToolResult result = mcp.callTool(new CallToolRequest("rotate_pdf", Map.of("file", url, "angle", 90)));
            assertThat(result.isError()).as(text(result)).isFalse();
            assertRotatedBy90(downloadOutput(JSON.valueToTree(result.structuredContent()), 0));
            CallToolResult missing = mcp.callTool(new CallToolRequest("rotate_pdf",
                    Map.of("file", "http://127.0.0.1:" + server.getAddress().getPort() + "/gone.pdf", "angle", 90)));
            assertThat(JSON.valueToTree(missing.structuredContent()).at("/error/code").asString()).isEqualTo("fetch_failed");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aWrongOptionIsAToolErrorWithTheApiCodeAndNoJob() {
        String key = newKey();
        String id = uploadId(key, ROTATED);
        try (McpSyncClient mcp = client(key)) {
            mcp.initialize();
            CallToolResult result = mcp.callTool(new CallToolRequest("rotate_pdf", Map.of("file", id, "angle", 45)));
            assertThat(result.isError()).isTrue();
            JsonNode error = JSON.valueToTree(result.structuredContent()).path("error");
            assertThat(error.path("code").asString()).isEqualTo("invalid_request");
            assertThat(error.path("message").asString()).contains("angle");
            assertThat(text(result)).startsWith("invalid_request: ");

            CallToolResult missing = mcp.callTool(new CallToolRequest("rotate_pdf", Map.of("file", "file_doesnotexist", "angle", 90)));
            assertThat(missing.isError()).isTrue();
            assertThat(JSON.valueToTree(missing.structuredContent()).at("/error/code").asString()).isEqualTo("file_not_found");
        }
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    @Test
    void aToolCallCountsAsAnOperationAndPastTheFreeQuotaIsAToolErrorWithQuotaExceeded() {
        var created = accounts.createAccount("mcp-" + java.util.UUID.randomUUID() + "@example.com", Plan.FREE);
        String key = created.apiKey();
        String id = uploadId(key, ROTATED);
        usage.record(created.account().id(), limits.freeOperations() - 1, 0);
        try (McpSyncClient mcp = client(key)) {
            mcp.initialize();
            CallToolResult last = mcp.callTool(new CallToolRequest("rotate_pdf", Map.of("file", id, "angle", 90)));
            assertThat(last.isError()).as(text(last)).isFalse();
            assertThat(get(key, "/usage").body().at("/operations/used").asInt()).isEqualTo(limits.freeOperations());
            CallToolResult refused = mcp.callTool(new CallToolRequest("rotate_pdf", Map.of("file", id, "angle", 90)));
            assertThat(refused.isError()).isTrue();
            assertThat(JSON.valueToTree(refused.structuredContent()).at("/error/code").asString()).isEqualTo("quota_exceeded");
        }
        assertThat(get(key, "/jobs").body().get("data").size()).as("the refused call created no job").isEqualTo(1);
    }

    @Test
    void runWorkflowRunsASavedWorkflowAndAdHocStepsAndListWorkflowsShowsIt() throws Exception {
        String key = newKey();
        String id = uploadId(key, ROTATED);
        Response saved = post(key, "/workflows", Map.of("name", "quarter turn", "steps", List.of(Map.of("operation", "rotate", "options", Map.of("angle", 90)))));
        assertThat(saved.status()).isEqualTo(201);
        String wf = saved.body().path("id").asString();
        try (McpSyncClient mcp = client(key)) {
            mcp.initialize();
            JsonNode list = JSON.valueToTree(mcp.callTool(new CallToolRequest("list_workflows", Map.of())).structuredContent());
            assertThat(list.at("/data/0/id").asString()).isEqualTo(wf);
            CallToolResult run = mcp.callTool(new CallToolRequest("run_workflow", Map.of("workflow_id", wf, "file", id)));
            assertThat(run.isError()).as(text(run)).isFalse();
            JsonNode job = JSON.valueToTree(run.structuredContent());
            assertThat(job.path("operation").asString()).isEqualTo("workflow");
            assertRotatedBy90(downloadOutput(job, 0));
            CallToolResult adHoc = mcp.callTool(new CallToolRequest("run_workflow", Map.of("file", id,
                    "steps", List.of(Map.of("operation", "rotate", "options", Map.of("angle", 90))))));
            assertThat(adHoc.isError()).as(text(adHoc)).isFalse();
            assertRotatedBy90(downloadOutput(JSON.valueToTree(adHoc.structuredContent()), 0));
            CallToolResult bad = mcp.callTool(new CallToolRequest("run_workflow", Map.of("file", id,
                    "steps", List.of(Map.of("operation", "rotate", "options", Map.of("angle", 45))))));
            assertThat(bad.isError()).isTrue();
            assertThat(JSON.valueToTree(bad.structuredContent()).at("/error/code").asString()).isEqualTo("invalid_request");
        }
    }

    @Test
    void mcpRequestsShareTheKeysRateLimitAndAre429WithRetryAfterInTheApiShape() {
        String key = newKey();
        // ping, the cheapest MCP request: the calls must outpace the greedy refill (the limit per minute, spread over
        // it) however slow the machine; tools/list on a loaded CI machine did not (1,200 calls in 61 s passed)
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        Response last = null;
        for (int i = 0; i < 2 * limits.requestsPerMinute() && (last == null || last.status() == 200); i++) last = mcpPost(key, ping, null);
        assertThat(last.status()).isEqualTo(429);
        assertThat(last.code()).isEqualTo("rate_limited");
        assertThat(last.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void aMalformedRequestGetsAJsonErrorWithoutAStackTrace() {
        String key = newKey();
        Response r = mcpPost(key, "{this is not json", null);
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(new String(r.raw())).doesNotContain("stackTrace").doesNotContain("Exception").doesNotContain(".java");
        Response noAccept = send(key, HttpRequest.newBuilder(URI.create(base() + "/mcp")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")));
        assertThat(noAccept.status()).isEqualTo(400);
        assertThat(noAccept.body().at("/error/message").asString()).contains("Accept");
        assertThat(new String(noAccept.raw())).doesNotContain("stackTrace");
    }

    @Test
    void anUnknownToolNamesTheToolsAndArgumentsThatAreNotAnObjectGetAPlainJsonRpcError() {
        String key = newKey();
        Response unknown = mcpPost(key, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"rotate\",\"arguments\":{}}}", null);
        assertThat(unknown.status()).isEqualTo(200);
        assertThat(unknown.body().path("id").asInt()).isEqualTo(7);
        assertThat(unknown.body().at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(unknown.body().at("/error/message").asString()).contains("Unknown tool 'rotate'").contains("rotate_pdf").contains("get_job");

        Response string = mcpPost(key, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"rotate_pdf\","
                + "\"arguments\":\"{\\\"file\\\":\\\"file_x\\\"}\"}}", null);
        assertThat(string.status()).isEqualTo(200);
        assertThat(string.body().at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(string.body().at("/error/message").asString()).contains("'arguments' of rotate_pdf must be a JSON object")
                .doesNotContain("jackson").doesNotContain("Exception");
        // a well-formed call still reaches the tool
        Response fine = mcpPost(key, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"rotate_pdf\",\"arguments\":{\"file\":\"file_x\",\"angle\":90}}}", null);
        assertThat(fine.status()).isEqualTo(200);
        assertThat(new String(fine.raw())).contains("file_not_found");
    }

    @Test
    void aBrowserOriginOtherThanTheServiceIsRefused() {
        String key = newKey();
        Response evil = mcpPost(key, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "https://evil.example");
        assertThat(evil.status()).isEqualTo(403);
        assertThat(evil.code()).isEqualTo("invalid_request");
        Response same = mcpPost(key, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "http://localhost:" + port);
        assertThat(same.status()).isEqualTo(200);
    }

    private Response mcpPost(String key, String body, String origin) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (origin != null) b.header("Origin", origin);
        return send(key, b);
    }

    private static void assertRotatedBy90(Path pdf) throws Exception {
        assertThat(Independent.qpdfCheck(pdf).exit()).isIn(0, 3);
        try (PDDocument in = Independent.pdfbox(ROTATED); PDDocument out = Independent.pdfbox(pdf)) {
            assertThat(out.getNumberOfPages()).isEqualTo(in.getNumberOfPages());
            assertThat(out.getPage(0).getRotation()).isEqualTo((in.getPage(0).getRotation() + 90) % 360);
        }
    }

    private static String text(CallToolResult r) {
        return r.content().stream().filter(c -> c instanceof TextContent).map(c -> ((TextContent) c).text()).collect(Collectors.joining("\n"));
    }
}
