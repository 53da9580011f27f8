package dev.docapi.operations.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.Plan;
import dev.docapi.accounts.UsageService;
import dev.docapi.ai.ProviderKeys;
import dev.docapi.ai.ScriptedModelServer;
import dev.docapi.ai.ScriptedModelServer.Recorded;
import dev.docapi.operations.pagenumbers.PopplerWords;
import dev.docapi.support.ApiTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

@ResourceLock(ApiTestBase.MODEL_LOCK)
class ExtractTest extends ApiTestBase {
    @Autowired
    UsageService usage;
    @Autowired
    ProviderKeys keys;

    private static JsonNode fileParts(Recorded call) {
        for (JsonNode m : call.body().get("messages")) {
            if (m.path("role").asString("").equals("user")) return m.get("content");
        }
        throw new AssertionError("no user message in " + call.body());
    }

    @Test
    @Tag("database")
    void extractKeepsGroundedValuesAndNullsAbsentAndInventedOnes() throws Exception {
        var created = accounts.createAccount("extract-" + System.nanoTime() + "@example.com", Plan.FREE);
        String key = created.apiKey();
        String file = uploadId(key, corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"data":{"text_field":"abc potato","invoice_number":null,"customer":"ACME Corporation","check_box":"abc tomato","pages_note":3},
                 "sources":[{"field":"text_field","quote":"Text Field abc potato","page":1},
                            {"field":"customer","quote":"Customer: ACME Corporation","page":1},
                            {"field":"check_box","quote":"abc potato","page":1},
                            {"field":"pages_note","quote":"I need another page","page":1}]}"""));
        JsonNode job = run(key, "extract", json().put("file", file)
                .set("fields", JSON.readTree("[\"text_field\",\"invoice_number\",\"customer\",\"check_box\",{\"name\":\"pages_note\",\"type\":\"integer\"}]")));

        JsonNode data = job.path("output").path("data");
        assertThat(data.get("text_field").asString()).isEqualTo("abc potato");
        assertThat(data.get("invoice_number").isNull()).as("absent field").isTrue();
        assertThat(data.get("customer").isNull()).as("invented value, quote not in the document").isTrue();
        assertThat(data.get("check_box").isNull()).as("value not in its quote").isTrue();
        assertThat(data.get("pages_note").isNull()).as("number not in its quote").isTrue();
        assertThat(job.path("output").path("note").asString()).contains("customer").contains("check_box").contains("pages_note")
                .doesNotContain("text_field");
        assertThat(job.path("output").path("model").asString()).isEqualTo("openai/gpt-test");
        // the kept value's source: its quote runs over the label and the form field beside it, both boxed
        JsonNode sources = job.path("output").path("sources");
        assertThat(sources).as(sources.toString()).singleElement().satisfies(s -> {
            assertThat(s.path("field").asString()).isEqualTo("text_field");
            assertThat(s.path("text").asString()).isEqualTo("Text Field\nabc potato");
            assertThat(s.path("page").asInt()).isEqualTo(1);
            assertThat(s.path("box").path("width").asDouble()).isPositive();
        });

        Path out = downloadOutput(job, 0);
        assertThat(out.getFileName().toString()).endsWith(".json");
        assertThat(JSON.readTree(Files.readString(out))).isEqualTo(data);

        // what docapi sent: the PDF itself as a file part, the JSON schema of the answer, the service key
        List<Recorded> calls = MODEL.calls();
        assertThat(calls).hasSize(1);
        Recorded call = calls.getFirst();
        assertThat(call.path()).isEqualTo("/openai/v1/chat/completions");
        assertThat(call.header("Authorization")).isEqualTo("Bearer sk-service-good");
        assertThat(call.body().path("model").asString()).isEqualTo("gpt-test");
        JsonNode pdfPart = null;
        for (JsonNode part : fileParts(call)) if (part.path("type").asString("").equals("file")) pdfPart = part;
        assertThat(pdfPart).as("a file part in " + fileParts(call)).isNotNull();
        assertThat(pdfPart.path("file").path("file_data").asString()).startsWith("data:application/pdf;base64,JVBERi");
        JsonNode format = call.body().path("response_format");
        assertThat(format.path("type").asString()).isEqualTo("json_schema");
        JsonNode schemaData = format.path("json_schema").path("schema").path("properties").path("data").path("properties");
        assertThat(schemaData.has("text_field")).as(format.toString()).isTrue();
        assertThat(schemaData.has("pages_note")).isTrue();

        assertThat(usage.current(created.account().id())).containsExactly(1, 1);
    }

    @Test
    void eachKeptValuesSourcePointsAtTheElementThatHoldsIt() throws Exception {
        var created = accounts.createAccount("cite-" + System.nanoTime() + "@example.com", Plan.PRO);
        keys.add(created.account().id(), "custom/llama-test", "good-local", MODEL.base("custom"));
        Path pdf = corpus("pdf-text/two-column-paper-2p.pdf");
        String file = uploadId(created.apiKey(), pdf);
        // the model cites the title by the id the text it read gives it; the retrieval gain by a wrong id (found by its
        // words); the invented value has a source too, but is dropped with its value
        MODEL.script(r -> {
            Matcher title = Pattern.compile("\\[(e\\d+)] Dense Passage Retrieval").matcher(r.body().toString());
            assertThat(title.find()).as("element ids in the text sent").isTrue();
            return ScriptedModelServer.openAiJson("""
                    {"data":{"title":"Dense Passage Retrieval for Open-Domain Question Answering","task":"open-domain question answering","venue":"NeurIPS"},
                     "sources":[{"field":"title","quote":"Dense Passage Retrieval for Open-Domain Question Answering","page":1,"element":"%s"},
                                {"field":"task","quote":"Open-domain question answering relies on efficient passage retrieval","page":1,"element":"e99999"},
                                {"field":"venue","quote":"Published at NeurIPS","page":1,"element":""}]}""".formatted(title.group(1))).apply(r);
        });
        JsonNode job = run(created.apiKey(), "extract", json().put("file", file).put("model", "custom/llama-test")
                .set("fields", JSON.readTree("[\"title\",\"task\",\"venue\"]")));
        JsonNode sources = job.path("output").path("sources");
        assertThat(job.path("output").path("data").path("venue").isNull()).isTrue();
        assertThat(sources).as(sources.toString()).hasSize(2);
        PopplerWords.Page page = PopplerWords.of(pdf).pages().getFirst();
        for (JsonNode s : sources) {
            assertThat(s.path("page").asInt()).isEqualTo(1);
            JsonNode box = s.path("box");
            assertThat(box.path("width").asDouble() * box.path("height").asDouble()).as("a paragraph, not the page")
                    .isLessThan(page.width() * page.height() / 4);
            String within = page.textWithin(box.path("x").asDouble() - 1, box.path("y").asDouble() - 1,
                    box.path("width").asDouble() + 2, box.path("height").asDouble() + 2);
            assertThat(squash(within)).as("poppler's words in " + box + " hold the quote of " + s).contains(squash(s.path("quote").asString()));
            assertThat(squash(s.path("text").asString())).contains(squash(s.path("quote").asString()));
        }
        assertThat(sources.get(0).path("field").asString()).isEqualTo("title");
        assertThat(sources.get(1).path("field").asString()).isEqualTo("task");
        assertThat(sources.get(1).path("element").asString()).isNotEqualTo("e99999");
    }

    private static String squash(String s) {
        return s.toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]", "");
    }

    @Test
    void extractWithANestedSchemaTypesAndGroundsEachLeaf() {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/libreoffice-form.pdf"));
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"data":{"person":{"first_name":"Alice","nationality":"Wakanda"},"agreed":"yes","names":["Alice","Bob","Carol"]},
                 "sources":[{"field":"person.first_name","quote":"First Name Alice","page":1},
                            {"field":"person.nationality","quote":"Nationality: Wakanda","page":1},
                            {"field":"agreed","quote":"Agree to privacy policy","page":1},
                            {"field":"names","quote":"Alice","page":1},{"field":"names[1]","quote":"Bob","page":1},
                            {"field":"names[2]","quote":"Carol","page":1}]}"""));
        JsonNode schema = JSON.readTree("""
                {"type":"object","properties":{
                   "person":{"type":"object","properties":{"first_name":{"type":"string"},"nationality":{"type":"string"}}},
                   "agreed":{"type":"boolean"},
                   "names":{"type":"array","items":{"type":"string"}}}}""");
        JsonNode job = run(key, "extract", json().put("file", file).set("schema", schema));
        JsonNode data = job.path("output").path("data");
        assertThat(data.path("person").path("first_name").asString()).isEqualTo("Alice");
        assertThat(data.path("person").path("nationality").isNull()).isTrue();
        assertThat(data.path("agreed").asBoolean()).isTrue();
        assertThat(data.path("names")).hasSize(2);
        assertThat(job.path("output").path("note").asString()).contains("person.nationality").contains("names[2]");
    }

    @Test
    void aTiffImageIsSentToAHostedModelAsPng() {
        String key = newKey();
        String file = uploadId(key, corpus("images/layout-parser-paper-fast.tiff"));
        MODEL.script(ScriptedModelServer.openAiJson("{\"data\":{\"title\":null},\"sources\":[]}"));
        JsonNode job = run(key, "extract", json().put("file", file).put("wait", 300).set("fields", JSON.readTree("[\"title\"]")));
        assertThat(job.path("output").path("data").path("title").isNull()).isTrue();
        JsonNode image = null;
        for (JsonNode part : fileParts(MODEL.calls().getFirst())) if (part.path("type").asString("").equals("image_url")) image = part;
        assertThat(image).isNotNull();
        assertThat(image.path("image_url").path("url").asString()).startsWith("data:image/png;base64,iVBORw0KGgo");
    }

    @Test
    void extractRefusesBadFieldsAtOnce() {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/libreoffice-form.pdf"));
        var r = post(key, "/extract", json().put("file", file).set("fields", JSON.readTree("[{\"name\":\"x\",\"type\":\"money\"}]")));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().path("error").path("message").asString()).contains("money");
        var none = post(key, "/extract", json().put("file", file));
        assertThat(none.status()).isEqualTo(400);
        var unknownModel = post(key, "/extract", json().put("file", file).put("model", "anthropic/claude-x").set("fields", JSON.readTree("[\"a\"]")));
        assertThat(unknownModel.status()).isEqualTo(400);
        assertThat(unknownModel.body().path("error").path("message").asString()).contains("/v1/models");
    }

    @Test
    @Tag("database")
    void extractOnTheServiceModelStopsWhenTheFreeAiOperationsAreUsed() {
        var created = accounts.createAccount("quota-" + System.nanoTime() + "@example.com", Plan.FREE);
        usage.record(created.account().id(), 0, 20);
        String file = uploadId(created.apiKey(), corpus("pdf-text/libreoffice-form.pdf"));
        var r = post(created.apiKey(), "/extract", json().put("file", file).set("fields", JSON.readTree("[\"first_name\"]")));
        assertThat(r.status()).isEqualTo(402);
        assertThat(r.code()).isEqualTo("quota_exceeded");
    }

    @Test
    void aRateLimitIsRetriedOnceAndServerErrorsFailTheJob() {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/libreoffice-form.pdf"));
        MODEL.script(ScriptedModelServer.error(429), ScriptedModelServer.openAiJson("""
                {"data":{"first_name":"Alice"},"sources":[{"field":"first_name","quote":"First Name Alice","page":1}]}"""));
        JsonNode job = run(key, "extract", json().put("file", file).set("fields", JSON.readTree("[\"first_name\"]")));
        assertThat(job.path("output").path("data").path("first_name").asString()).isEqualTo("Alice");
        assertThat(MODEL.calls()).hasSize(2);

        MODEL.script(ScriptedModelServer.error(503), ScriptedModelServer.error(503), ScriptedModelServer.error(503));
        var failed = post(key, "/extract", json().put("file", file).set("fields", JSON.readTree("[\"first_name\"]")));
        assertThat(failed.status()).isGreaterThanOrEqualTo(500);
        assertThat(failed.body().path("job").path("status").asString()).isEqualTo("failed");
        assertThat(failed.code()).isEqualTo("service_unavailable");
        assertThat(MODEL.calls()).hasSize(2);
    }
}
