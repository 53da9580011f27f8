package dev.docapi.operations.compare;

import dev.docapi.text.LogicalOrder;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;

/**
 * The words of a PDF in reading order, each with the box it occupies on its page, for the word diff of
 * {@code compare}. Boxes are in PDF points in the page's displayed orientation with the origin at the top left
 * (PDFBox's "direction-adjusted" text coordinates).
 */
final class PdfWords {

    /** One word: its text (NFKC-normalised, for comparing), its page (0-based) and its box. */
    record Word(String text, int page, float x, float top, float width, float height) {
    }

    private PdfWords() {
    }

    /**
     * @param onPage called after each page with its 1-based number, for progress
     * @return every word of every page, in the order PDFBox reads the text (content order, which keeps columns apart),
     *         the words of a line with right-to-left text in reading order ({@link #readingOrder})
     */
    static List<Word> of(PDDocument doc, java.util.function.IntConsumer onPage) throws IOException {
        Collector c = new Collector(onPage);
        Writer sink = new StringWriter();
        c.writeText(doc, sink);
        return c.words;
    }

    /**
     * A line's words in reading order. A line with right-to-left words is read by their positions on the page, which
     * are visual whatever order the content stream drew them in (issue 12 item 2): right to left when its rightmost
     * word is right-to-left, left to right otherwise, and a run of words of the other direction in its own order. A
     * line without right-to-left words keeps PDFBox's order.
     */
    static List<Word> readingOrder(List<Word> line) {
        if (line.stream().noneMatch(PdfWords::rightToLeft)) return line;
        List<Word> byX = new ArrayList<>(line);
        byX.sort(Comparator.comparingDouble(Word::x));
        boolean rightToLeftLine = rightToLeft(byX.getLast());
        if (rightToLeftLine) Collections.reverse(byX);
        List<Word> ordered = new ArrayList<>(byX.size());
        for (int i = 0; i < byX.size(); ) {
            int j = i;
            while (j < byX.size() && rightToLeft(byX.get(j)) != rightToLeftLine) j++;
            if (j == i) {
                ordered.add(byX.get(i++));
                continue;
            }
            List<Word> otherDirection = new ArrayList<>(byX.subList(i, j));
            Collections.reverse(otherDirection);
            ordered.addAll(otherDirection);
            i = j;
        }
        return ordered;
    }

    private static boolean rightToLeft(Word w) {
        return LogicalOrder.hasRightToLeft(w.text());
    }

    private static final class Collector extends PDFTextStripper {
        final List<Word> words = new ArrayList<>();
        /** The words of the line being read, until its end puts them in reading order. */
        private final List<Word> line = new ArrayList<>();
        final java.util.function.IntConsumer onPage;

        Collector(java.util.function.IntConsumer onPage) {
            this.onPage = onPage;
            setSuppressDuplicateOverlappingText(true);
        }

        @Override
        protected void writeString(String text, List<TextPosition> positions) {
            int page = getCurrentPageNo() - 1;
            List<LogicalOrder.Glyph> word = new ArrayList<>();
            float x0 = 0, x1 = 0, top = Float.MAX_VALUE, bottom = -Float.MAX_VALUE;
            for (TextPosition p : positions) {
                String u = p.getUnicode();
                if (u == null || u.isBlank()) {
                    flush(word, page, x0, x1, top, bottom);
                    word.clear();
                    top = Float.MAX_VALUE;
                    bottom = -Float.MAX_VALUE;
                    continue;
                }
                x0 = word.isEmpty() ? p.getXDirAdj() : Math.min(x0, p.getXDirAdj());
                word.add(LogicalOrder.Glyph.of(p));
                x1 = Math.max(x1, p.getXDirAdj() + p.getWidthDirAdj());
                // glyph heights from fonts are often too small; the font size gives a box a reader can see
                float h = Math.max(p.getHeightDir(), p.getFontSizeInPt() * 0.75f);
                top = Math.min(top, p.getYDirAdj() - h);
                bottom = Math.max(bottom, p.getYDirAdj() + p.getFontSizeInPt() * 0.2f);
            }
            flush(word, page, x0, x1, top, bottom);
        }

        /** The word's text in logical order: a visual-order Arabic word is turned around ({@link LogicalOrder}). */
        private void flush(List<LogicalOrder.Glyph> word, int page, float x0, float x1, float top, float bottom) {
            if (word.isEmpty()) return;
            String text = Normalizer.normalize(LogicalOrder.line(List.of(word)), Normalizer.Form.NFKC).strip();
            if (text.isEmpty()) return;
            line.add(new Word(text, page, x0, top, Math.max(1, x1 - x0), Math.max(1, bottom - top)));
        }

        private void endLine() {
            words.addAll(readingOrder(line));
            line.clear();
        }

        @Override
        protected void writeLineSeparator() throws IOException {
            endLine();
            super.writeLineSeparator();
        }

        @Override
        protected void writeParagraphEnd() throws IOException {
            endLine();
            super.writeParagraphEnd();
        }

        @Override
        protected void endPage(org.apache.pdfbox.pdmodel.PDPage page) throws IOException {
            endLine();
            super.endPage(page);
            onPage.accept(getCurrentPageNo());
        }
    }
}
