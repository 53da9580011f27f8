package dev.docapi.text;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;

/**
 * A PDFBox text stripper that hands its subclass whole lines, each as its words' glyphs in drawing order, so the
 * line can be put in logical order ({@link LogicalOrder}) rather than PDFBox's own bidi handling, which reverses
 * Tesseract's logical-order Arabic and leaves the words of a visual-order Arabic line in visual order.
 * <p>
 * Text is read in content order (which keeps columns apart), except on pages turned by 90° or 270° (their
 * {@code /Rotate}): there PDFBox's content-order line finding works on the turned page and cuts words ("H ello
 * W orld"), so those pages are read sorted by position along the runs' own direction (issue 12 item 3).
 */
public abstract class LineStripper extends PDFTextStripper {
    private final List<List<TextPosition>> words = new ArrayList<>();

    protected LineStripper() {
        setSortByPosition(false);
    }

    /**
     * One line of text.
     *
     * @param words its words in drawing order, each its glyphs in drawing order (never empty)
     */
    protected abstract void line(List<List<TextPosition>> words) throws IOException;

    @Override
    protected void startPage(PDPage page) throws IOException {
        setSortByPosition(page.getRotation() % 180 != 0);
        super.startPage(page);
    }

    @Override
    protected final void writeString(String text, List<TextPosition> positions) {
        if (!positions.isEmpty()) words.add(List.copyOf(positions));
    }

    @Override
    protected final void writeString(String text) {
        // every word comes through writeString(String, List) above
    }

    @Override
    protected void writeWordSeparator() {
        // words are kept apart in the list handed to line()
    }

    @Override
    protected void writeLineSeparator() throws IOException {
        endLine();
    }

    @Override
    protected void writeParagraphStart() throws IOException {
        endLine();
    }

    @Override
    protected void writeParagraphEnd() throws IOException {
        endLine();
    }

    @Override
    protected void writePageEnd() throws IOException {
        endLine();
    }

    private void endLine() throws IOException {
        if (words.isEmpty()) return;
        List<List<TextPosition>> line = List.copyOf(words);
        words.clear();
        line(line);
    }
}
