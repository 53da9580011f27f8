package dev.docapi.engines.pdfbox;

import java.awt.geom.Point2D;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import org.apache.pdfbox.contentstream.PDFGraphicsStreamEngine;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType3Font;
import org.apache.pdfbox.pdmodel.graphics.image.PDImage;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.apache.pdfbox.util.Matrix;
import org.apache.pdfbox.util.Vector;

/**
 * Pages that show nothing OCR could read beyond their text layer: their content (forms included) paints no image,
 * no path and no shading, every glyph it shows maps to Unicode (so its text layer has it already), and they have no
 * annotation but links. An empty page ("intentionally left blank", a book's verso, a page with only its page number)
 * is one; OCRing it costs OCRmyPDF's start (seconds) and finds nothing. Only the content is parsed, never rendered;
 * any doubt (a page that cannot be parsed, a Type 3 glyph, a white rectangle) counts as a page that shows something.
 */
final class BlankPages extends PDFGraphicsStreamEngine {
    private boolean painted;

    private BlankPages(PDPage page) {
        super(page);
    }

    /** Of {@code pages} (from 1) of {@code doc}, those that show nothing beyond their text layer. */
    static Set<Integer> of(PDDocument doc, Collection<Integer> pages) {
        Set<Integer> blank = new TreeSet<>();
        for (int n : pages) {
            // a job past its deadline: the pages left are not looked at (none of them counts as empty)
            if (Thread.currentThread().isInterrupted()) break;
            if (n < 1 || n > doc.getNumberOfPages()) continue;
            PDPage page = doc.getPage(n - 1);
            try {
                if (page.getAnnotations().stream().anyMatch(a -> !(a instanceof PDAnnotationLink))) continue;
                BlankPages engine = new BlankPages(page);
                engine.processPage(page);
                if (!engine.painted) blank.add(n);
            } catch (IOException | RuntimeException e) {
                // unreadable here: OCRmyPDF decides
            }
        }
        return blank;
    }

    /** A glyph with no Unicode, or one mapped to a blank that is not the space (code 32), shows what its text layer lacks. */
    @Override
    protected void showFontGlyph(Matrix textRenderingMatrix, PDFont font, int code, Vector displacement) {
        String unicode = font.toUnicode(code);
        if (unicode == null || unicode.isBlank() && code != 32) painted = true;
    }

    @Override
    protected void showType3Glyph(Matrix textRenderingMatrix, PDType3Font font, int code, Vector displacement) {
        painted = true;
    }

    /** Once the page shows something, the rest of its content is parsed but not followed; a job past its deadline stops. */
    @Override
    protected void processOperator(Operator operator, List<COSBase> operands) throws IOException {
        if (Thread.currentThread().isInterrupted()) throw new InterruptedIOException("interrupted while looking for empty pages");
        if (!painted) super.processOperator(operator, operands);
    }

    @Override
    public void drawImage(PDImage pdImage) {
        painted = true;
    }

    @Override
    public void strokePath() {
        painted = true;
    }

    @Override
    public void fillPath(int windingRule) {
        painted = true;
    }

    @Override
    public void fillAndStrokePath(int windingRule) {
        painted = true;
    }

    @Override
    public void shadingFill(COSName shadingName) {
        painted = true;
    }

    @Override
    public void appendRectangle(Point2D p0, Point2D p1, Point2D p2, Point2D p3) {
    }

    @Override
    public void clip(int windingRule) {
    }

    @Override
    public void moveTo(float x, float y) {
    }

    @Override
    public void lineTo(float x, float y) {
    }

    @Override
    public void curveTo(float x1, float y1, float x2, float y2, float x3, float y3) {
    }

    @Override
    public Point2D getCurrentPoint() {
        return new Point2D.Float();
    }

    @Override
    public void closePath() {
    }

    @Override
    public void endPath() {
    }
}
