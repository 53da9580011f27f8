package dev.docapi.files;

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
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
