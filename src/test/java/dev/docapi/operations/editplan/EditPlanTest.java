package dev.docapi.operations.editplan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.Plan;
import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.Pipeline;
import dev.docapi.ai.ScriptedModelServer;
import dev.docapi.support.ApiTestBase;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/edit-plan} (issue 26 item 4) over the real HTTP API against the local replay of OpenAI's chat
 * completions: a 6-page PDF (the first six pages of a corpus file, each saying "Original page N"), the account's
 * editor pipeline set to a model of its own choice.
 */
@ResourceLock(ApiTestBase.MODEL_LOCK)
class EditPlanTest extends ApiTestBase {
    @Autowired
    ModelCatalog catalog;

    private record Owner(String key, String file) {
    }

    /** A PRO account whose editor pipeline runs on {@code openai/gpt-agent} (a service model), with the 6-page PDF. */
    private Owner owner() {
        var created = accounts.createAccount("edit-plan-" + UUID.randomUUID() + "@example.com", Plan.PRO);
        catalog.choose(created.account(), Map.of(Pipeline.EDITOR, "openai/gpt-agent"));
        String key = created.apiKey();
        JsonNode six = run(key, "organize", Map.of("file", uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf")), "pages", List.of(1, 2, 3, 4, 5, 6)));
        return new Owner(key, six.at("/output/files/0/id").asString());
    }

    private int aiOperationsUsed(String key) {
        return get(key, "/usage").body().at("/ai_operations/used").asInt();
    }

    @Test
    void aPlanIsCheckedAndPreviewedOnTheEditorPipelinesModelAndCountsOneAiOperation() {
        Owner o = owner();
        int before = aiOperationsUsed(o.key());
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Moves the last page to the front, turns the old first page right and removes the old page 2.",
                 "steps":[{"operation":"organize","options":{"pages":[6,1,2,3,4,5]}},
                          {"operation":"rotate","options":{"angle":90,"pages":[2]}},
                          {"operation":"remove-pages","options":{"pages":[3]}}]}"""));
        JsonNode job = run(o.key(), "edit-plan", Map.of("file", o.file(), "instruction", "last page first, turn the first page right, drop page 2"));

        JsonNode data = job.at("/output/data");
        assertThat(data.path("summary").asString()).startsWith("Moves the last page");
        assertThat(data.path("steps").toString()).isEqualTo("""
                [{"operation":"organize","options":{"pages":[6,1,2,3,4,5]}},{"operation":"rotate","options":{"angle":90,"pages":[2]}},\
                {"operation":"remove-pages","options":{"pages":[3]}}]""");
        assertThat(data.path("pages").toString()).as("computed from the steps")
                .isEqualTo("[{\"page\":6,\"rotation\":0},{\"page\":1,\"rotation\":90},{\"page\":3,\"rotation\":0},{\"page\":4,\"rotation\":0},{\"page\":5,\"rotation\":0}]");
        assertThat(data.path("deleted_pages").toString()).isEqualTo("[2]");
        assertThat(job.at("/output/model").asString()).isEqualTo("openai/gpt-agent");
        assertThat(job.at("/output/files").isEmpty()).isTrue();
        assertThat(aiOperationsUsed(o.key())).as("one AI operation on the service's model").isEqualTo(before + 1);

        ScriptedModelServer.Recorded call = MODEL.calls().getFirst();
        assertThat(call.path()).isEqualTo("/openai/v1/chat/completions");
        assertThat(call.body().path("model").asString()).as("the model chosen for the editor pipeline").isEqualTo("gpt-agent");
        assertThat(call.body().path("response_format").path("type").asString()).isEqualTo("json_schema");
        String sent = call.body().toString();
        assertThat(sent).contains("has 6 pages").contains("last page first, turn the first page right, drop page 2");
        for (int p = 1; p <= 6; p++) assertThat(sent.replaceAll("\\\\n|\\s", "")).contains("---page" + p + "---Originalpage" + p);
        assertThat(sent).as("the catalogue, from the declarations").contains("- page-numbers: ").contains("- watermark: ").contains("\\\"angle\\\"")
                .doesNotContain("- protect: ").doesNotContain("- merge: ").doesNotContain("- edit-plan: ");

        // not a page arrangement: the steps without a preview
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Adds page numbers at the bottom right.","steps":[{"operation":"page-numbers","options":{"position":"bottom-right"}}]}"""));
        JsonNode numbers = run(o.key(), "edit-plan", Map.of("file", o.file(), "instruction", "add page numbers bottom right"));
        assertThat(numbers.at("/output/data/steps/0/operation").asString()).isEqualTo("page-numbers");
        assertThat(numbers.at("/output/data").has("pages")).isFalse();
    }

    @Test
    void aPlanNamingAPageTheDocumentDoesNotHaveOrAnOperationItCannotUseFailsTheJobNamingTheStep() {
        Owner o = owner();
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Removes page 99.","steps":[{"operation":"rotate","options":{"angle":180}},{"operation":"remove-pages","options":{"pages":[99]}}]}"""));
        assertRefused(o, "step 2 (remove-pages): 'pages' names page 99 but the document has 6 pages");

        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Keeps four pages, then turns page 6.","steps":[{"operation":"organize","options":{"pages":[1,2,3,4]}},
                 {"operation":"rotate","options":{"angle":90,"pages":[6]}}]}"""));
        assertRefused(o, "step 2 (rotate): 'pages' names page 6 but the document has 4 pages");

        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Shreds it.","steps":[{"operation":"shred","options":{}}]}"""));
        assertRefused(o, "step 1: 'shred' is not an operation a workflow can run");

        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Protects it.","steps":[{"operation":"protect","options":{"password":"secret"}}]}"""));
        assertRefused(o, "step 1 (protect): an edit plan cannot use 'protect'");

        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Turns it.","steps":[{"operation":"rotate","options":{"angle":45}}]}"""));
        assertRefused(o, "step 1 (rotate): ");
    }

    private void assertRefused(Owner o, String reason) {
        Response r = post(o.key(), "/edit-plan", Map.of("file", o.file(), "instruction", "do it"));
        assertThat(r.status()).as(r.toString()).isEqualTo(502);
        assertThat(r.body().at("/error/code").asString()).as("a job that ran fails with a 5xx code (spec §7)").isEqualTo("internal_error");
        assertThat(r.body().at("/error/message").asString()).contains("the plan is refused").contains(reason);
        assertThat(r.body().at("/job/status").asString()).isEqualTo("failed");
    }

    @Test
    void aBlankInstructionIsRefusedBeforeAnyJob() {
        Owner o = owner();
        MODEL.script();
        Response r = post(o.key(), "/edit-plan", Map.of("file", o.file(), "instruction", "   "));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().at("/error/message").asString()).contains("'instruction'");
        assertThat(MODEL.calls()).isEmpty();
    }
}
