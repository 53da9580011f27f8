package dev.docapi.files;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/** Image dimensions read from the file's header, without decoding a pixel (a decompression bomb stays harmless). */
public final class ImageSize {
    private ImageSize() {
    }

    /**
     * The pixel count (width × height) of the largest frame of {@code image}, looking at no more than
     * {@code maxFrames} frames; 0 when no reader knows the format or its header cannot be read.
     */
    public static long largestFrame(Path image, int maxFrames) {
        try (ImageInputStream iis = ImageIO.createImageInputStream(image.toFile())) {
            return largestFrame(iis, maxFrames);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** As {@link #largestFrame(Path, int)}, of an image's bytes. */
    public static long largestFrame(byte[] image, int maxFrames) {
        try (ImageInputStream iis = ImageIO.createImageInputStream(new ByteArrayInputStream(image))) {
            return largestFrame(iis, maxFrames);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The width and height of the first frame of an image's bytes, from its header; null when no reader knows it. */
    public static int[] firstFrame(byte[] image) {
        try (ImageInputStream iis = ImageIO.createImageInputStream(new ByteArrayInputStream(image))) {
            Iterator<ImageReader> readers = iis == null ? null : ImageIO.getImageReaders(iis);
            if (readers == null || !readers.hasNext()) return null;
            ImageReader reader = readers.next();
            try {
                reader.setInput(iis);
                return new int[] {reader.getWidth(0), reader.getHeight(0)};
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static long largestFrame(ImageInputStream iis, int maxFrames) throws IOException {
        if (iis == null) return 0;
        Iterator<ImageReader> readers = ImageIO.getImageReaders(iis);
        if (!readers.hasNext()) return 0;
        ImageReader reader = readers.next();
        try {
            reader.setInput(iis);
            long largest = 0;
            int frames = Math.min(maxFrames, Math.max(1, reader.getNumImages(true)));
            for (int i = 0; i < frames; i++) largest = Math.max(largest, (long) reader.getWidth(i) * reader.getHeight(i));
            return largest;
        } finally {
            reader.dispose();
        }
    }
}
