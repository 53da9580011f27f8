package dev.docapi.operations.pagenumbers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class PageNumbersTest extends ApiTestBase {

    @ParameterizedTest
    @ValueSource(strings = {"bottom-right", "top-left", "top-center"})
    void numbersSitUprightInTheNamedVisualCornerOfRotatedPages(String position) throws Exception {
        String key = newKey();
        Path input = corpus("pdf-text/rotated-pages-20p.pdf");
        JsonNode job = run(key, "page-numbers", Map.of("file", uploadId(key, input), "position", position));

        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("rotated-pages-20p-numbered.pdf");
        Path out = downloadOutput(job, 0);
        assertSound(out, 20);
        PopplerWords words = PopplerWords.of(out);
        try (PDDocument in = Independent.pdfbox(input); PDDocument doc = Independent.pdfbox(out)) {
            for (int i = 0; i < 20; i++) {
                int rotation = doc.getPage(i).getRotation();
                assertThat(rotation).isEqualTo(in.getPage(i).getRotation());
                PopplerWords.Page page = words.pages().get(i).shown(rotation);
                PopplerWords.Word number = page.words().stream().filter(w -> isNumber(w, page, position)).findFirst().orElse(null);
                assertThat(number).as("page %d (rotation %d) has a number at %s: %s", i + 1, rotation, position, page.words()).isNotNull();
                assertThat(number.text()).isEqualTo(Integer.toString(i + 1));
                if (i < 9) assertThat(number.height()).as("a single upright digit is taller than wide").isGreaterThan(number.width());
                String label = Integer.toString(i + 1);
                // PDFBox may split the page's own rotated line into fragments, one of them the same digits: one match is ours.
                assertThat(shownAngles(doc, i + 1, t -> t.equals(label))).as("page %d text directions as shown", i + 1)
                        .anyMatch(a -> Math.abs(a) < 0.5);
                // The measure sees rotation: the page's own text, drawn unrotated in user space, is turned as shown.
                if (rotation != 0) assertThat(shownAngles(doc, i + 1, t -> t.matches(".*[A-Za-z].*"))).allMatch(a -> Math.abs(a) > 45);
            }
        }
        assertThat(Independent.pdftotext(out, 3, 3)).contains("Original page 3").contains("3");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bottom-right", "top-left"})
    void numbersLandInsideAnOffsetCropBoxOnRotatedPages(String position) throws Exception {
        // Derived from the rotated-pages file: every page's visible area is cropped to an off-centre window, so a
        // number placed by the MediaBox would fall outside what is shown.
        Path cropped = Files.createTempDirectory(DATA_DIR, "crop-").resolve("rotated-pages-cropped.pdf");
        try (PDDocument doc = Independent.pdfbox(corpus("pdf-text/rotated-pages-20p.pdf"))) {
            for (PDPage page : doc.getPages()) page.setCropBox(new PDRectangle(90, 140, 400, 560));
            doc.save(cropped.toFile());
        }
        String key = newKey();
        Path out = downloadOutput(run(key, "page-numbers", Map.of("file", uploadId(key, cropped), "position", position)), 0);
        assertSound(out, 20);
        List<BufferedImage> before = render(cropped), after = render(out);
        assertThat(after).hasSize(20);
        for (int i = 0; i < 20; i++) {
            BufferedImage img = after.get(i);
            assertThat(darkPixels(before.get(i), position)).as("page %d corner before", i + 1).isZero();
            assertThat(darkPixels(img, position)).as("page %d (%d x %d px shown) has ink in its %s corner", i + 1, img.getWidth(), img.getHeight(), position)
                    .isGreaterThan(5);
        }
    }

    @Test
    void defaultBottomCenterOnTheLinearizedBook() throws Exception {
        String key = newKey();
        Path out = downloadOutput(run(key, "page-numbers", Map.of("file", uploadId(key, corpus("pdf-text/geotopo-117p-linearized-links.pdf")))), 0);
        assertSound(out, 117);
        PopplerWords words = PopplerWords.of(out);
        for (int i : new int[] {0, 57, 116}) {
            PopplerWords.Page page = words.pages().get(i).shown(0);
            assertThat(page.words()).as("page %d", i + 1).anyMatch(w -> w.text().equals(Integer.toString(i + 1)) && isNumber(w, page, "bottom-center"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pdf-broken/bad-xref.pdf", "pdf-broken/damaged-stream.pdf", "pdf-broken/leading-junk-rc4.pdf",
            "pdf-broken/owner-password-copy-protected.pdf"})
    void brokenButRecoverableAndOwnerRestrictedPdfsAreNumbered(String file) throws Exception {
        String key = newKey();
        Path input = corpus(file);
        int pages = Integer.parseInt(Independent.run("qpdf", "--show-npages", input.toString()).output().strip());
        Path out = downloadOutput(run(key, "page-numbers", Map.of("file", uploadId(key, input), "position", "bottom-left")), 0);
        assertSound(out, pages);
        PopplerWords.Page last;
        try (PDDocument doc = Independent.pdfbox(out)) {
            last = PopplerWords.of(out).pages().get(pages - 1).shown(doc.getPage(pages - 1).getRotation());
        }
        assertThat(last.words()).anyMatch(w -> w.text().equals(Integer.toString(pages)) && isNumber(w, last, "bottom-left"));
    }

    @Test
    void anImageIsRefusedBeforeAnyJob() {
        String key = newKey();
        Response r = post(key, "/page-numbers", Map.of("file", uploadId(key, corpus("images/DA-1p.png"))));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    @Test
    void anUnknownPositionIsRefused() {
        String key = newKey();
        Response r = post(key, "/page-numbers", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "position", "middle"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(r.body().at("/error/message").asString()).contains("position");
    }

    /** Pages as poppler shows them (CropBox and /Rotate applied), at 150 dpi. */
    private static List<BufferedImage> render(Path pdf) throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "render-");
        Independent.Run r = Independent.run("pdftoppm", "-cropbox", "-r", "150", "-gray", "-png", pdf.toString(), dir.resolve("p").toString());
        assertThat(r.exit()).as(r.output()).isZero();
        List<BufferedImage> pages = new ArrayList<>();
        try (var files = Files.list(dir)) {
            for (Path p : files.sorted().toList()) pages.add(ImageIO.read(p.toFile()));
        }
        return pages;
    }

    /** Dark pixels in the outer 15% corner (or edge-centre band) of the shown page that {@code position} names. */
    private static int darkPixels(BufferedImage img, String position) {
        int w = img.getWidth(), h = img.getHeight(), n = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                boolean vertical = position.startsWith("top") ? y < h * 0.15 : y > h * 0.85;
                boolean horizontal = position.endsWith("left") ? x < w * 0.15 : x > w * 0.85;
                if (vertical && horizontal && (img.getRGB(x, y) & 0xFF) < 160) n++;
            }
        }
        return n;
    }

    static void assertSound(Path out, int pages) throws Exception {
        assertThat(Independent.qpdfCheck(out).exit()).as(Independent.qpdfCheck(out).output()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(pages);
        }
    }

    /** True when {@code w} lies in the band of the displayed page that {@code position} names (outer 12%). */
    private static boolean isNumber(PopplerWords.Word w, PopplerWords.Page page, String position) {
        double cx = (w.xMin() + w.xMax()) / 2 / page.width(), cy = (w.yMin() + w.yMax()) / 2 / page.height();
        boolean vertical = position.startsWith("top") ? cy < 0.12 : cy > 0.88;
        boolean horizontal = position.endsWith("left") ? cx < 0.12 : position.endsWith("right") ? cx > 0.88 : Math.abs(cx - 0.5) < 0.05;
        return w.text().matches("\\d+") && vertical && horizontal;
    }

    /** The direction (degrees, counter-clockwise) of each glyph of the strings matching {@code text} on page {@code pageNo} as displayed (PDFBox). */
    private static List<Double> shownAngles(PDDocument doc, int pageNo, java.util.function.Predicate<String> text) throws IOException {
        int rotation = doc.getPage(pageNo - 1).getRotation();
        List<Double> angles = new ArrayList<>();
        PDFTextStripper stripper = new PDFTextStripper() {
            @Override
            protected void writeString(String s, List<TextPosition> positions) {
                if (!text.test(s.strip())) return;
                for (TextPosition p : positions) {
                    // The text matrix is in user space; /Rotate turns the page clockwise, so a direction shows at
                    // (user angle - rotation), normalised here to [-180, 180).
                    double user = Math.toDegrees(Math.atan2(p.getTextMatrix().getShearY(), p.getTextMatrix().getScaleX()));
                    angles.add(((user - rotation) % 360 + 540) % 360 - 180);
                }
            }
        };
        stripper.setStartPage(pageNo);
        stripper.setEndPage(pageNo);
        stripper.getText(doc);
        assertThat(angles).as("PDFBox finds the text on page %d", pageNo).isNotEmpty();
        return angles;
    }
}
