package dev.docapi.operations.ocr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import dev.docapi.support.ScanPdfs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class OcrTest extends ApiTestBase {

    @Test
    void aSidewaysSkewedScanGainsAnUprightTextLayerAndKeepsItsImage() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-scanned/english-rotate90-skewed.pdf");
        assertThat(Independent.pdftotext(input).strip()).isEmpty();
        JsonNode job = run(key, "ocr", Map.of("file", uploadId(key, input), "wait", 300));

        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("english-rotate90-skewed-ocr.pdf");
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        String text = Independent.pdftotext(out);
        // Read as upright words: the page was turned and straightened before recognition.
        assertThat(text).contains("LinnSequencer").contains("MIDI").contains("musician");
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(1);
            PDPage page = doc.getPage(0);
            boolean hasImage = false;
            for (COSName n : page.getResources().getXObjectNames()) {
                if (page.getResources().isImageXObject(n)) hasImage = true;
                else if (page.getResources().getXObject(n) instanceof org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject form) {
                    for (COSName inner : form.getResources().getXObjectNames()) hasImage |= form.getResources().isImageXObject(inner);
                }
            }
            assertThat(hasImage).isTrue();
        }
        assertThat(job.at("/output/note").asString()).contains("OCR'd 1 of 1 page");
    }

    /**
     * OCRmyPDF turns a page only when Tesseract's guess of its orientation is confident, which it never is on a page of
     * a few lines (Docling's one-line OCR test page: 2.2-2.8 of the 14 needed): such a page upside down was read as
     * noise, on its side as a column of letters. Now read upright, turned in the output as OCRmyPDF turns a page.
     */
    @Test
    void aPageOfAFewLinesUpsideDownOrOnItsSideIsTurnedAndReadUpright() throws Exception {
        List<String> note = List.of("Please return the signed form to the office", "before the end of next month.");
        Path dir = Files.createTempDirectory(DATA_DIR, "turned-");
        Path upright = dir.resolve("upright.pdf");
        Path input = dir.resolve("turned-note.pdf");
        ScanPdfs.imageOnlyPdf(List.of(ScanPdfs.fewLines(note, 2), ScanPdfs.fewLines(note, 0)), upright);
        try (PDDocument doc = Independent.pdfbox(upright)) {
            doc.getPage(1).setRotation(270); // shown with its top pointing left
            doc.save(input.toFile());
        }
        String key = newKey();
        JsonNode job = run(key, "ocr", Map.of("file", uploadId(key, input), "wait", 300));
        assertThat(job.get("status").asString()).isEqualTo("succeeded");

        Path out = downloadOutput(job, 0);
        for (int page = 1; page <= 2; page++) {
            assertThat(Independent.pdftotext(out, page, page).replaceAll("\\s+", " ")).as("page " + page)
                    .contains("return the signed form to the office").contains("end of next month");
        }
        // as a viewer shows it: poppler renders each page, Tesseract reads the picture upright
        for (int page = 1; page <= 2; page++) {
            Path shown = dir.resolve("shown-" + page);
            Independent.run("pdftoppm", "-gray", "-r", "100", "-f", "" + page, "-l", "" + page, "-singlefile", out.toString(), shown.toString());
            assertThat(Independent.run("tesseract", shown + ".pgm", "-", "--psm", "3").output()).as("page " + page + " as shown")
                    .contains("signed form");
        }
    }

    @Test
    void anArabicPageAndAnEnglishPageBothGainATextLayer() throws Exception {
        String key = newKey();
        Path input = Files.createTempDirectory("ocr-two").resolve("arabic-then-english.pdf");
        ScanPdfs.imageOnlyPdf(List.of(ImageIO.read(corpus("pdf-scanned/arabic-paragraph-capr12.png").toFile()),
                ImageIO.read(corpus("images/phototest.tif").toFile())), input);
        JsonNode job = run(key, "ocr", Map.of("file", uploadId(key, input), "wait", 300));
        Path out = downloadOutput(job, 0);
        // Two OCRmyPDF runs, one per language order (ara, then eng+ara), the second on the first's output.
        long arabicLetters = Independent.pdftotext(out, 1, 1).codePoints()
                .filter(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.ARABIC && Character.isLetter(c)).count();
        long truthLetters = Files.readString(corpus("pdf-scanned/arabic-paragraph-capr12.truth.txt")).codePoints()
                .filter(Character::isLetter).count();
        assertThat(arabicLetters).isBetween(truthLetters * 9 / 10, truthLetters * 11 / 10);
        assertThat(Independent.pdftotext(out, 2, 2)).contains("The quick brown dog jumped over the");
        assertThat(job.at("/output/note").asString()).contains("OCR'd 2 of 2 page");
    }

    @Test
    void aBornDigitalPdfKeepsItsTextLayer() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-text/arabic-habibi.pdf");
        JsonNode job = run(key, "ocr", Map.of("file", uploadId(key, input), "wait", 300));
        Path out = downloadOutput(job, 0);
        assertThat(Files.mismatch(out, input)).isEqualTo(-1L);
        assertThat(job.at("/output/note").asString()).contains("already had a text layer").contains("unchanged");
    }

    @Test
    void aPdfWithOwnerRestrictionsOnlyIsProcessedNotRefused() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-broken/owner-password-copy-protected.pdf");
        JsonNode job = run(key, "ocr", Map.of("file", uploadId(key, input), "wait", 300));
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        assertThat(Independent.pdftotext(out)).contains("LayoutParser");
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(2);
        }
    }

    @Test
    void anEncryptedPdfIsRefusedBeforeAnyJob() {
        String key = newKey();
        Response r = post(key, "/ocr", Map.of("file", uploadId(key, corpus("pdf-broken/encrypted-aes256-R6-user-view.pdf"))));
        assertThat(r.status()).isEqualTo(400);
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }
}
