package dev.docapi.operations.compress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

@Heavy
class CompressTest extends ApiTestBase {

    @Test
    void targetMbIsReachedOnAMixedScanWithPagesAndTextLayerKept() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-scanned/multipage-6p-mixed.pdf");
        JsonNode job = run(key, "compress", Map.of("file", uploadId(key, input), "target_mb", 0.5, "wait", 300));

        Path out = downloadOutput(job, 0);
        assertThat(Files.size(out)).isLessThanOrEqualTo(500_000L);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(6);
        }
        // Page 4 is the page with a text layer: its words survive the rewrite.
        assertThat(words(Independent.pdftotext(out, 4, 4))).containsAll(words(Independent.pdftotext(input, 4, 4)));
        String note = job.at("/output/note").asString();
        assertThat(note).contains("1.14 MB").contains("Target 0.50 MB reached").contains("dpi");
    }

    @Test
    void aTargetThatCannotBeReachedGivesTheSmallestResultAndSaysSo() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-scanned/multipage-6p-mixed.pdf");
        JsonNode job = run(key, "compress", Map.of("file", uploadId(key, input), "target_mb", 0.05, "wait", 300));

        Path out = downloadOutput(job, 0);
        assertThat(Files.size(out)).isGreaterThan(50_000L).isLessThan(Files.size(input));
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        assertThat(job.at("/output/note").asString()).contains("Target 0.050 MB not reached").contains("smallest");
    }

    @Test
    void levelEbookShrinksABornDigitalPaperAndKeepsItsText() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-text/two-column-paper-2p.pdf");
        JsonNode job = run(key, "compress", Map.of("file", uploadId(key, input), "wait", 300));

        Path out = downloadOutput(job, 0);
        assertThat(Files.size(out)).isLessThan(Files.size(input));
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        Set<String> before = words(Independent.pdftotext(input));
        Set<String> after = words(Independent.pdftotext(out));
        long kept = before.stream().filter(after::contains).count();
        assertThat((double) kept / before.size()).isGreaterThan(0.98);
        // Ghostscript's 'ebook' result drops most of the paper's links, so the lossless rewrite wins and the note says why
        assertThat(job.at("/output/note").asString()).contains("'ebook' preset was refused").contains("Link annotations").contains("0.19 MB");
    }

    @Test
    void compressingACompressedFileAgainReturnsItUnchangedNeverLarger() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-text/annotations-text-highlight-ink.pdf");
        JsonNode first = run(key, "compress", Map.of("file", uploadId(key, input), "level", "screen", "wait", 300));
        Path once = downloadOutput(first, 0);
        // Ghostscript makes this tiny file larger; the lossless rewrite is the smaller choice.
        assertThat(Files.size(once)).isLessThan(Files.size(input));
        assertThat(first.at("/output/note").asString()).contains("lossless");

        JsonNode second = run(key, "compress", Map.of("file", first.at("/output/files/0/id").asString(), "level", "screen", "wait", 300));
        Path twice = downloadOutput(second, 0);
        assertThat(Files.readAllBytes(twice)).isEqualTo(Files.readAllBytes(once));
        assertThat(second.at("/output/note").asString()).startsWith("Returned the input unchanged");
    }

    @Test
    void progressCountsLadderStepsWhileTheJobRuns() throws Exception {
        String key = newKey();
        Response started = post(key, "/compress", Map.of("file", uploadId(key, corpus("pdf-scanned/multipage-6p-mixed.pdf")), "target_mb", 0.3, "wait", 0));
        assertThat(started.status()).isEqualTo(202);
        String id = started.body().get("id").asString();
        java.util.List<JsonNode> seen = new java.util.ArrayList<>();
        JsonNode job = started.body();
        long deadline = System.currentTimeMillis() + 300_000;
        while (!job.get("status").asString().equals("succeeded") && !job.get("status").asString().equals("failed")
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(150);
            job = get(key, "/jobs/" + id).body();
            if (job.has("progress")) seen.add(job.get("progress"));
        }
        assertThat(job.get("status").asString()).isEqualTo("succeeded");
        assertThat(seen).isNotEmpty();
        for (JsonNode p : seen) {
            assertThat(p.get("unit").asString()).isEqualTo("steps");
            assertThat(p.get("done").asInt()).isBetween(0, p.get("total").asInt());
        }
        assertThat(seen.stream().map(p -> p.get("done").asInt()).distinct().count()).isGreaterThan(1);
    }

    @Test
    void anEncryptedPdfIsRefusedBeforeAnyJob() {
        String key = newKey();
        Response r = post(key, "/compress", Map.of("file", uploadId(key, corpus("pdf-broken/encrypted-user-password.pdf")), "target_mb", 1));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    @Test
    void aTargetOutsideTheSpecRangeOrAnUnknownLevelIsRefused() {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        assertThat(post(key, "/compress", Map.of("file", id, "target_mb", 0.01)).status()).isEqualTo(400);
        assertThat(post(key, "/compress", Map.of("file", id, "target_mb", 501)).status()).isEqualTo(400);
        Response r = post(key, "/compress", Map.of("file", id, "level", "tiny"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
    }

    static Set<String> words(String text) {
        return Arrays.stream(text.split("\\s+")).filter(w -> w.length() > 2).collect(Collectors.toSet());
    }
}
