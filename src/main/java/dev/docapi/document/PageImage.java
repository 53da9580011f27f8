package dev.docapi.document;

import java.awt.image.Raster;
import java.io.IOException;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.rendering.ImageType;
import org.apache.pdfbox.rendering.PDFRenderer;

/**
 * A page rendered in grey, as seen, to measure what a scan's image shows ({@link ScanType}, {@link ImageRulings}).
 *
 * @param raster the page's pixels, 0 (black) to 255 (white)
 * @param scale  pixels a point
 */
record PageImage(Raster raster, float scale) {
    /**
     * Page {@code page} (from 1) of {@code doc} at {@code dpi}, or at less where that would pass {@code maxPixels}
     * (a hostile page size bounds the pixels, not the resolution alone).
     *
     * @throws IOException when the page cannot be rendered
     */
    static PageImage grey(PDFRenderer renderer, PDDocument doc, int page, float dpi, long maxPixels) throws IOException {
        var box = doc.getPage(page - 1).getCropBox();
        float bounded = Math.min(dpi, (float) Math.sqrt(maxPixels / Math.max(1.0, box.getWidth() / 72.0 * box.getHeight() / 72.0)));
        return new PageImage(renderer.renderImageWithDPI(page - 1, bounded, ImageType.GRAY).getRaster(), bounded / 72);
    }
}
