package dev.docapi.operations.imagestopdf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

class ImagesToPdfTest extends ApiTestBase {

    @Test
    void jpegIsEmbeddedByteForByteAtItsSizeInPoints() throws Exception {
        String key = newKey();
        Path jpg = corpus("images/DA-1p.jpg"); // EXIF: orientation 1, 72 dpi
        JsonNode job = run(key, "images-to-pdf", Map.of("files", List.of(uploadId(key, jpg))));
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("DA-1p-images.pdf");
        Path out = downloadOutput(job, 0);
        assertSound(out, 1);
        BufferedImage decoded = ImageIO.read(jpg.toFile());
        try (PDDocument doc = Independent.pdfbox(out)) {
            PDPage page = doc.getPage(0);
            PDImageXObject img = onlyImage(page);
            assertThat(img.getCOSObject().getFilters()).isEqualTo(COSName.DCT_DECODE);
            assertThat(rawBytes(img)).isEqualTo(Files.readAllBytes(jpg));
            assertThat(page.getRotation()).isZero();
            assertThat(page.getMediaBox().getWidth()).isCloseTo(decoded.getWidth(), org.assertj.core.data.Offset.offset(0.01f));
            assertThat(page.getMediaBox().getHeight()).isCloseTo(decoded.getHeight(), org.assertj.core.data.Offset.offset(0.01f));
        }
        assertThat(Independent.run("pdfimages", "-list", out.toString()).output()).contains("jpeg");
    }

    @ParameterizedTest
    @CsvSource({"6, 90", "3, 180", "8, 270", "1, 0"})
    void exifOrientationBecomesPageRotationAndItsResolutionThePageSize(int orientation, int rotation) throws Exception {
        String key = newKey();
        Path jpg = withExif(corpus("images/DA-1p.jpg"), orientation, 300);
        Path out = downloadOutput(run(key, "images-to-pdf", Map.of("files", List.of(uploadId(key, jpg)))), 0);
        assertSound(out, 1);
        BufferedImage decoded = ImageIO.read(jpg.toFile());
        try (PDDocument doc = Independent.pdfbox(out)) {
            PDPage page = doc.getPage(0);
            assertThat(page.getRotation()).isEqualTo(rotation);
            assertThat(rawBytes(onlyImage(page))).isEqualTo(Files.readAllBytes(jpg));
            assertThat(page.getMediaBox().getWidth()).isCloseTo(decoded.getWidth() * 72f / 300, org.assertj.core.data.Offset.offset(0.01f));
            assertThat(page.getMediaBox().getHeight()).isCloseTo(decoded.getHeight() * 72f / 300, org.assertj.core.data.Offset.offset(0.01f));
        }
    }

    @Test
    void pngWebpAndTiffAreLosslessWithTheirAlphaInOrder() throws Exception {
        String key = newKey();
        List<Path> inputs = List.of(corpus("images/layout-parser-paper-fast.tiff"), corpus("images/DA-1p.png"), corpus("images/DA-1p.webp"),
                corpus("images/baiona-alpha.png"), corpus("images/phototest.tif"), corpus("images/smile-lzw.tiff"),
                corpus("images/english-and-korean.png"));
        List<String> ids = new ArrayList<>();
        for (Path p : inputs) ids.add(uploadId(key, p));
        JsonNode job = run(key, "images-to-pdf", Map.of("files", ids));
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("layout-parser-paper-fast-images.pdf");
        Path out = downloadOutput(job, 0);
        assertSound(out, inputs.size());
        try (PDDocument doc = Independent.pdfbox(out)) {
            for (int i = 0; i < inputs.size(); i++) {
                BufferedImage expected = ImageIO.read(inputs.get(i).toFile());
                PDPage page = doc.getPage(i);
                PDImageXObject img = onlyImage(page);
                assertThat(img.getCOSObject().getFilters()).as(inputs.get(i).toString()).isEqualTo(COSName.FLATE_DECODE);
                assertThat(img.getWidth()).isEqualTo(expected.getWidth());
                assertThat(img.getHeight()).isEqualTo(expected.getHeight());
                double aspect = page.getMediaBox().getWidth() / page.getMediaBox().getHeight();
                assertThat(aspect).isCloseTo((double) expected.getWidth() / expected.getHeight(), org.assertj.core.data.Offset.offset(0.01));
                assertSamePixels(inputs.get(i).getFileName().toString(), expected, img);
            }
        }
        // The RGBA TIFF and the RGBA PNGs carry soft masks, as poppler sees them.
        long smasks = Independent.run("pdfimages", "-list", out.toString()).output().lines().filter(l -> l.contains(" smask ")).count();
        long withAlpha = 0;
        for (Path p : inputs) if (ImageIO.read(p.toFile()).getColorModel().hasAlpha()) withAlpha++;
        assertThat(withAlpha).isGreaterThanOrEqualTo(2);
        assertThat(smasks).isEqualTo(withAlpha);
    }

    @Test
    void aMultiFrameTiffGivesOnePagePerFrame() throws Exception {
        String key = newKey();
        Path tiff = Files.createTempDirectory(DATA_DIR, "tiff-").resolve("two-frames.tiff");
        List<BufferedImage> frames = List.of(ImageIO.read(corpus("images/DA-1p.png").toFile()), ImageIO.read(corpus("images/baiona-alpha.png").toFile()));
        ImageWriter writer = ImageIO.getImageWritersByFormatName("tiff").next();
        try (ImageOutputStream ios = ImageIO.createImageOutputStream(tiff.toFile())) {
            writer.setOutput(ios);
            writer.prepareWriteSequence(null);
            for (BufferedImage f : frames) writer.writeToSequence(new IIOImage(f, null, null), null);
            writer.endWriteSequence();
        } finally {
            writer.dispose();
        }
        Path out = downloadOutput(run(key, "images-to-pdf", Map.of("files", List.of(uploadId(key, tiff), uploadId(key, corpus("images/DA-1p.jpg"))))), 0);
        assertSound(out, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertSamePixels("frame 1", frames.get(0), onlyImage(doc.getPage(0)));
            assertSamePixels("frame 2", frames.get(1), onlyImage(doc.getPage(1)));
            assertThat(onlyImage(doc.getPage(2)).getCOSObject().getFilters()).isEqualTo(COSName.DCT_DECODE);
        }
    }

    @Test
    void refusesAPdfMoreThan50ImagesAndTheSingularMember() {
        String key = newKey();
        String image = uploadId(key, corpus("images/DA-1p.png"));
        Response pdf = post(key, "/images-to-pdf", Map.of("files", List.of(image, uploadId(key, corpus("pdf-text/rotated-page-90.pdf")))));
        assertThat(pdf.status()).isEqualTo(400);
        assertThat(pdf.code()).isEqualTo("invalid_request");
        Response many = post(key, "/images-to-pdf", Map.of("files", Collections.nCopies(51, image)));
        assertThat(many.status()).isEqualTo(400);
        assertThat(many.code()).isEqualTo("invalid_request");
        Response none = post(key, "/images-to-pdf", Map.of("files", List.of()));
        assertThat(none.status()).isEqualTo(400);
        Response singular = post(key, "/images-to-pdf", Map.of("file", image));
        assertThat(singular.status()).isEqualTo(400);
        assertThat(singular.code()).isEqualTo("invalid_request");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    private static void assertSound(Path out, int pages) throws Exception {
        Independent.Run check = Independent.qpdfCheck(out);
        assertThat(check.exit()).as(check.output()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(pages);
        }
        assertThat(Independent.run("pdfinfo", out.toString()).output()).containsPattern("Pages:\\s+" + pages + "\\b");
        Independent.pdftotext(out); // poppler reads every page without error (the pages hold images only, no text)
    }

    private static PDImageXObject onlyImage(PDPage page) throws IOException {
        List<PDImageXObject> images = new ArrayList<>();
        for (COSName n : page.getResources().getXObjectNames()) {
            if (page.getResources().getXObject(n) instanceof PDImageXObject img) images.add(img);
        }
        assertThat(images).hasSize(1);
        return images.getFirst();
    }

    private static byte[] rawBytes(PDImageXObject img) throws IOException {
        try (InputStream in = img.getCOSObject().createRawInputStream()) {
            return in.readAllBytes();
        }
    }

    /**
     * Every pixel's colour, and its alpha (from the soft mask) when the input has alpha, equals the decoded input. Colour
     * is compared in sRGB; for an input with its own ICC profile (kept as ICCBased, so a reader's colour management
     * may round differently) the stored samples are compared with the input's un-premultiplied samples instead.
     */
    private static void assertSamePixels(String what, BufferedImage expected, PDImageXObject actual) throws IOException {
        if (!expected.getColorModel().getColorSpace().isCS_sRGB() && expected.getColorModel().getNumColorComponents() == 3) {
            assertSameSamples(what, expected, actual);
            return;
        }
        BufferedImage color = actual.getImage();
        PDImageXObject mask = actual.getSoftMask();
        boolean alpha = expected.getColorModel().hasAlpha();
        assertThat(mask != null).as("%s has a soft mask", what).isEqualTo(alpha);
        BufferedImage maskImage = mask == null ? null : mask.getImage();
        for (int y = 0; y < expected.getHeight(); y++) {
            for (int x = 0; x < expected.getWidth(); x++) {
                int e = expected.getRGB(x, y);
                int a = color.getRGB(x, y);
                if ((e & 0xFFFFFF) != (a & 0xFFFFFF) && !(alpha && (e >>> 24) == 0)) {
                    throw new AssertionError(what + ": pixel " + x + "," + y + " is " + Integer.toHexString(a) + ", input " + Integer.toHexString(e));
                }
                if (alpha && (maskImage.getRGB(x, y) & 0xFF) != (e >>> 24)) {
                    throw new AssertionError(what + ": alpha at " + x + "," + y + " is " + (maskImage.getRGB(x, y) & 0xFF) + ", input " + (e >>> 24));
                }
            }
        }
    }

    private static void assertSameSamples(String what, BufferedImage expected, PDImageXObject actual) throws IOException {
        assertThat(actual.getColorSpace().getName()).as(what).isEqualTo("ICCBased");
        expected.coerceData(false);
        var in = expected.getRaster();
        var stored = actual.getRawRaster();
        int[] e = new int[in.getNumBands()], a = new int[stored.getNumBands()];
        for (int y = 0; y < expected.getHeight(); y++) {
            for (int x = 0; x < expected.getWidth(); x++) {
                in.getPixel(x, y, e);
                stored.getPixel(x, y, a);
                boolean transparent = in.getNumBands() == 4 && e[3] == 0;
                if (!transparent && (e[0] != a[0] || e[1] != a[1] || e[2] != a[2])) {
                    throw new AssertionError(what + ": samples at " + x + "," + y + " are " + java.util.Arrays.toString(a) + ", input " + java.util.Arrays.toString(e));
                }
            }
        }
        if (expected.getColorModel().hasAlpha()) {
            var mask = actual.getSoftMask().getRawRaster();
            for (int y = 0; y < expected.getHeight(); y++) {
                for (int x = 0; x < expected.getWidth(); x++) {
                    if (mask.getSample(x, y, 0) != in.getSample(x, y, 3)) throw new AssertionError(what + ": alpha differs at " + x + "," + y);
                }
            }
        }
    }

    /** A copy of {@code jpeg} whose EXIF segment is replaced by one with {@code orientation} and {@code dpi}. */
    private static Path withExif(Path jpeg, int orientation, int dpi) throws IOException {
        byte[] in = Files.readAllBytes(jpeg);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(in, 0, 2); // SOI
        ByteBuffer tiff = ByteBuffer.allocate(8 + 2 + 4 * 12 + 4 + 16); // big-endian, as "MM"
        tiff.put(new byte[] {'M', 'M', 0, 42}).putInt(8).putShort((short) 4);
        tiff.putShort((short) 0x0112).putShort((short) 3).putInt(1).putShort((short) orientation).putShort((short) 0);
        tiff.putShort((short) 0x011A).putShort((short) 5).putInt(1).putInt(62);
        tiff.putShort((short) 0x011B).putShort((short) 5).putInt(1).putInt(70);
        tiff.putShort((short) 0x0128).putShort((short) 3).putInt(1).putShort((short) 2).putShort((short) 0);
        tiff.putInt(0).putInt(dpi).putInt(1).putInt(dpi).putInt(1);
        byte[] payload = ByteBuffer.allocate(6 + tiff.capacity()).put(new byte[] {'E', 'x', 'i', 'f', 0, 0}).put(tiff.array()).array();
        out.write(0xFF);
        out.write(0xE1);
        out.write((payload.length + 2) >> 8);
        out.write((payload.length + 2) & 0xFF);
        out.write(payload);
        int i = 2;
        // Drop the file's own APP1 segments; keep everything else byte for byte.
        while ((in[i] & 0xFF) == 0xFF && (in[i + 1] & 0xFF) == 0xE1) i += 2 + (((in[i + 2] & 0xFF) << 8) | (in[i + 3] & 0xFF));
        out.write(in, i, in.length - i);
        Path p = Files.createTempDirectory(DATA_DIR, "exif-").resolve("DA-1p-orientation-" + orientation + ".jpg");
        Files.write(p, out.toByteArray());
        return p;
    }
}
