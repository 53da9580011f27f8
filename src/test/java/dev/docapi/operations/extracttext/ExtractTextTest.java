package dev.docapi.operations.extracttext;

import static dev.docapi.support.ScanPdfs.imageOnlyPdf;
import static dev.docapi.support.ScanPdfs.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

@Heavy
class ExtractTextTest extends ApiTestBase {

    @Test
    void arabicScanIsOcrdInLogicalOrderWithinTheMeasuredErrorRate() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-scanned/arabic-paragraph-capr12-imageonly.pdf");
        String truth = Files.readString(corpus("pdf-scanned/arabic-paragraph-capr12.truth.txt"));
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, input), "wait", 300));

        String text = job.at("/output/text").asString();
        // Read with ara alone (the page's script is Arabic): measured 0.0011; with eng+ara it was 0.04. The same
        // text reversed (visual order) scores 0.77.
        assertThat(Cer.of(text, truth)).isLessThanOrEqualTo(0.005);
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
        // Measured 0.000 on this clean 12-point sample: a Latin page keeps eng+ara.
        assertThat(Cer.of(job.at("/output/text").asString(), truth)).isZero();
    }

    @Test
    void anArabicParagraphAtAnotherSizeIsReadWithArabicAlone() throws Exception {
        String key = newKey();
        BufferedImage paragraph = ImageIO.read(corpus("pdf-scanned/arabic-paragraph-capr12.png").toFile());
        Path smaller = Files.createTempDirectory("ocr-size").resolve("capr12-150.png");
        ImageIO.write(scaled(paragraph, 1.5), "png", smaller.toFile());
        String truth = Files.readString(corpus("pdf-scanned/arabic-paragraph-capr12.truth.txt"));
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, smaller), "wait", 300));
        // Raw tesseract at 150 %: 0.0026 with ara, 0.041 with eng+ara.
        assertThat(Cer.of(job.at("/output/text").asString(), truth)).isLessThanOrEqualTo(0.005);
    }

    @Test
    void aMixedArabicAndEnglishPageKeepsTheWordsOfBoth() throws Exception {
        String key = newKey();
        BufferedImage arabic = ImageIO.read(corpus("pdf-scanned/arabic-paragraph-capr12.png").toFile());
        BufferedImage english = scaled(ImageIO.read(corpus("images/phototest.tif").toFile()), 0.4);
        BufferedImage page = new BufferedImage(Math.max(arabic.getWidth(), english.getWidth()), arabic.getHeight() + english.getHeight(),
                BufferedImage.TYPE_BYTE_GRAY);
        Graphics2D g = page.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, page.getWidth(), page.getHeight());
        g.drawImage(arabic, 0, 0, null);
        g.drawImage(english, 0, arabic.getHeight(), null);
        g.dispose();
        Path mixed = Files.createTempDirectory("ocr-mixed").resolve("mixed.png");
        ImageIO.write(page, "png", mixed.toFile());
        // As a one-page scan, so the text-layer path (OCRmyPDF) reads it.
        Path pdf = mixed.resolveSibling("mixed.pdf");
        imageOnlyPdf(List.of(page), pdf);
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, pdf), "wait", 300));
        String text = job.at("/output/text").asString();
        assertThat(wordsFound(text, Files.readString(corpus("pdf-scanned/arabic-paragraph-capr12.truth.txt")))).isGreaterThan(0.9);
        assertThat(wordsFound(text, Files.readString(corpus("images/phototest.txt")))).isGreaterThan(0.9);
    }

    @Test
    void anArabicPageAndAnEnglishPageAreEachReadInTheirOwnLanguage() throws Exception {
        String key = newKey();
        Path pdf = Files.createTempDirectory("ocr-two").resolve("arabic-then-english.pdf");
        imageOnlyPdf(List.of(ImageIO.read(corpus("pdf-scanned/arabic-paragraph-capr12.png").toFile()),
                ImageIO.read(corpus("images/phototest.tif").toFile())), pdf);
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, pdf), "wait", 300));
        String[] pages = job.at("/output/text").asString().split("\f", -1);
        assertThat(pages).hasSize(2);
        // Two OCRmyPDF runs (ara, then eng+ara), one per page: each at its single-script accuracy. Raw
        // `ocrmypdf -l ara` reads this re-encoded Arabic page at 0.0095, `-l ara+eng` at 0.043.
        assertThat(Cer.of(pages[0], Files.readString(corpus("pdf-scanned/arabic-paragraph-capr12.truth.txt")))).isLessThan(0.015);
        assertThat(Cer.of(pages[1], Files.readString(corpus("images/phototest.txt")))).isZero();
    }

    /** The share of the truth's words that occur in {@code text}. */
    private static double wordsFound(String text, String truth) {
        Set<String> read = new HashSet<>(List.of(Cer.normalise(text).split(" ")));
        List<String> words = List.of(Cer.normalise(truth).split(" "));
        return (double) words.stream().filter(read::contains).count() / words.size();
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
    void bornDigitalArabicDrawnInVisualOrderComesInLogicalOrder() throws Exception {
        String key = newKey();
        // WeasyPrint draws the line right to left paragraph in visual order; pdftotext gave "يبيبَح" (letters reversed)
        JsonNode job = run(key, "extract-text", Map.of("file", uploadId(key, corpus("pdf-text/arabic-habibi.pdf")), "ocr", "never"));
        String text = job.at("/output/text").asString();
        assertThat(text).contains("حَبيبي habibi").doesNotContain("يبيبَح");
    }

    @Test
    void rotatedPagesAreReadAsTheirTextRuns() throws Exception {
        String key = newKey();
        JsonNode single = run(key, "extract-text", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf"))));
        assertThat(Cer.normalise(single.at("/output/text").asString())).isEqualTo("Hello World Test Text Second line of text here Rotated page fixture");
        JsonNode twenty = run(key, "extract-text", Map.of("file", uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf"))));
        String[] pages = twenty.at("/output/text").asString().split("\f", -1);
        assertThat(pages).hasSize(20);
        for (int p = 1; p <= 20; p++) assertThat(Cer.normalise(pages[p - 1])).as("page %d", p).isEqualTo("Original page " + p);
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
