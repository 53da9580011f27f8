package dev.docapi.operations.extracttext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ExtractTextTest extends ApiTestBase {

    @Test
    void arabicScanIsOcrdInLogicalOrderWithinTheMeasuredErrorRate() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-scanned/arabic-paragraph-capr12-imageonly.pdf");
        String truth = Files.readString(corpus("pdf-scanned/arabic-paragraph-capr12.truth.txt"));
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, input), "wait", 300));

        String text = job.at("/output/text").asString();
        // Measured 0.04 with Tesseract 5.3 eng+ara; the same text reversed (visual order) scores 0.77.
        assertThat(Cer.of(text, truth)).isLessThan(0.10);
        assertThat(Cer.of(new StringBuilder(text).reverse().toString(), truth)).isGreaterThan(0.5);
        Path txt = downloadOutput(job, 0);
        assertThat(txt.getFileName().toString()).isEqualTo("arabic-paragraph-capr12-imageonly-text.txt");
        assertThat(Files.readString(txt, StandardCharsets.UTF_8)).isEqualTo(text);
    }

    @Test
    void anImageIsOcrdDirectly() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, corpus("images/phototest.tif")), "wait", 300));
        String truth = Files.readString(corpus("images/phototest.txt"));
        // Measured 0.00 on this clean 12-point sample.
        assertThat(Cer.of(job.at("/output/text").asString(), truth)).isLessThan(0.03);
    }

    @Test
    void autoReadsTheTextLayerOfABornDigitalPdfWithoutOcr() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-text/pdflatex-4-pages-objstm.pdf");
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, input), "wait", 300));
        String text = job.at("/output/text").asString();
        String independent = Independent.pdftotext(input);
        assertThat(Cer.of(text, independent)).isLessThan(0.001);
        assertThat(text.split("\f")).hasSize(4);
    }

    @Test
    void neverOnAScanGivesNoTextAndNeverOnAnImageIsRefused() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, corpus("pdf-scanned/ccitt-g4-pdf11.pdf")), "ocr", "never", "wait", 300));
        assertThat(job.at("/output/text").asString()).isBlank();

        Response r = post(key, "/extract-text", Map.of("file", uploadId(key, corpus("images/phototest.tif")), "ocr", "never"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
    }

    @Test
    void anUnknownOcrModeIsRefused() {
        String key = newKey();
        Response r = post(key, "/extract-text", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "ocr", "sometimes"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
    }
}
