package dev.docapi.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.UsageService;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Workflows over real HTTP on corpus PDFs (spec §2.4, §4.3), outputs checked with PDFBox, pdftotext and qpdf. */
// The PostgreSQL pass (@Tag("database")) leaves out the two engine-heavy workflows: the other tests run their SQL.
class WorkflowsTest extends ApiTestBase {
    private static final String BOOK = "pdf-text/geotopo-117p-linearized-links.pdf";
    private static final String FOUR = "pdf-text/pdflatex-4-pages-objstm.pdf";

    @Autowired
    org.springframework.jdbc.core.simple.JdbcClient workflowDb;
    @Autowired
    UsageService usage;

    private static Map<String, Object> step(String operation, Map<String, Object> options) {
        return Map.of("operation", operation, "options", options);
    }

    private int operationsUsed(String key) {
        return get(key, "/usage").body().at("/operations/used").asInt();
    }

    @Test
    void savedWorkflowRotatesSplitsRotatesEachPartAndMergesTheBookBackInOrder() throws Exception {
        String key = newKey();
        Path book = corpus(BOOK);
        int[] before;
        try (PDDocument doc = Independent.pdfbox(book)) {
            before = new int[doc.getNumberOfPages()];
            for (int i = 0; i < before.length; i++) before[i] = doc.getPage(i).getRotation();
        }
        Response saved = post(key, "/workflows", Map.of("name", "rotate, split in 30s, turn each part's first page, merge", "steps", List.of(
                step("rotate", Map.of("angle", 90)),
                step("split", Map.of("every", 30)),
                step("rotate", Map.of("angle", 180, "pages", List.of(1))),
                Map.of("operation", "merge"))));
        assertThat(saved.status()).as(saved.toString()).isEqualTo(201);
        String id = saved.body().get("id").asString();
        assertThat(id).startsWith("wf_");
        assertThat(saved.headers().firstValue("Location")).hasValue("/v1/workflows/" + id);
        assertThat(saved.body().get("object").asString()).isEqualTo("workflow");

        Response r = post(key, "/workflows/" + id + "/run", Map.of("file", uploadId(key, book)));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode job = r.body();
        assertThat(job.get("operation").asString()).isEqualTo("workflow");
        assertThat(job.at("/input/workflow").asString()).isEqualTo(id);
        assertThat(job.at("/input/steps/1").toString()).isEqualTo("{\"operation\":\"split\",\"options\":{\"every\":30}}");
        assertThat(job.at("/output/files").size()).isEqualTo(1);

        JsonNode steps = job.at("/output/steps");
        assertThat(steps.size()).isEqualTo(4);
        assertThat(steps.get(1).get("output_files").size()).isEqualTo(1); // the ZIP
        assertThat(steps.get(2).get("input_files").size()).isEqualTo(4); // opened: 30 + 30 + 30 + 27 pages
        assertThat(steps.get(2).get("output_files").size()).isEqualTo(4);
        assertThat(steps.get(3).get("input_files")).isEqualTo(steps.get(2).get("output_files"));
        assertThat(steps.get(3).get("output_files").get(0).asString()).isEqualTo(job.at("/output/files/0/id").asString());
        for (JsonNode s : steps) {
            assertThat(s.get("status").asString()).isEqualTo("succeeded");
            assertThat(s.get("duration_ms").asLong()).isGreaterThanOrEqualTo(0);
        }

        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(117);
            for (int i = 0; i < 117; i++) {
                int extra = i % 30 == 0 ? 270 : 90;
                assertThat(doc.getPage(i).getRotation()).as("page " + (i + 1)).isEqualTo((before[i] + extra) % 360);
            }
        }
        // Pages stayed in order: pages 31 and 117 carry the book's words (reading order changes with the rotation).
        assertThat(words(Independent.pdftotext(out, 31, 31))).isEqualTo(words(Independent.pdftotext(book, 31, 31)));
        assertThat(words(Independent.pdftotext(out, 117, 117))).isEqualTo(words(Independent.pdftotext(book, 117, 117)));
        assertThat(words(Independent.pdftotext(out, 31, 31))).isNotEqualTo(words(Independent.pdftotext(book, 30, 30)));
        assertThat(operationsUsed(key)).as("one per successful step, not one per file").isEqualTo(4);
    }

    @Test
    void ocrThenExtractTextThenCompressThenWatermarkAScannedPage() throws Exception {
        String key = newKey();
        Path scan = corpus("pdf-scanned/huckfinn-page-c02-22.pdf");
        assertThat(Independent.pdftotext(scan).strip()).as("the corpus page has no text layer").isEmpty();
        Response r = post(key, "/workflows/run", Map.of("file", uploadId(key, scan), "wait", 240, "steps", List.of(
                Map.of("operation", "ocr"), step("extract-text", Map.of("ocr", "never")),
                step("compress", Map.of("level", "ebook")), step("watermark", Map.of("text", "DRAFT COPY")))));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode steps = r.body().at("/output/steps");
        String ocrText = steps.get(1).get("text").asString();
        List<String> ocrWords = words(ocrText).stream().filter(w -> w.matches("[A-Za-z]{5,}")).distinct().toList();
        assertThat(ocrWords).as("extract-text read the OCR layer: " + ocrText).hasSizeGreaterThan(20);
        assertThat(steps.get(1).get("output_files").size()).isEqualTo(1); // the .txt, recorded
        assertThat(steps.get(2).get("input_files")).as("the data-only step passed the OCR'd PDF on").isEqualTo(steps.get(0).get("output_files"));

        Path out = downloadOutput(r.body(), 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        String text = Independent.pdftotext(out);
        assertThat(text).contains("DRAFT COPY");
        long kept = ocrWords.stream().filter(text::contains).count();
        assertThat(kept).as("the text layer survived compress and watermark").isGreaterThanOrEqualTo(ocrWords.size() * 9 / 10);
        assertThat(operationsUsed(key)).isEqualTo(4);
    }

    @Test
    @Tag("database")
    void adHocRunTakesSeveralFilesRunsAOneFileStepPerFileThenMergesThem() throws Exception {
        String key = newKey();
        String a = uploadId(key, corpus(FOUR));
        String b = uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf"));
        Response r = post(key, "/workflows/run", Map.of("files", List.of(a, b), "steps", List.of(
                step("rotate", Map.of("angle", 180)), Map.of("operation", "merge"))));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.body().get("input").has("workflow")).as("ad hoc: no saved workflow").isFalse();
        assertThat(r.body().at("/input/files").size()).isEqualTo(2);
        Path out = downloadOutput(r.body(), 0);
        try (PDDocument doc = Independent.pdfbox(out); PDDocument four = Independent.pdfbox(corpus(FOUR))) {
            assertThat(doc.getNumberOfPages()).isEqualTo(24);
            assertThat(doc.getPage(0).getRotation()).isEqualTo((four.getPage(0).getRotation() + 180) % 360);
        }
        assertThat(norm(Independent.pdftotext(out, 2, 2))).isEqualTo(norm(Independent.pdftotext(corpus(FOUR), 2, 2)));
        assertThat(operationsUsed(key)).isEqualTo(2);
        // a generated client's unset files: [] beside file is absent (issue 13)
        Response one = post(key, "/workflows/run", Map.of("file", a, "files", List.of(), "steps", List.of(step("rotate", Map.of("angle", 90)))));
        assertThat(one.status()).as(one.toString()).isEqualTo(200);
        assertThat(one.body().at("/input/files").size()).isEqualTo(1);
    }

    @Test
    @Tag("database")
    void aDataOnlyStepPassesItsInputsOnAndRecordsItsData() throws Exception {
        String key = newKey();
        Response r = post(key, "/workflows/run", Map.of("file", uploadId(key, corpus(FOUR)), "steps", List.of(
                step("split", Map.of("every", 2)), Map.of("operation", "test-page-count"), Map.of("operation", "merge"))));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode steps = r.body().at("/output/steps");
        assertThat(steps.get(1).get("data").toString()).isEqualTo("[{\"pages\":2},{\"pages\":2}]");
        assertThat(steps.get(1).get("text").asString()).isEqualTo("2 pages\n\n2 pages");
        assertThat(steps.get(1).get("output_files").size()).isEqualTo(2); // its .json files, recorded
        assertThat(steps.get(2).get("input_files")).isEqualTo(steps.get(1).get("input_files")); // but the PDFs go on
        try (PDDocument doc = Independent.pdfbox(downloadOutput(r.body(), 0))) {
            assertThat(doc.getNumberOfPages()).isEqualTo(4);
        }
    }

    @Test
    @Tag("database")
    void aLastStepRunOncePerFileGivesItsDataAsAList() throws Exception {
        // output.data is an object for stock clients (issue 39); output.steps keeps the plain array
        String key = newKey();
        Response r = post(key, "/workflows/run", Map.of("file", uploadId(key, corpus(FOUR)), "steps", List.of(
                step("split", Map.of("every", 2)), Map.of("operation", "test-page-count"))));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.body().at("/output/data").toString()).isEqualTo("{\"object\":\"list\",\"data\":[{\"pages\":2},{\"pages\":2}]}");
        assertThat(r.body().at("/output/steps/1/data").toString()).isEqualTo("[{\"pages\":2},{\"pages\":2}]");
    }

    @Test
    @Tag("database")
    void aStepThatFailsFailsTheJobNamingTheStepAndOnlySucceededStepsCount() {
        String key = newKey();
        String file = uploadId(key, corpus(FOUR));
        // Each part of the split has one page, so 'organize' asking for page 2 fails at step 3, against real files.
        Response r = post(key, "/workflows/run", Map.of("file", file, "steps", List.of(
                step("rotate", Map.of("angle", 90)), step("split", Map.of("every", 1)), step("organize", Map.of("pages", List.of(2, 1))))));
        assertThat(r.status()).as(r.toString()).isEqualTo(502);
        assertThat(r.body().at("/job/status").asString()).isEqualTo("failed");
        assertThat(r.body().at("/error/message").asString()).startsWith("step 3 of 3 (organize) failed: ").contains("page 2");
        JsonNode steps = r.body().at("/job/output/steps");
        assertThat(steps.size()).isEqualTo(3);
        assertThat(steps.get(0).get("status").asString()).isEqualTo("succeeded");
        assertThat(steps.get(1).get("output_files").size()).isEqualTo(1);
        assertThat(steps.get(2).get("status").asString()).isEqualTo("failed");
        assertThat(steps.get(2).get("input_files").size()).as("the split ZIP opened into its 4 one-page PDFs").isEqualTo(4);
        assertThat(steps.get(2).at("/error/message").asString()).isEqualTo(r.body().at("/error/message").asString());
        assertThat(r.body().at("/job/output/files").size()).isZero();
        assertThat(operationsUsed(key)).isEqualTo(2);

        Response engine = post(key, "/workflows/run", Map.of("file", file, "steps", List.of(
                step("rotate", Map.of("angle", 90)), Map.of("operation", "test-fail"))));
        assertThat(engine.status()).isEqualTo(502);
        assertThat(engine.body().at("/error/code").asString()).isEqualTo("internal_error");
        assertThat(engine.body().at("/error/message").asString()).isEqualTo(
                "step 2 of 2 (test-fail) failed: the engine could not process page 1 (1 step had succeeded and counted)");
        assertThat(operationsUsed(key)).isEqualTo(3);
    }

    @Test
    @Tag("database")
    void stepsAreValidatedWhenSavedLikeTheOperationsOwnEndpoint() {
        String key = newKey();
        assertInvalid(post(key, "/workflows", Map.of("name", "x", "steps", List.of(step("rotate", Map.of("angle", 90)), step("rotate", Map.of("angle", 45))))),
                "step 2 (rotate): ");
        assertInvalid(post(key, "/workflows", Map.of("name", "x", "steps", List.of(Map.of("operation", "rotate")))), "step 1 (rotate): 'angle' is required");
        assertInvalid(post(key, "/workflows", Map.of("name", "x", "steps", List.of(Map.of("operation", "teleport")))), "step 1: 'teleport'");
        assertInvalid(post(key, "/workflows", Map.of("name", "x", "steps", List.of(step("rotate", Map.of("angle", 90, "file", "file_x"))))), "'file' is not a step option");
        assertInvalid(post(key, "/workflows", Map.of("name", "x", "steps", List.of(step("split", Map.of("colour", "red"))))), "unknown option 'colour'");
        List<Object> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) eleven.add(step("rotate", Map.of("angle", 90)));
        assertInvalid(post(key, "/workflows", Map.of("name", "x", "steps", eleven)), "1-10 steps");
        assertInvalid(post(key, "/workflows", Map.of("name", "x", "steps", List.of())), "1-10 steps");
        assertInvalid(post(key, "/workflows", Map.of("steps", List.of(step("rotate", Map.of("angle", 90))))), "'name' is required");
        assertThat(get(key, "/workflows").body().get("data").size()).isZero();
    }

    @Test
    @Tag("database")
    void theFirstStepIsValidatedAgainstTheRealFileBeforeAnyJob() {
        String key = newKey();
        String file = uploadId(key, corpus(FOUR));
        assertInvalid(post(key, "/workflows/run", Map.of("file", file, "steps", List.of(step("rotate", Map.of("angle", 90, "pages", List.of(5)))))),
                "step 1 (rotate): 'pages' names page 5");
        assertInvalid(post(key, "/workflows/run", Map.of("file", file, "files", List.of(file), "steps", List.of(step("rotate", Map.of("angle", 90))))), "not both");
        // an empty files is absent (issue 13): alone it is "no input", not "both"
        assertInvalid(post(key, "/workflows/run", Map.of("files", List.of(), "steps", List.of(step("rotate", Map.of("angle", 90))))),
                "give the workflow its input as 'file' (one file id) or 'files' (an array of file ids)");
        assertInvalid(post(key, "/workflows/run", Map.of("file", file, "wait", 301, "steps", List.of(step("rotate", Map.of("angle", 90))))), "'wait'");
        Response missing = post(key, "/workflows/run", Map.of("file", "file_doesnotexist", "steps", List.of(step("rotate", Map.of("angle", 90)))));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.code()).isEqualTo("file_not_found");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
        assertThat(operationsUsed(key)).isZero();
    }

    @Test
    @Tag("database")
    void workflowsAreListedFetchedDeletedWithoutPasswordsAndCappedAtFifty() {
        String key = newKey();
        Response saved = post(key, "/workflows", Map.of("name", "lock it", "steps", List.of(step("protect", Map.of("password", "s3cret-pw")))));
        assertThat(saved.status()).as(saved.toString()).isEqualTo(201);
        String id = saved.body().get("id").asString();
        assertThat(saved.raw()).asString().doesNotContain("s3cret-pw");
        assertThat(workflowDb.sql("SELECT steps_json FROM workflows WHERE id = ?").param(id).query(String.class).single())
                .as("steps are sealed at rest").startsWith("v2:").doesNotContain("s3cret-pw").doesNotContain("protect");
        assertThat(get(key, "/workflows/" + id).body().get("name").asString()).isEqualTo("lock it");
        assertThat(get(newKey(), "/workflows/" + id).status()).as("another account's workflow").isEqualTo(404);

        Response run = post(key, "/workflows/" + id + "/run", Map.of("file", uploadId(key, corpus(FOUR))));
        assertThat(run.status()).as(run.toString()).isEqualTo(200);
        assertThat(run.raw()).asString().doesNotContain("s3cret-pw");
        assertThat(run.body().at("/output/files/0/name").asString()).endsWith(".pdf");

        Response deleted = delete(key, "/workflows/" + id);
        assertThat(deleted.body().toString()).isEqualTo("{\"object\":\"workflow\",\"id\":\"" + id + "\",\"deleted\":true}");
        assertThat(get(key, "/workflows/" + id).status()).isEqualTo(404);
        assertThat(post(key, "/workflows/" + id + "/run", Map.of("file", "file_x")).status()).isEqualTo(404);

        for (int i = 0; i < 50; i++) {
            assertThat(post(key, "/workflows", Map.of("name", "w" + i, "steps", List.of(step("rotate", Map.of("angle", 90))))).status()).isEqualTo(201);
        }
        assertInvalid(post(key, "/workflows", Map.of("name", "one too many", "steps", List.of(step("rotate", Map.of("angle", 90))))), "at most 50");
        JsonNode list = get(key, "/workflows").body();
        assertThat(list.get("object").asString()).isEqualTo("list");
        assertThat(list.get("data").size()).isEqualTo(50);
        assertThat(list.at("/data/0/name").asString()).isEqualTo("w49");
    }

    private static void assertInvalid(Response r, String messagePart) {
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(r.body().at("/error/message").asString()).contains(messagePart);
    }

    private static List<String> words(String s) {
        return java.util.Arrays.stream(s.split("\\s+")).filter(w -> !w.isEmpty()).sorted().toList();
    }

    private static String norm(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
