package dev.docapi.engines.pdfbox;

import java.awt.image.BufferedImage;
import java.awt.image.DataBuffer;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.graphics.color.PDCalGray;
import org.apache.pdfbox.pdmodel.graphics.color.PDCalRGB;
import org.apache.pdfbox.pdmodel.graphics.color.PDColorSpace;
import org.apache.pdfbox.pdmodel.graphics.color.PDDeviceGray;
import org.apache.pdfbox.pdmodel.graphics.color.PDDeviceRGB;
import org.apache.pdfbox.pdmodel.graphics.color.PDICCBased;
import org.apache.pdfbox.pdmodel.graphics.color.PDIndexed;
import org.apache.pdfbox.pdmodel.graphics.image.CCITTFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;

/**
 * Re-encodes one image XObject in place, smaller: colour and grey images downsampled (area average) to the wanted
 * size and written as JPEG at the given quality, or Flate when that is smaller (flat artwork); bi-level images as
 * CCITT G4. The samples are re-encoded as they are stored, so the colour space (ICC profiles included) and the
 * decode array stay; only images in other colour spaces (Indexed, CMYK, Lab, Separation) that must be downsampled
 * are converted to DeviceRGB. The stream is only replaced when the new encoding is smaller: an image never grows.
 */
final class ImageRecoder {
    private ImageRecoder() {
    }

    /** What became of an image. */
    enum Outcome { RECODED, KEPT, SKIPPED }

    /**
     * Re-encodes {@code image} at {@code width} × {@code height} pixels (its own size or less).
     *
     * @param monoFactor for a bi-level image, keep one pixel in this many each way (1 = keep all)
     * @param quality    JPEG quality, 0-1 (ImageIO's scale: 0.62 matches Ghostscript's QFactor 0.76)
     * @return RECODED when the stream was replaced, KEPT when nothing smaller was found, SKIPPED when the image is of
     * a kind this does not re-encode (a stencil mask, colour-key masking, 16-bit samples, an undecodable filter)
     */
    static Outcome recode(PDDocument doc, PDImageXObject image, int width, int height, int monoFactor, float quality) throws IOException {
        COSStream stream = image.getCOSObject();
        if (image.isStencil() || stream.getDictionaryObject(COSName.MASK) instanceof COSArray) return Outcome.SKIPPED;
        PDColorSpace cs = image.getColorSpace();
        int bpc = image.getBitsPerComponent();
        long before = stream.getLength();
        boolean resize = width < image.getWidth() || height < image.getHeight();
        if (bpc == 1 && cs.getNumberOfComponents() == 1 && !(cs instanceof PDIndexed)) {
            return bilevel(doc, image, monoFactor, before);
        }
        if (bpc == 8 && storedAsIs(cs)) {
            Raster raw = shrink(image, width, height);
            return replaceIfSmaller(stream, raw, quality, resize, before, null);
        }
        if (!resize) return Outcome.SKIPPED; // converting its colour space is only worth it to downsample
        int sub = Math.max(1, Math.min(image.getWidth() / width, image.getHeight() / height) / 2);
        BufferedImage rgb = image.getImage(null, sub); // decoded, colour-converted to sRGB, read every sub-th pixel
        Raster rgbRaster = toRgb(rgb);
        return replaceIfSmaller(stream, shrink(rgbRaster, width, height), quality, true, before, COSName.DEVICERGB);
    }

    /**
     * Downsamples the image's soft mask to the image's new size (Flate, lossless: a mask's edges matter more than
     * its bytes). A mask that cannot be re-read is left as it is: a soft mask may differ in size from its image.
     */
    static void shrinkSoftMask(PDImageXObject mask, int width, int height) throws IOException {
        if (mask.getBitsPerComponent() != 8 || (mask.getWidth() <= width && mask.getHeight() <= height)) return;
        COSStream stream = mask.getCOSObject();
        Raster raw = shrink(mask, Math.min(width, mask.getWidth()), Math.min(height, mask.getHeight()));
        byte[] flate = flate(raw);
        if (flate.length < stream.getLength()) write(stream, flate, COSName.FLATE_DECODE, null, raw.getWidth(), raw.getHeight(), 8);
    }

    /** True for colour spaces whose stored samples can be averaged and re-encoded as they are (1 or 3 components). */
    private static boolean storedAsIs(PDColorSpace cs) {
        int n = cs.getNumberOfComponents();
        return cs instanceof PDDeviceGray || cs instanceof PDDeviceRGB || cs instanceof PDCalGray || cs instanceof PDCalRGB
                || (cs instanceof PDICCBased && (n == 1 || n == 3));
    }

    private static Outcome replaceIfSmaller(COSStream stream, Raster raster, float quality, boolean resized, long before, COSName newColorSpace)
            throws IOException {
        byte[] best = jpeg(raster, quality);
        COSName filter = COSName.DCT_DECODE;
        if (resized) {
            // Flat artwork and screenshots are smaller (and exact) in Flate; the original was not, at its own size.
            byte[] flate = flate(raster);
            if (flate.length < best.length) {
                best = flate;
                filter = COSName.FLATE_DECODE;
            }
        }
        if (best.length >= before) return Outcome.KEPT;
        write(stream, best, filter, null, raster.getWidth(), raster.getHeight(), 8);
        if (newColorSpace != null) {
            stream.setItem(COSName.COLORSPACE, newColorSpace);
            stream.removeItem(COSName.DECODE); // the decode array was applied in the conversion
        }
        return Outcome.RECODED;
    }

    /** A bi-level image as CCITT G4, one pixel in {@code factor} kept each way (scanned text stays sharp). */
    private static Outcome bilevel(PDDocument doc, PDImageXObject image, int factor, long before) throws IOException {
        int sw = image.getWidth();
        int w = Math.max(1, sw / factor);
        int h = Math.max(1, image.getHeight() / factor);
        BufferedImage bits = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_BINARY);
        WritableRaster out = bits.getRaster();
        int[] row = new int[sw];
        int[] kept = new int[w];
        try (Samples samples = new Samples(image)) {
            for (int y = 0; y < h * factor; y++) {
                samples.next(row); // one sample (0 or 1) per pixel, the decode array not applied
                if (y % factor != 0) continue;
                for (int x = 0; x < w; x++) kept[x] = row[x * factor];
                out.setSamples(0, y / factor, w, 1, 0, kept);
            }
        }
        // CCITTFactory writes sample 0 as black with /BlackIs1 false, so a reader decodes the very samples written:
        // the colour space and decode array of the original still apply.
        COSStream g4 = CCITTFactory.createFromImage(doc, bits).getCOSObject();
        if (g4.getLength() >= before) return Outcome.KEPT;
        byte[] data;
        try (InputStream in = g4.createRawInputStream()) {
            data = in.readAllBytes();
        }
        write(image.getCOSObject(), data, COSName.CCITTFAX_DECODE, g4.getDictionaryObject(COSName.DECODE_PARMS), w, h, 1);
        return Outcome.RECODED;
    }

    private static void write(COSStream stream, byte[] data, COSName filter, COSBase parms, int width, int height, int bpc) throws IOException {
        try (OutputStream out = stream.createRawOutputStream()) {
            out.write(data);
        }
        stream.setItem(COSName.FILTER, filter);
        if (parms == null) stream.removeItem(COSName.DECODE_PARMS);
        else stream.setItem(COSName.DECODE_PARMS, parms);
        stream.removeItem(COSName.DL);
        stream.setInt(COSName.WIDTH, width);
        stream.setInt(COSName.HEIGHT, height);
        stream.setInt(COSName.BITS_PER_COMPONENT, bpc);
    }

    /**
     * The image's stored samples (8 bits each), area-averaged down to {@code width} × {@code height} (each output
     * pixel the mean of the source pixels it covers: no aliasing on halftones and scanned text). Reads the decoded
     * stream row by row: only the output is held as pixels.
     */
    static Raster shrink(PDImageXObject image, int width, int height) throws IOException {
        try (Samples samples = new Samples(image)) {
            return shrink(samples::next, image.getWidth(), image.getHeight(), samples.components, width, height);
        }
    }

    /** As {@link #shrink(PDImageXObject, int, int)} for a raster (an image PDFBox decoded and colour-converted). */
    static Raster shrink(Raster src, int width, int height) throws IOException {
        int[] y = {src.getMinY()};
        return shrink(row -> src.getPixels(src.getMinX(), y[0]++, src.getWidth(), 1, row), src.getWidth(), src.getHeight(),
                src.getNumBands(), width, height);
    }

    /** Rows of interleaved samples, top to bottom. */
    private interface Rows {
        void next(int[] row) throws IOException;
    }

    private static Raster shrink(Rows src, int sw, int sh, int n, int width, int height) throws IOException {
        width = Math.min(width, sw);
        height = Math.min(height, sh);
        WritableRaster dst = Raster.createInterleavedRaster(DataBuffer.TYPE_BYTE, width, height, n, null);
        int[] x0 = new int[width + 1];
        for (int i = 0; i <= width; i++) x0[i] = (int) ((long) i * sw / width);
        int[] row = new int[sw * n];
        int[] into = new int[sw * n]; // which output sample each source sample adds to
        for (int ox = 0; ox < width; ox++) {
            for (int x = x0[ox]; x < x0[ox + 1]; x++) {
                for (int b = 0; b < n; b++) into[x * n + b] = ox * n + b;
            }
        }
        long[] acc = new long[width * n];
        int[] out = new int[width * n];
        for (int oy = 0; oy < height; oy++) {
            int y0 = (int) ((long) oy * sh / height);
            int y1 = (int) ((long) (oy + 1) * sh / height);
            java.util.Arrays.fill(acc, 0);
            for (int y = y0; y < y1; y++) {
                src.next(row);
                for (int i = 0; i < row.length; i++) acc[into[i]] += row[i];
            }
            for (int ox = 0; ox < width; ox++) {
                long count = (long) (y1 - y0) * (x0[ox + 1] - x0[ox]);
                for (int b = 0; b < n; b++) out[ox * n + b] = (int) ((acc[ox * n + b] + count / 2) / count);
            }
            dst.setPixels(0, oy, width, 1, out);
        }
        return dst;
    }

    /**
     * The decoded samples of an 8- or 1-bit image, row by row, as stored (colour space and decode array not applied).
     * PDFBox's own raw raster builds the same sample by sample, ten times slower on a large scan.
     */
    private static final class Samples implements AutoCloseable {
        final int components;
        private final int bpc;
        private final int width;
        private final byte[] buf;
        private final InputStream in;

        Samples(PDImageXObject image) throws IOException {
            COSBase filter = image.getCOSObject().getFilters();
            if (filter != null && filter.toString().contains("JPX")) throw new IOException("JPEG 2000 samples are not read here");
            this.bpc = image.getBitsPerComponent();
            if (bpc != 8 && bpc != 1) throw new IOException(bpc + "-bit samples are not read here");
            this.components = image.getColorSpace().getNumberOfComponents();
            this.width = image.getWidth();
            this.buf = new byte[(width * components * bpc + 7) / 8];
            this.in = image.getCOSObject().createInputStream();
        }

        void next(int[] row) throws IOException {
            // a stream cut short is refused rather than padded: the image is then kept as it was
            if (in.readNBytes(buf, 0, buf.length) < buf.length) throw new java.io.EOFException("image data cut short");
            if (bpc == 8) {
                for (int i = 0; i < buf.length; i++) row[i] = buf[i] & 0xff;
            } else {
                for (int x = 0; x < width; x++) row[x] = (buf[x >> 3] >> (7 - (x & 7))) & 1;
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** The three colour bands of an sRGB image as an interleaved raster (alpha, if any, is the soft mask's job). */
    private static Raster toRgb(BufferedImage image) {
        BufferedImage rgb = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_3BYTE_BGR);
        rgb.createGraphics().drawImage(image, 0, 0, null);
        return rgb.getRaster();
    }

    /** Baseline JPEG of 1 (grey) or 3 (stored as RGB: YCbCr with 4:2:0 chroma) bands, the JDK's writer at {@code quality}. */
    static byte[] jpeg(Raster raster, float quality) throws IOException {
        int w = raster.getWidth();
        int h = raster.getHeight();
        BufferedImage image = new BufferedImage(w, h, raster.getNumBands() == 1 ? BufferedImage.TYPE_BYTE_GRAY : BufferedImage.TYPE_3BYTE_BGR);
        image.getRaster().setRect(-raster.getMinX(), -raster.getMinY(), raster);
        ImageWriter writer = jdkJpegWriter();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(quality);
            writer.setOutput(out);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    /** The JDK's own JPEG writer (plugins on the class path may register others that ignore the quality). */
    private static ImageWriter jdkJpegWriter() {
        Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
        ImageWriter first = null;
        while (writers.hasNext()) {
            ImageWriter w = writers.next();
            if (w.getClass().getName().startsWith("com.sun.imageio")) return w;
            if (first == null) first = w;
        }
        if (first == null) throw new IllegalStateException("no JPEG writer");
        return first;
    }

    /** The interleaved 8-bit samples, deflated at level 9. */
    private static byte[] flate(Raster raster) throws IOException {
        int n = raster.getNumBands();
        int w = raster.getWidth();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(9);
        try (DeflaterOutputStream out = new DeflaterOutputStream(bytes, deflater, 1 << 16)) {
            int[] row = new int[w * n];
            byte[] b = new byte[w * n];
            for (int y = 0; y < raster.getHeight(); y++) {
                raster.getPixels(raster.getMinX(), raster.getMinY() + y, w, 1, row);
                for (int i = 0; i < row.length; i++) b[i] = (byte) row[i];
                out.write(b);
            }
        } finally {
            deflater.end();
        }
        return bytes.toByteArray();
    }
}
