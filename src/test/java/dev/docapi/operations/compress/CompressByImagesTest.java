package dev.docapi.operations.compress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Compress by images (issue 25 item 1): at a level, the images are downsampled and re-encoded in place and the rest
 * of the document is kept, so the result is as small as Ghostscript's preset (within 5 %) with every word still
 * extracting; bi-level scans stay bi-level; and a readable PDF never gets a 5xx: a signed one comes back unchanged,
 * one with an xref /Prev loop comes back with a note. Checked with gs, PDFBox, qpdf and pdftotext run here.
 */
@Heavy
class CompressByImagesTest extends ApiTestBase {
    private static final Path MIXED_SCAN = corpus("pdf-scanned/multipage-6p-mixed.pdf");

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"screen", "ebook"})
    void aMixedScanIsAsSmallAsGhostscriptsPresetWithEveryWordKept(String level) throws Exception {
        String key = newKey();
        JsonNode job = run(key, "compress", Map.of("file", uploadId(key, MIXED_SCAN), "level", level, "wait", 300));
        Path out = downloadOutput(job, 0);

        Path gs = tmp.resolve("gs-" + level + ".pdf");
        Independent.Run r = Independent.run("gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pdfwrite", "-dPDFSETTINGS=/" + level,
                "-sOutputFile=" + gs, MIXED_SCAN.toString());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat((double) Files.size(out)).as("size against gs /" + level + " (%d bytes)", Files.size(gs))
                .isLessThanOrEqualTo(1.05 * Files.size(gs));
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        assertThat(words(Independent.pdftotext(out))).isEqualTo(words(Independent.pdftotext(MIXED_SCAN)));
        String note = job.at("/output/note").asString();
        assertThat(note).contains("images re-encoded").doesNotContain("refused");
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(6);
            // Page 2 draws a 9000 × 9000 image on a 30-inch page (300 ppi): at most the level's resolution now.
            int maxWidth = level.equals("screen") ? 72 * 30 : 150 * 30;
            assertThat(images(doc.getPage(1))).isNotEmpty().allSatisfy(i -> assertThat(i.getWidth()).isLessThanOrEqualTo(maxWidth));
        }
    }

    @Test
    void aTargetOnAScanIsReachedByImagesWithNothingRefused() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "compress", Map.of("file", uploadId(key, MIXED_SCAN), "target_mb", 0.3, "wait", 300));
        Path out = downloadOutput(job, 0);

        assertThat(Files.size(out)).isLessThanOrEqualTo(300_000L);
        assertThat(words(Independent.pdftotext(out))).isEqualTo(words(Independent.pdftotext(MIXED_SCAN)));
        assertThat(job.at("/output/note").asString()).contains("Target 0.30 MB reached").contains("images re-encoded").doesNotContain("refused");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pdf-scanned/ccitt-g4-pdf11.pdf", "pdf-scanned/english-skewed-brochure.pdf"})
    void aBilevelScanStaysBilevel(String file) throws Exception {
        Path input = corpus(file);
        String key = newKey();
        JsonNode job = run(key, "compress", Map.of("file", uploadId(key, input), "level", "screen", "wait", 300));
        Path out = downloadOutput(job, 0);

        assertThat(Files.size(out)).isLessThanOrEqualTo(Files.size(input));
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(images(doc.getPage(0))).isNotEmpty().allSatisfy(i -> {
                assertThat(i.getBitsPerComponent()).isEqualTo(1);
                assertThat(i.getWidth()).isGreaterThanOrEqualTo(2550); // 300 dpi kept: scanned text stays readable
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"level", "target_mb"})
    void aSignedPdfComesBackUnchangedWithANote(String option) throws Exception {
        Path signed = signed(corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        String key = newKey();
        Object value = option.equals("level") ? "screen" : (Object) 0.05;
        JsonNode job = run(key, "compress", Map.of("file", uploadId(key, signed), option, value, "wait", 300));

        assertThat(job.get("status").asString()).isEqualTo("succeeded");
        assertThat(Files.readAllBytes(downloadOutput(job, 0))).isEqualTo(Files.readAllBytes(signed));
        assertThat(job.at("/output/note").asString()).startsWith("Returned the input unchanged").contains("invalidate its signature");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pdf-scanned/multipage-6p-mixed.pdf", "pdf-text/wkhtmltopdf-link-pdf14.pdf"})
    void aPdfWithAnXrefPrevLoopIsCompressedOrReturnedWithANote(String file) throws Exception {
        Path looped = prevLoop(corpus(file));
        // poppler may refuse the looped file itself: the words to keep are the original's
        Map<String, Integer> before = words(Independent.pdftotext(corpus(file)));
        assertThat(Independent.qpdfCheck(looped).output()).contains("loop");
        for (String level : List.of("screen", "ebook")) {
            String key = newKey();
            JsonNode job = run(key, "compress", Map.of("file", uploadId(key, looped), "level", level, "wait", 300));
            assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("succeeded");
            Path out = downloadOutput(job, 0);
            assertThat(Files.size(out)).isLessThanOrEqualTo(Files.size(looped));
            assertThat(words(Independent.pdftotext(out))).isEqualTo(before);
            assertThat(job.at("/output/note").asString()).isNotBlank();
        }
    }

    /** A copy of {@code pdf}, linearized by qpdf, then signed by PDFBox in an incremental update (a dummy PKCS#7 blob). */
    private Path signed(Path pdf) throws Exception {
        Path linear = tmp.resolve("linear.pdf");
        assertThat(Independent.run("qpdf", "--linearize", pdf.toString(), linear.toString()).exit()).isIn(0, 3);
        Path out = tmp.resolve("signed.pdf");
        try (PDDocument doc = Independent.pdfbox(linear); OutputStream o = Files.newOutputStream(out)) {
            PDSignature sig = new PDSignature();
            sig.setFilter(PDSignature.FILTER_ADOBE_PPKLITE);
            sig.setSubFilter(PDSignature.SUBFILTER_ADBE_PKCS7_DETACHED);
            sig.setName("docapi test");
            sig.setSignDate(Calendar.getInstance());
            doc.addSignature(sig, content -> {
                content.readAllBytes();
                return new byte[] {0x30, 0x03, 0x02, 0x01, 0x01};
            });
            doc.saveIncremental(o);
        }
        return out;
    }

    /** {@code pdf} with an incremental update whose cross-reference section names itself as /Prev: readers loop, then rebuild. */
    private Path prevLoop(Path pdf) throws Exception {
        Path out = tmp.resolve("loop-" + pdf.getFileName());
        Files.copy(pdf, out);
        String root;
        long size;
        try (PDDocument doc = Independent.pdfbox(pdf)) {
            COSObject r = (COSObject) doc.getDocument().getTrailer().getItem(COSName.ROOT);
            root = r.getObjectNumber() + " " + r.getGenerationNumber() + " R";
            size = doc.getDocument().getHighestXRefObjectNumber() + 1;
        }
        long at = Files.size(out) + 1;
        String update = "\nxref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size " + size + " /Root " + root + " /Prev " + at + " >>\nstartxref\n" + at + "\n%%EOF\n";
        Files.writeString(out, update, StandardCharsets.ISO_8859_1, StandardOpenOption.APPEND);
        return out;
    }

    private static List<PDImageXObject> images(PDPage page) throws Exception {
        List<PDImageXObject> found = new ArrayList<>();
        for (COSName n : page.getResources().getXObjectNames()) {
            if (page.getResources().getXObject(n) instanceof PDImageXObject i) found.add(i);
        }
        return found;
    }

    /** The words pdftotext reads, as a multiset. */
    private static Map<String, Integer> words(String text) {
        Map<String, Integer> m = new HashMap<>();
        Arrays.stream(text.split("\\s+")).filter(w -> !w.isEmpty()).forEach(w -> m.merge(w, 1, Integer::sum));
        return m;
    }
}
