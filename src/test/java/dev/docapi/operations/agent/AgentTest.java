package dev.docapi.operations.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.Plan;
import dev.docapi.accounts.UsageService;
import dev.docapi.ai.ScriptedModelServer;
import dev.docapi.ai.ScriptedModelServer.Recorded;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

@ResourceLock(ApiTestBase.MODEL_LOCK)
class AgentTest extends ApiTestBase {
    @Autowired
    UsageService usage;

    /** The first file id in the last tool result the model was sent. */
    private static String lastResultFile(Recorded r) {
        JsonNode messages = r.body().get("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if (m.path("role").asString("").equals("tool")) {
                return ScriptedModelServer.JSON.readTree(m.get("content").asString()).path("files").get(0).path("id").asString();
            }
        }
        throw new AssertionError("no tool result in " + messages);
    }

    @Test
    @Tag("database")
    void theAgentRotatesMergesAndCompressesWithRealOperations() throws Exception {
        var created = accounts.createAccount("agent-" + System.nanoTime() + "@example.com", Plan.PRO);
        String key = created.apiKey();
        String a = uploadId(key, corpus("pdf-text/pdflatex-4-pages-objstm.pdf"));
        String b = uploadId(key, corpus("pdf-text/google-docs-pdf14.pdf"));
        int bPages = upload(key, corpus("pdf-text/google-docs-pdf14.pdf")).get("pages").asInt();
        MODEL.script(
                ScriptedModelServer.openAiToolCall("call_1", "rotate_pdf", r -> "{\"file\":\"" + a + "\",\"angle\":90,\"pages\":[1]}"),
                ScriptedModelServer.openAiToolCall("call_2", "merge_pdfs", r -> "{\"files\":[\"" + lastResultFile(r) + "\",\"" + b + "\"]}"),
                ScriptedModelServer.openAiToolCall("call_3", "compress_pdf", r -> "{\"file\":\"" + lastResultFile(r) + "\",\"target_mb\":1}"),
                ScriptedModelServer.openAiText("Rotated page 1, appended the second document and compressed the result."));

        JsonNode job = run(key, "agent", json().put("goal", "Turn the first page of the first file sideways, append the second file, and make it under 1 MB")
                .put("wait", 300).set("files", JSON.createArrayNode().add(a).add(b)));

        JsonNode output = job.path("output");
        assertThat(output.path("text").asString()).contains("compressed");
        JsonNode steps = output.path("steps");
        assertThat(steps).hasSize(3);
        assertThat(steps.get(0).path("operation").asString()).isEqualTo("rotate");
        assertThat(steps.get(1).path("operation").asString()).isEqualTo("merge");
        assertThat(steps.get(2).path("operation").asString()).isEqualTo("compress");
        for (JsonNode s : steps) assertThat(s.path("status").asString()).as(s.toString()).isEqualTo("succeeded");
        assertThat(steps.get(0).path("arguments").path("angle").asInt()).isEqualTo(90);

        assertThat(output.path("files")).as("only the final file: the intermediate ones were consumed").hasSize(1);
        Path result = downloadOutput(job, 0);
        assertThat(Files.size(result)).isLessThan(1024 * 1024);
        assertThat(Independent.qpdfCheck(result).exit()).isZero();
        try (PDDocument doc = Independent.pdfbox(result)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(4 + bPages);
            assertThat(doc.getPage(0).getRotation()).isEqualTo(90);
            assertThat(doc.getPage(1).getRotation()).isZero();
        }
        assertThat(Independent.pdftotext(result, 5)).contains("Example document");

        // the model saw the operations as tools, not the agent itself; it was the agent pipeline's model
        Recorded first = MODEL.calls().getFirst();
        assertThat(first.body().path("model").asString()).isEqualTo("gpt-agent");
        String tools = first.body().path("tools").toString();
        assertThat(tools).contains("rotate_pdf").contains("merge_pdfs").contains("\"angle\"").doesNotContain("run_agent");
        assertThat(MODEL.calls()).hasSize(4);
        // three operations and the agent run count; one AI operation
        assertThat(usage.current(created.account().id())).containsExactly(4, 1);
    }

    @Test
    void theAgentSeesOnlyItsFilesAndStopsAtMaxSteps() {
        String key = newKey();
        String given = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        String other = uploadId(key, corpus("pdf-text/google-docs-pdf14.pdf"));
        MODEL.script(
                ScriptedModelServer.openAiToolCall("call_1", "rotate_pdf", r -> "{\"file\":\"" + other + "\",\"angle\":90}"),
                ScriptedModelServer.openAiToolCall("call_2", "rotate_pdf", r -> "{\"file\":\"" + given + "\",\"angle\":45}"));
        JsonNode job = run(key, "agent", json().put("goal", "rotate everything").put("max_steps", 2)
                .set("files", JSON.createArrayNode().add(given)));
        JsonNode steps = job.path("output").path("steps");
        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).path("status").asString()).isEqualTo("failed");
        assertThat(steps.get(0).path("error").path("code").asString()).isEqualTo("file_not_found");
        assertThat(steps.get(1).path("error").path("code").asString()).as("validated as by the API").isEqualTo("invalid_request");
        assertThat(job.path("output").path("text").asString()).startsWith("Stopped after 2 model turns");
        assertThat(job.path("output").path("files")).isEmpty();
        // the refusal was reported back to the model
        assertThat(MODEL.calls().get(1).body().toString()).contains("not one of the files of this run");
    }

    @Test
    void maxStepsIsValidated() {
        String key = newKey();
        String given = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        var r = post(key, "/agent", json().put("goal", "x").put("max_steps", 16).set("files", JSON.createArrayNode().add(given)));
        assertThat(r.status()).isEqualTo(400);
    }
}
