package dev.docapi.engines.pdfbox;

import com.twelvemonkeys.imageio.metadata.CompoundDirectory;
import com.twelvemonkeys.imageio.metadata.Directory;
import com.twelvemonkeys.imageio.metadata.Entry;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEG;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEGSegment;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEGSegmentUtil;
import com.twelvemonkeys.imageio.metadata.tiff.TIFF;
import com.twelvemonkeys.imageio.metadata.tiff.TIFFReader;
import dev.docapi.engines.EngineFailure;
import java.awt.image.BufferedImage;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntConsumer;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.metadata.IIOMetadataNode;
import javax.imageio.stream.ImageInputStream;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.JPEGFactory;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.util.Matrix;
import org.springframework.stereotype.Component;
import org.w3c.dom.NodeList;

/**
 * Turns images into PDF pages (spec §4.4 {@code images-to-pdf}; also {@code convert} image → pdf): one page per image,
 * one per frame of a multi-frame TIFF, each page the size of its image.
 *
 * <ul>
 *   <li>Page size: pixels × 72 / DPI, from the image's resolution metadata (JFIF density or EXIF X/YResolution for
 *       JPEG; the standard ImageIO metadata of PNG pHYs, TIFF, ...) when present and plausible (10-10,000 dpi), else
 *       72 dpi, so 1 pixel = 1 point. Pages larger than the PDF limit of 14,400 points are scaled down to fit.</li>
 *   <li>JPEG: the file's bytes become the image stream unchanged ({@code DCTDecode}, no recompression). Its EXIF
 *       orientation is shown with the page's {@code /Rotate}; mirrored orientations also flip the drawing.</li>
 *   <li>PNG, WebP, TIFF (and anything else ImageIO decodes): decoded and stored losslessly (Flate), alpha as a soft
 *       mask.</li>
 * </ul>
 */
@Component
public class ImagePdfWriter {
    /** The largest page side a PDF allows, in points (ISO 32000-1 Annex C, without UserUnit). */
    static final float MAX_SIDE = 14_400f;

    /** An input image and the name to use in error messages. */
    public record Source(Path path, String name) {
    }

    /**
     * Writes all {@code images}, in order, into a new PDF at {@code out} (atomically).
     *
     * @param imagesDone receives the number of images written so far, after each
     * @return the number of pages written
     * @throws EngineFailure {@code INVALID_INPUT} naming an image that cannot be decoded
     */
    public int write(List<Source> images, Path out, IntConsumer imagesDone) throws IOException, EngineFailure {
        try (PDDocument doc = new PDDocument(IOUtils.createTempFileOnlyStreamCache())) {
            int done = 0;
            for (Source image : images) {
                addPages(doc, image);
                imagesDone.accept(++done);
            }
            PdfBox.save(doc, out);
            return doc.getNumberOfPages();
        }
    }

    /**
     * Appends the page(s) of one image to {@code doc}.
     *
     * @throws EngineFailure {@code INVALID_INPUT} when the image cannot be decoded
     */
    public void addPages(PDDocument doc, Source image) throws IOException, EngineFailure {
        try {
            if (isJpeg(image.path())) addJpeg(doc, image.path());
            else addDecoded(doc, image.path());
        } catch (IOException | RuntimeException e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "'" + image.name() + "' could not be read as an image: " + e.getMessage(), e);
        }
    }

    private static boolean isJpeg(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            byte[] head = in.readNBytes(3);
            return head.length == 3 && (head[0] & 0xff) == 0xFF && (head[1] & 0xff) == 0xD8 && (head[2] & 0xff) == 0xFF;
        }
    }

    private static void addJpeg(PDDocument doc, Path jpeg) throws IOException {
        PDImageXObject image;
        try (InputStream in = Files.newInputStream(jpeg)) {
            image = JPEGFactory.createFromStream(doc, in);
        }
        JpegMetadata meta = JpegMetadata.read(jpeg);
        addPage(doc, image, meta.dpiX(), meta.dpiY(), meta.orientation());
    }

    private static void addDecoded(PDDocument doc, Path file) throws IOException {
        try (ImageInputStream iis = ImageIO.createImageInputStream(file.toFile())) {
            if (iis == null) throw new IOException("unreadable");
            Iterator<ImageReader> readers = ImageIO.getImageReaders(iis);
            if (!readers.hasNext()) throw new IOException("no decoder for this format");
            ImageReader reader = readers.next();
            try {
                reader.setInput(iis, false, false);
                int frames = reader.getNumImages(true);
                if (frames < 1) throw new IOException("it has no image");
                for (int i = 0; i < frames; i++) {
                    BufferedImage img = reader.read(i);
                    double[] dpi = standardDpi(reader, i);
                    addPage(doc, LosslessFactory.createFromImage(doc, img), dpi[0], dpi[1], 1);
                    img.flush();
                }
            } finally {
                reader.dispose();
            }
        }
    }

    /** Resolution from the format-neutral ImageIO metadata ({@code Dimension/HorizontalPixelSize} in mm per pixel). */
    private static double[] standardDpi(ImageReader reader, int index) {
        double[] dpi = {0, 0};
        try {
            IIOMetadata meta = reader.getImageMetadata(index);
            if (meta == null || !meta.isStandardMetadataFormatSupported()) return dpi;
            IIOMetadataNode root = (IIOMetadataNode) meta.getAsTree("javax_imageio_1.0");
            dpi[0] = mmPerPixelToDpi(root.getElementsByTagName("HorizontalPixelSize"));
            dpi[1] = mmPerPixelToDpi(root.getElementsByTagName("VerticalPixelSize"));
        } catch (IOException | RuntimeException e) {
            // No usable metadata: 72 dpi.
        }
        return dpi;
    }

    private static double mmPerPixelToDpi(NodeList nodes) {
        if (nodes.getLength() == 0) return 0;
        String v = ((IIOMetadataNode) nodes.item(0)).getAttribute("value");
        try {
            double mm = Double.parseDouble(v);
            return mm > 0 ? 25.4 / mm : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Adds a page showing {@code image} at {@code dpiX}×{@code dpiY} (0 or implausible: 72), turned and mirrored as
     * EXIF {@code orientation} (1-8) says.
     */
    private static void addPage(PDDocument doc, PDImageXObject image, double dpiX, double dpiY, int orientation) throws IOException {
        float w = (float) (image.getWidth() * 72 / plausible(dpiX, dpiY));
        float h = (float) (image.getHeight() * 72 / plausible(dpiY, dpiX));
        float scale = Math.min(1f, MAX_SIDE / Math.max(w, h));
        w *= scale;
        h *= scale;
        PDPage page = new PDPage(new PDRectangle(w, h));
        // EXIF orientation → (mirror horizontally?, then turn clockwise by): 2 mirror; 3 180; 4 mirror+180;
        // 5 mirror+270; 6 90; 7 mirror+90; 8 270.
        int rotate = switch (orientation) {
            case 3, 4 -> 180;
            case 5, 8 -> 270;
            case 6, 7 -> 90;
            default -> 0;
        };
        boolean mirror = orientation == 2 || orientation == 4 || orientation == 5 || orientation == 7;
        page.setRotation(rotate);
        doc.addPage(page);
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
            if (mirror) cs.transform(new Matrix(-1, 0, 0, 1, w, 0));
            cs.drawImage(image, 0, 0, w, h);
        }
    }

    /** {@code dpi} when plausible; else the other axis' when that is; else 72. */
    private static double plausible(double dpi, double other) {
        if (dpi >= 10 && dpi <= 10_000) return dpi;
        if (other >= 10 && other <= 10_000) return other;
        return 72;
    }

    /** What the JPEG's own headers say: resolution (0 = unknown) and EXIF orientation (1 = as stored). */
    record JpegMetadata(double dpiX, double dpiY, int orientation) {

        static JpegMetadata read(Path jpeg) {
            double dpiX = 0, dpiY = 0;
            int orientation = 1;
            boolean exifSeen = false;
            try (ImageInputStream iis = ImageIO.createImageInputStream(jpeg.toFile())) {
                for (JPEGSegment s : JPEGSegmentUtil.readSegments(iis, JPEGSegmentUtil.APP_SEGMENTS)) {
                    if (s.marker() == JPEG.APP0 && "JFIF".equals(s.identifier()) && dpiX == 0) {
                        DataInputStream d = new DataInputStream(s.data());
                        d.readUnsignedShort(); // version
                        int units = d.readUnsignedByte();
                        int x = d.readUnsignedShort(), y = d.readUnsignedShort();
                        double perInch = units == 1 ? 1 : units == 2 ? 2.54 : 0; // 0: aspect ratio only
                        dpiX = x * perInch;
                        dpiY = y * perInch;
                    } else if (s.marker() == JPEG.APP1 && "Exif".equals(s.identifier()) && !exifSeen) {
                        exifSeen = true; // readers use the first EXIF segment
                        InputStream data = s.data();
                        data.read(); // the pad byte after "Exif\0"
                        Directory exif = new TIFFReader().read(ImageIO.createImageInputStream(data));
                        Directory ifd0 = exif instanceof CompoundDirectory c && c.directoryCount() > 0 ? c.getDirectory(0) : exif;
                        orientation = intOf(ifd0.getEntryById(TIFF.TAG_ORIENTATION), 1);
                        if (dpiX == 0) {
                            double perInch = intOf(ifd0.getEntryById(TIFF.TAG_RESOLUTION_UNIT), 2) == 3 ? 2.54 : 1;
                            dpiX = numberOf(ifd0.getEntryById(TIFF.TAG_X_RESOLUTION)) * perInch;
                            dpiY = numberOf(ifd0.getEntryById(TIFF.TAG_Y_RESOLUTION)) * perInch;
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // Unreadable metadata: the image itself still embeds; defaults apply.
            }
            return new JpegMetadata(dpiX, dpiY, orientation < 1 || orientation > 8 ? 1 : orientation);
        }

        private static int intOf(Entry e, int fallback) {
            return e != null && e.getValue() instanceof Number n ? n.intValue() : fallback;
        }

        private static double numberOf(Entry e) {
            return e != null && e.getValue() instanceof Number n ? n.doubleValue() : 0;
        }
    }
}
