package dev.docapi.engines.pdfbox;

import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.util.Matrix;

/**
 * A page as a reader sees it: the visible area (the CropBox) after the page's {@code /Rotate}, in points, with the
 * origin at its visual bottom-left corner. {@link #toUser()} maps these visual coordinates to the page's user space,
 * so content drawn after {@code contentStream.transform(frame.toUser())} appears upright whatever the rotation.
 *
 * @param width  visual width in points (the CropBox height for pages rotated 90 or 270 degrees)
 * @param height visual height in points
 */
public record PageFrame(float width, float height, Matrix toUser) {

    /** The frame of {@code page}: its CropBox (clipped to the MediaBox by PDFBox) and its rotation, normalised to 0-270. */
    public static PageFrame of(PDPage page) {
        PDRectangle box = page.getCropBox();
        float x = box.getLowerLeftX(), y = box.getLowerLeftY(), w = box.getWidth(), h = box.getHeight();
        int rotation = Math.floorMod(page.getRotation(), 360);
        // /Rotate turns the page clockwise when shown; each matrix maps a visual point (X, Y) back to user space.
        return switch (rotation) {
            case 90 -> new PageFrame(h, w, new Matrix(0, 1, -1, 0, x + w, y));
            case 180 -> new PageFrame(w, h, new Matrix(-1, 0, 0, -1, x + w, y + h));
            case 270 -> new PageFrame(h, w, new Matrix(0, -1, 1, 0, x, y + h));
            default -> new PageFrame(w, h, new Matrix(1, 0, 0, 1, x, y));
        };
    }
}
