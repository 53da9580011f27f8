package dev.docapi.operations.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.IOException;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;
import org.apache.pdfbox.pdmodel.graphics.state.PDExtendedGraphicsState;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class WatermarkTest extends ApiTestBase {
    private static final String ARABIC = "سري للغاية";

    @Test
    void latinWatermarkOnEveryPageOfTheLinearizedBookIsExtractableAndTransparent() throws Exception {
        String key = newKey();
        String text = "CONFIDENTIAL DRAFT";
        JsonNode job = run(key, "watermark", Map.of("file", uploadId(key, corpus("pdf-text/geotopo-117p-linearized-links.pdf")), "text", text));
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("geotopo-117p-linearized-links-watermarked.pdf");
        Path out = downloadOutput(job, 0);
        assertSound(out, 117);
        String all = Independent.pdftotext(out);
        assertThat(occurrences(flat(all), flat(text))).isEqualTo(117);
        // The page's own text is still there.
        List<String> ownLines = Independent.pdftotext(corpus("pdf-text/geotopo-117p-linearized-links.pdf"), 50, 50).lines()
                .filter(l -> l.strip().length() > 20).limit(5).toList();
        assertThat(ownLines).hasSize(5);
        assertThat(Independent.pdftotext(out, 50, 50)).contains(ownLines);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(alphas(doc.getPage(0))).contains(0.3f);
        }
        assertThat(Independent.run("pdffonts", out.toString()).output()).containsPattern("DejaVuSans\\s+CID TrueType\\s+Identity-H\\s+yes yes yes");
    }

    @Test
    void arabicIsShapedAndReadsInLogicalOrder() throws Exception {
        String key = newKey();
        Path out = downloadOutput(run(key, "watermark", Map.of("file", uploadId(key, corpus("pdf-text/arabic-habibi.pdf")), "text", ARABIC)), 0);
        assertSound(out, 1);
        String raw = Independent.pdftotext(out);
        // Drawn as contextual presentation forms (proof of shaping): e.g. the initial form of seen, U+FEB3.
        assertThat(raw).contains("\uFEB3");
        // Read back in logical order once presentation forms are normalised (NFKC): pdftotext reverses the visual run
        // it finds, so this holds only if the drawn run is the exact mirror of the typed text.
        assertThat(Normalizer.normalize(raw, Normalizer.Form.NFKC)).contains(ARABIC);
        assertThat(Normalizer.normalize(raw, Normalizer.Form.NFKC)).contains("habibi");
    }

    @Test
    void mixedScriptsFallBackToFontsThatHaveTheirGlyphs() throws Exception {
        String key = newKey();
        String text = "机密 Confidential Секретно Ελληνικά " + ARABIC;
        Path out = downloadOutput(run(key, "watermark", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "text", text)), 0);
        assertSound(out, 1);
        String extracted = Normalizer.normalize(Independent.pdftotext(out), Normalizer.Form.NFKC);
        for (String part : List.of("机密", "Confidential", "Секретно", "Ελληνικά", ARABIC)) assertThat(extracted).contains(part);
        String fonts = Independent.run("pdffonts", out.toString()).output();
        // CJK comes from a second, embedded font (DejaVu Sans has no Han glyphs).
        assertThat(fonts.lines().filter(l -> l.contains("CID TrueType") && l.contains("yes yes yes")).count()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void watermarkIsUprightAndDiagonalOnRotatedPages() throws Exception {
        String key = newKey();
        Path out = downloadOutput(run(key, "watermark", Map.of("file", uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf")), "text", "SAMPLE")), 0);
        assertSound(out, 20);
        try (PDDocument doc = Independent.pdfbox(out)) {
            for (int i = 0; i < 20; i++) {
                PDPage page = doc.getPage(i);
                boolean turned = page.getRotation() % 180 != 0;
                double w = turned ? page.getCropBox().getHeight() : page.getCropBox().getWidth();
                double h = turned ? page.getCropBox().getWidth() : page.getCropBox().getHeight();
                double expected = Math.toDegrees(Math.atan2(h, w));
                List<Double> angles = shownAngles(doc, i + 1, "SAMPLE");
                assertThat(angles).as("page %d (rotation %d)", i + 1, page.getRotation())
                        .isNotEmpty().allMatch(a -> Math.abs(a - expected) < 0.5);
            }
        }
        assertThat(Independent.pdftotext(out, 14, 14)).contains("SAMPLE").contains("Original page 14");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pdf-broken/bad-xref.pdf", "pdf-broken/damaged-stream.pdf", "pdf-broken/leading-junk-rc4.pdf",
            "pdf-broken/owner-password-copy-protected.pdf"})
    void brokenButRecoverableAndOwnerRestrictedPdfsAreWatermarked(String file) throws Exception {
        String key = newKey();
        Path input = corpus(file);
        int pages = Integer.parseInt(Independent.run("qpdf", "--show-npages", input.toString()).output().strip());
        Path out = downloadOutput(run(key, "watermark", Map.of("file", uploadId(key, input), "text", "Copie " + ARABIC)), 0);
        assertSound(out, pages);
        String text = Normalizer.normalize(Independent.pdftotext(out, pages, pages), Normalizer.Form.NFKC);
        assertThat(text).contains("Copie").contains(ARABIC);
    }

    @Test
    void textOfMoreThan120CharactersIsRefused() {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        Response r = post(key, "/watermark", Map.of("file", file, "text", "x".repeat(121)));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(r.body().at("/error/message").asString()).contains("text").contains("120");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
        // 120 characters (code points) is the limit itself, in Arabic too.
        assertThat(post(key, "/watermark", Map.of("file", file, "text", "ش".repeat(120))).status()).isEqualTo(200);
    }

    @Test
    void aCharacterNoFontCanDrawIsRefusedByName() {
        String key = newKey();
        Response r = post(key, "/watermark", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "text", "ok \u0378"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(r.body().at("/error/message").asString()).contains("U+0378");
    }

    @Test
    void missingTextAndAnImageAreRefused() {
        String key = newKey();
        Response missing = post(key, "/watermark", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf"))));
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.code()).isEqualTo("invalid_request");
        Response image = post(key, "/watermark", Map.of("file", uploadId(key, corpus("images/DA-1p.jpg")), "text", "x"));
        assertThat(image.status()).isEqualTo(400);
        assertThat(image.code()).isEqualTo("invalid_request");
    }

    private static void assertSound(Path out, int pages) throws Exception {
        Independent.Run check = Independent.qpdfCheck(out);
        assertThat(check.exit()).as(check.output()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(pages);
        }
    }

    /** Fill opacities set by the page and by the forms it draws. */
    private static List<Float> alphas(PDPage page) throws IOException {
        return alphas(page.getResources());
    }

    private static List<Float> alphas(PDResources res) throws IOException {
        List<Float> out = new ArrayList<>();
        if (res == null) return out;
        for (COSName name : res.getExtGStateNames()) {
            PDExtendedGraphicsState gs = res.getExtGState(name);
            if (gs.getNonStrokingAlphaConstant() != null) out.add(gs.getNonStrokingAlphaConstant());
        }
        for (COSName name : res.getXObjectNames()) {
            if (res.getXObject(name) instanceof PDFormXObject form) out.addAll(alphas(form.getResources()));
        }
        return out;
    }

    private static String flat(String s) {
        return s.replaceAll("\\s+", "");
    }

    private static int occurrences(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) n++;
        return n;
    }

    /** Displayed direction (degrees counter-clockwise) of each glyph of strings containing {@code text} (PDFBox). */
    private static List<Double> shownAngles(PDDocument doc, int pageNo, String text) throws IOException {
        int rotation = doc.getPage(pageNo - 1).getRotation();
        List<Double> angles = new ArrayList<>();
        PDFTextStripper stripper = new PDFTextStripper() {
            @Override
            protected void writeString(String s, List<TextPosition> positions) {
                for (TextPosition p : positions) {
                    if (!text.contains(p.getUnicode()) || p.getUnicode().isBlank()) continue;
                    double user = Math.toDegrees(Math.atan2(p.getTextMatrix().getShearY(), p.getTextMatrix().getScaleX()));
                    double shown = ((user - rotation) % 360 + 540) % 360 - 180;
                    if (Math.abs(shown) > 1) angles.add(shown); // the page's own upright text is not the watermark
                }
            }
        };
        stripper.setStartPage(pageNo);
        stripper.setEndPage(pageNo);
        stripper.getText(doc);
        return angles;
    }
}
