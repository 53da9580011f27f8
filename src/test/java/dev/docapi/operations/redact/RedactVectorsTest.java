package dev.docapi.operations.redact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * redact against one-vector hostile PDFs (issue 35): each hides {@link HostileVectors#WORD} in one place. The
 * verification alone finds it in the unredacted file (so a vector the redaction missed would fail its job), and
 * {@code POST /v1/redact} removes it: neither pdftotext, {@code mutool draw -F txt} (spacing removed) nor the bytes of
 * {@code qpdf --qdf --object-streams=disable --decode-level=all} (plain, hex, UTF-16 either order) hold it, while the
 * page's prose is kept.
 */
class RedactVectorsTest extends ApiTestBase {
    @Autowired
    RedactionCheck check;

    static Stream<String> vectors() {
        return HostileVectors.ALL.keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void theWordIsFoundInTheUnredactedFileRemovedAndTheRestKept(String vector) throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "vector-");
        removedAndRestKept(HostileVectors.build(vector, dir.resolve("vector.pdf")), Map.of("text", List.of(HostileVectors.WORD)));
    }

    /** Letter-spaced text is matched by patterns and presets too, closed up ("o p s @ x . o r g"). */
    @Test
    void aLetterSpacedMatchOfAPatternOrAPresetIsFoundAndRemoved() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "vector-");
        removedAndRestKept(HostileVectors.build(HostileVectors.SPACED_EMAIL, dir.resolve("email.pdf")), Map.of("presets", List.of("email")));
        removedAndRestKept(HostileVectors.build("TJ gaps", dir.resolve("tj.pdf")), Map.of("patterns", List.of("OBS[A-Z]{4}N")));
        removedAndRestKept(HostileVectors.build("letter spacing Tc", dir.resolve("tc.pdf")), Map.of("patterns", List.of("\\bobsid\\w+"), "ignore_case", true));
    }

    /**
     * {@code options} (text, patterns, presets) find the word in {@code pdf} by the check alone; {@code POST /redact}
     * with them succeeds and no independent reader holds the word after, while the prose is kept.
     */
    private void removedAndRestKept(Path pdf, Map<String, Object> options) throws Exception {
        Searches searches = Searches.of(strings(options.get("text")), strings(options.get("patterns")), strings(options.get("presets")).stream().map(p -> Searches.Preset.valueOf(p.toUpperCase(java.util.Locale.ROOT))).toList(),
                Boolean.TRUE.equals(options.get("ignore_case")));
        List<String> before = check.leftovers(pdf, searches, pdf.getParent(), 1, System.nanoTime() + 30_000_000_000L);
        assertThat(before).as("the check finds the hidden word in the unredacted file").isNotEmpty();

        String key = newKey();
        Map<String, Object> body = new java.util.HashMap<>(options);
        body.put("file", uploadId(key, pdf));
        body.put("wait", 300);
        Response r = post(key, "/redact", body);
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        Path out = downloadOutput(r.body(), 0);
        String text = assertGone(out);
        for (String line : HostileVectors.PROSE) assertThat(text).contains(line);
        JsonNode data = r.body().at("/output/data");
        assertThat(data.toString()).doesNotContainIgnoringCase(HostileVectors.WORD);
        assertThat(data.at("/verification/leftovers").asInt()).isZero();
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object list) {
        return list == null ? List.of() : (List<String>) list;
    }

    /**
     * A job with areas alone is verified too: the words under an area of the page's text are gone for every reader; a
     * stamp annotation painted over an area (its text kept: no search, no sanitize) fails the job, naming the page.
     */
    @Test
    void anAreaAloneIsVerifiedAndAWordStillReadInsideItFailsTheJobNamingThePage() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "areas-");
        // "The word OBSIDIAN is here." on the baseline y = 500 of a 792-point page: y 280-296 from the top
        Path text = HostileVectors.build("page text", dir.resolve("text.pdf"));
        String key = newKey();
        Response r = post(key, "/redact", Map.of("file", uploadId(key, text), "wait", 300,
                "areas", List.of(Map.of("page", 1, "x", 60, "y", 270, "width", 300, "height", 35))));
        assertThat(r.status()).as("%s", r).isEqualTo(200);
        Path out = downloadOutput(r.body(), 0);
        String left = assertGone(out);
        for (String line : HostileVectors.PROSE) assertThat(left).contains(line);
        assertThat(r.body().at("/output/data/verification/leftovers").asInt()).isZero();

        // the stamp's rectangle is y 300-330 from the bottom: 462-492 from the top
        Path stamp = HostileVectors.build("stamp appearance", dir.resolve("stamp.pdf"));
        Response failed = post(key, "/redact", Map.of("file", uploadId(key, stamp), "wait", 300,
                "areas", List.of(Map.of("page", 1, "x", 60, "y", 455, "width", 260, "height", 45))));
        assertThat(failed.status()).as("%s", failed).isEqualTo(502);
        assertThat(failed.body().at("/error/message").asString()).contains("could not be verified", "page 1 inside an area");
        assertThat(failed.body().at("/error").toString()).doesNotContainIgnoringCase(HostileVectors.WORD);
    }

    /** A job with sanitize alone is verified too: a script sanitize does not reach (a catalog key of no standard) fails it. */
    @Test
    void aSanitizeJobWithAScriptLeftFailsTheJobNamingWhere() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "sanitize-");
        Path pdf = HostileVectors.build((doc, page) -> {
            COSDictionary script = new COSDictionary();
            script.setItem(COSName.S, COSName.JAVA_SCRIPT);
            script.setString(COSName.JS, "app.alert(1);");
            doc.getDocumentCatalog().getCOSObject().setItem(COSName.getPDFName("Extras"), script);
        }, dir.resolve("script.pdf"));
        String key = newKey();
        Response r = post(key, "/redact", Map.of("file", uploadId(key, pdf), "sanitize", true, "wait", 300));
        assertThat(r.status()).as("%s", r).isEqualTo(502);
        assertThat(r.body().at("/error/message").asString()).contains("could not be verified", "/JS (qpdf --qdf)");
    }

    @Test
    void aMatchNoStepRemovesFailsTheJobNamingWhereNeverTheText() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "vector-");
        Path pdf = HostileVectors.build(HostileVectors.UNREMOVABLE, dir.resolve("unremovable.pdf"));
        String key = newKey();
        Response r = post(key, "/redact", Map.of("file", uploadId(key, pdf), "text", List.of(HostileVectors.WORD), "wait", 300));
        assertThat(r.status()).isEqualTo(502);
        assertThat(r.body().at("/job/status").asString()).isEqualTo("failed");
        assertThat(r.body().at("/error/message").asString()).contains("could not be verified", "page 1 /Resources /Font /Helv /Comment");
        // the text is in the job's own input (the caller's options), never in what the job says
        assertThat(r.body().at("/error").toString()).doesNotContainIgnoringCase(HostileVectors.WORD);
        assertThat(r.body().at("/job/output").toString()).doesNotContainIgnoringCase(HostileVectors.WORD).contains("leftovers");
    }

    @Test
    void sanitizeAsAWorkflowStepRemovesWhatCanHideContentWithoutAnySearchAndSaysWhat() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "sanitize-");
        List<String> hidden = List.of("field default", "annotation rich text", "file attachment annotation", "layer that is off",
                "outside the crop box", "document JavaScript", "embedded file in UTF-16", "custom Info key", "page XMP");
        Path pdf = HostileVectors.build((doc, page) -> {
            for (String v : hidden) HostileVectors.ALL.get(v).hide(doc, page);
            page.getCOSObject().setItem(COSName.PIECE_INFO, new COSDictionary());
        }, dir.resolve("hiding.pdf"));
        String key = newKey();
        // as a workflow step: its options are the operation's own
        JsonNode job = run(key, "workflows/run", Map.of("file", uploadId(key, pdf), "wait", 300,
                "steps", List.of(Map.of("operation", "redact", "options", Map.of("sanitize", true)))));
        Path out = downloadOutput(job, 0);
        assertGone(out);
        String text = Independent.pdftotext(out);
        for (String line : HostileVectors.PROSE) assertThat(text).contains(line);
        JsonNode removed = job.at("/output/steps/0/data/removed");
        for (String place : List.of("field_defaults", "annotation_rich_text", "text_in_hidden_layers", "text_outside_page", "javascript",
                "embedded_files", "metadata_custom_keys", "page_xmp", "piece_info", "annotations")) {
            assertThat(removed.path(place).asInt()).as(place + " in " + removed).isPositive();
        }
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getPage(0).getCOSObject().containsKey(COSName.PIECE_INFO)).isFalse();
            assertThat(doc.getDocumentCatalog().getNames() == null || doc.getDocumentCatalog().getNames().getJavaScript() == null).isTrue();
        }
    }

    /** No independent reader of {@code pdf} holds the word in any form. */
    static String assertGone(Path pdf) throws Exception {
        String word = HostileVectors.WORD;
        Independent.Run mutool = Independent.run("mutool", "draw", "-q", "-F", "txt", "-o", "-", pdf.toString());
        assertThat(mutool.exit()).isZero();
        assertThat(mutool.output().replaceAll("\\s+", "")).as("mutool").doesNotContainIgnoringCase(word);
        String text = Independent.pdftotext(pdf);
        assertThat(text.replaceAll("\\s+", "")).as("pdftotext").doesNotContainIgnoringCase(word);
        Path qdf = pdf.resolveSibling("out.qdf");
        Independent.Run q = Independent.run("qpdf", "--qdf", "--object-streams=disable", "--decode-level=all", pdf.toString(), qdf.toString());
        assertThat(q.exit()).as(q.output()).isIn(0, 3);
        String raw = new String(Files.readAllBytes(qdf), StandardCharsets.ISO_8859_1);
        String joined = raw.replaceAll("\\)\\s*-?[0-9.]*\\s*\\(", ""); // TJ pieces
        HexFormat hex = HexFormat.of();
        for (String form : List.of(word, hex.formatHex(word.getBytes(StandardCharsets.US_ASCII)),
                hex.formatHex(word.getBytes(StandardCharsets.UTF_16BE)), hex.formatHex(word.getBytes(StandardCharsets.UTF_16LE)),
                new String(word.getBytes(StandardCharsets.UTF_16BE), StandardCharsets.ISO_8859_1),
                new String(word.getBytes(StandardCharsets.UTF_16LE), StandardCharsets.ISO_8859_1))) {
            assertThat(joined).as("qpdf --qdf bytes").doesNotContainIgnoringCase(form);
        }
        return text;
    }
}
