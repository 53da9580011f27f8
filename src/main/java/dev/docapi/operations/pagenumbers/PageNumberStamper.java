package dev.docapi.operations.pagenumbers;

import dev.docapi.engines.pdfbox.PageFrame;
import java.io.IOException;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.PDPageContentStream.AppendMode;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/**
 * Draws "1", "2", ... on the pages of a document, upright in the visual corner or edge named by the position, inside
 * each page's CropBox and whatever its {@code /Rotate}. Digits use the standard Helvetica (every reader has it, so
 * nothing is embedded). The size follows the page: 1.8% of its shorter side, between 7 and 14 points.
 */
final class PageNumberStamper {
    private final PDFont font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
    private final PageNumberPosition position;

    PageNumberStamper(PageNumberPosition position) {
        this.position = position;
    }

    /** Stamps page {@code number} on {@code page}; the page's existing content is wrapped so its state cannot leak. */
    void stamp(PDDocument doc, PDPage page, int number) throws IOException {
        PageFrame frame = PageFrame.of(page);
        String label = Integer.toString(number);
        float size = Math.clamp(Math.min(frame.width(), frame.height()) * 0.018f, 7f, 14f);
        float margin = Math.min(size * 2.5f, Math.min(frame.width(), frame.height()) / 8);
        float textWidth = font.getStringWidth(label) / 1000 * size;
        float x = position.left() ? margin : position.right() ? frame.width() - margin - textWidth : (frame.width() - textWidth) / 2;
        // Baseline: the digits' top (cap height ~0.72 em) sits margin below the top edge, or the baseline margin above the bottom.
        float y = position.top() ? frame.height() - margin - size * 0.72f : margin;
        try (PDPageContentStream cs = new PDPageContentStream(doc, page, AppendMode.APPEND, true, true)) {
            cs.transform(frame.toUser());
            cs.beginText();
            cs.setFont(font, size);
            cs.setNonStrokingColor(0f, 0f, 0f);
            cs.newLineAtOffset(x, y);
            cs.showText(label);
            cs.endText();
        }
    }
}
