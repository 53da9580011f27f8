package dev.docapi.operations.ask;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.Plan;
import dev.docapi.accounts.UsageService;
import dev.docapi.ai.ProviderKeys;
import dev.docapi.ai.ScriptedModelServer;
import dev.docapi.ai.ScriptedModelServer.Recorded;
import dev.docapi.operations.pagenumbers.PopplerWords;
import dev.docapi.support.ApiTestBase;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

@ResourceLock(ApiTestBase.MODEL_LOCK)
class AskTest extends ApiTestBase {
    @Autowired
    ProviderKeys keys;
    @Autowired
    UsageService usage;

    @Test
    void aQuestionTheDocumentCannotAnswerSaysSo() {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        MODEL.script(ScriptedModelServer.openAiJson("{\"in_document\":false,\"answer\":\"It is a form with text fields and check boxes.\"}"));
        JsonNode job = run(key, "ask", json().put("file", file).put("question", "What is the total amount due?"));
        assertThat(job.path("output").path("text").asString()).startsWith(AskOperation.DOES_NOT_SAY);
        assertThat(job.path("output").path("model").asString()).isEqualTo("openai/gpt-test");
        JsonNode sent = MODEL.calls().getFirst().body();
        assertThat(sent.toString()).contains("What is the total amount due?");
        assertThat(sent.path("response_format").path("type").asString()).isEqualTo("json_schema");

        MODEL.script(ScriptedModelServer.openAiJson("{\"in_document\":true,\"answer\":\"abc potato (page 1)\"}"));
        JsonNode answered = run(key, "ask", json().put("file", file).put("question", "What is in the text field?"));
        assertThat(answered.path("output").path("text").asString()).isEqualTo("abc potato (page 1)");
    }

    @Test
    void theAnswersSourcesPointAtWhereTheirWordsStand() throws Exception {
        String key = newKey();
        Path pdf = corpus("pdf-text/two-column-paper-2p.pdf");
        String file = uploadId(key, pdf);
        // the hosted model reads the PDF itself, so it cites by words alone; the second quote is in no element
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"in_document":true,"answer":"Dense passage retrieval (page 1).",
                 "sources":[{"quote":"Open-domain question answering relies on efficient passage retrieval","page":1,"element":""},
                            {"quote":"A sentence no page has","page":2,"element":""}]}"""));
        JsonNode job = run(key, "ask", json().put("file", file).put("question", "What does open-domain QA rely on?"));
        JsonNode sources = job.path("output").path("sources");
        assertThat(sources).as(sources.toString()).hasSize(2);
        JsonNode s = sources.get(0);
        assertThat(s.path("page").asInt()).isEqualTo(1);
        JsonNode box = s.path("box");
        PopplerWords.Page page = PopplerWords.of(pdf).pages().getFirst();
        assertThat(box.path("width").asDouble() * box.path("height").asDouble()).isLessThan(page.width() * page.height() / 4);
        String within = page.textWithin(box.path("x").asDouble() - 1, box.path("y").asDouble() - 1,
                box.path("width").asDouble() + 2, box.path("height").asDouble() + 2);
        // poppler keeps the line-end hyphens ("ef- ficient") the model's text removes
        assertThat(within.replaceAll("-\\s+", "").replaceAll("\\s+", " ")).as("poppler's words in " + box).contains("Open-domain question answering relies on efficient passage retrieval");
        assertThat(sources.get(1).has("box")).as("a quote no element holds has no box: " + sources.get(1)).isFalse();
        assertThat(sources.get(1).path("page").asInt()).isEqualTo(2);
    }

    @Test
    @Tag("database")
    void anAnthropicAccountKeyReceivesThePdfAsADocumentAndHasNoAiCap() {
        var created = accounts.createAccount("anthropic-" + System.nanoTime() + "@example.com", Plan.FREE);
        usage.record(created.account().id(), 0, 20);
        keys.add(created.account().id(), "anthropic", "sk-ant-good-1", null);
        String file = uploadId(created.apiKey(), corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        MODEL.script(ScriptedModelServer.error(429), ScriptedModelServer.anthropicText("{\"in_document\":true,\"answer\":\"abc potato\"}"));
        JsonNode job = run(created.apiKey(), "ask", json().put("file", file).put("question", "What is in the text field?")
                .put("model", "anthropic/claude-sonnet-4-5"));
        assertThat(job.path("output").path("text").asString()).isEqualTo("abc potato");
        assertThat(job.path("output").path("model").asString()).isEqualTo("anthropic/claude-sonnet-4-5");

        assertThat(MODEL.calls()).as("a 429 is retried once").hasSize(2);
        Recorded call = MODEL.calls().get(1);
        assertThat(call.path()).isEqualTo("/anthropic/v1/messages");
        assertThat(call.header("x-api-key")).isEqualTo("sk-ant-good-1");
        assertThat(call.header("anthropic-version")).isNotBlank();
        assertThat(call.body().path("model").asString()).isEqualTo("claude-sonnet-4-5");
        JsonNode doc = null;
        for (JsonNode m : call.body().path("messages")) for (JsonNode part : m.path("content")) if (part.path("type").asString("").equals("document")) doc = part;
        assertThat(doc).as(call.body().toString().substring(0, 300)).isNotNull();
        assertThat(doc.path("source").path("type").asString()).isEqualTo("base64");
        assertThat(doc.path("source").path("media_type").asString()).isEqualTo("application/pdf");
        assertThat(doc.path("source").path("data").asString()).startsWith("JVBERi");
        assertThat(call.body().has("output_format") || call.body().toString().contains("in_document")).as("the answer schema is sent").isTrue();
        // extraction: nullable typed fields through Anthropic's structured output
        MODEL.script(ScriptedModelServer.anthropicText("""
                {"data":{"text_field":"abc potato","amount":12},"sources":[{"field":"text_field","quote":"abc potato","page":1}]}"""));
        JsonNode extracted = run(created.apiKey(), "extract", json().put("file", file).put("model", "anthropic/claude-sonnet-4-5")
                .set("fields", JSON.readTree("[\"text_field\",{\"name\":\"amount\",\"type\":\"number\"}]")));
        assertThat(extracted.path("output").path("data").path("text_field").asString()).isEqualTo("abc potato");
        assertThat(extracted.path("output").path("data").path("amount").isNull()).as("no source").isTrue();
        assertThat(MODEL.calls().getFirst().body().toString()).contains("text_field").contains("amount");
        // account keys: counted as operations, no AI operation used
        assertThat(usage.current(created.account().id())).containsExactly(2, 20);
    }

    @Test
    void aGeminiAccountKeyReceivesThePdfInline() {
        var created = accounts.createAccount("gemini-" + System.nanoTime() + "@example.com", Plan.PRO);
        keys.add(created.account().id(), "google/gemini-test", "good-gemini", null);
        String file = uploadId(created.apiKey(), corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        MODEL.script(ScriptedModelServer.error(500), ScriptedModelServer.geminiText("{\"in_document\":false,\"answer\":\"\"}"));
        JsonNode job = run(created.apiKey(), "ask", json().put("file", file).put("question", "Who signed it?").put("model", "google/gemini-test"));
        assertThat(job.path("output").path("text").asString()).isEqualTo(AskOperation.DOES_NOT_SAY);
        assertThat(MODEL.calls()).as("a 5xx is retried once").hasSize(2);
        Recorded call = MODEL.calls().get(1);
        assertThat(call.path()).isEqualTo("/google/v1beta/models/gemini-test:generateContent");
        assertThat(call.header("x-goog-api-key")).isEqualTo("good-gemini");
        String body = call.body().toString();
        assertThat(body).contains("application/pdf").contains("JVBERi");
        assertThat(call.body().path("generationConfig").path("responseMimeType").asString()).isEqualTo("application/json");

        // extraction: nullable typed fields through Gemini's schema mapping
        MODEL.script(ScriptedModelServer.geminiText("""
                {"data":{"text_field":"abc potato","amount":null,"tags":null},"sources":[{"field":"text_field","quote":"abc potato","page":1}]}"""));
        JsonNode extracted = run(created.apiKey(), "extract", json().put("file", file).put("model", "google/gemini-test")
                .set("fields", JSON.readTree("[\"text_field\",{\"name\":\"amount\",\"type\":\"number\"},{\"name\":\"tags\",\"type\":\"list\"}]")));
        assertThat(extracted.path("output").path("data").path("text_field").asString()).isEqualTo("abc potato");
        assertThat(MODEL.calls().getFirst().body().path("generationConfig").toString()).contains("text_field").contains("amount");
    }

    @Test
    void anOpenRouterKeyIsCheckedOnItsKeyEndpointAndSpeaksChatCompletions() {
        var created = accounts.createAccount("openrouter-" + System.nanoTime() + "@example.com", Plan.PRO);
        keys.add(created.account().id(), "openrouter/meta-llama/llama-3.1-70b", "sk-or-good", null);
        String file = uploadId(created.apiKey(), corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        MODEL.script(ScriptedModelServer.openAiJson("{\"in_document\":true,\"answer\":\"abc potato\"}"));
        JsonNode job = run(created.apiKey(), "ask", json().put("file", file).put("question", "What is in the text field?")
                .put("model", "openrouter/meta-llama/llama-3.1-70b"));
        assertThat(job.path("output").path("model").asString()).isEqualTo("openrouter/meta-llama/llama-3.1-70b");
        Recorded call = MODEL.calls().getFirst();
        assertThat(call.path()).isEqualTo("/openrouter/v1/chat/completions");
        assertThat(call.body().path("model").asString()).isEqualTo("meta-llama/llama-3.1-70b");
        assertThat(call.header("Authorization")).isEqualTo("Bearer sk-or-good");
        assertThat(call.body().toString()).contains("data:application/pdf;base64,JVBERi");
    }

    @Test
    void aCustomModelReceivesTheTextOfAScanOcrFirst() {
        var created = accounts.createAccount("custom-" + System.nanoTime() + "@example.com", Plan.PRO);
        keys.add(created.account().id(), "custom/llama-test", "good-local", MODEL.base("custom"));
        String file = uploadId(created.apiKey(), corpus("pdf-scanned/english-skewed-brochure.pdf"));
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"data":{"product":"LinnSequencer","tracks":32,"price":"$4,995"},
                 "sources":[{"field":"product","quote":"The LinnSequencer is a state-of-the-art composition","page":1},
                            {"field":"tracks","quote":"32 Track MIDI Sequence Recorder","page":1},
                            {"field":"price","quote":"Price: $4,995","page":1}]}"""));
        JsonNode job = run(created.apiKey(), "extract", json().put("file", file).put("model", "custom/llama-test").put("wait", 300)
                .set("fields", JSON.readTree("[\"product\",{\"name\":\"tracks\",\"type\":\"integer\"},\"price\"]")));
        JsonNode data = job.path("output").path("data");
        assertThat(data.path("product").asString()).isEqualTo("LinnSequencer");
        assertThat(data.path("tracks").asInt()).isEqualTo(32);
        assertThat(data.path("price").isNull()).isTrue();
        Recorded call = MODEL.calls().getFirst();
        assertThat(call.path()).isEqualTo("/custom/v1/chat/completions");
        assertThat(call.header("Authorization")).isEqualTo("Bearer good-local");
        String sent = call.body().toString();
        assertThat(sent).doesNotContain("application/pdf").contains("--- page 1 ---").contains("LinnSequencer");
    }
}
