package dev.docapi.operations.compare;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.text.Normalizer;
import java.util.ArrayList;
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
     * @return every word of every page, in the order PDFBox reads the text (content order, which keeps columns apart)
     */
    static List<Word> of(PDDocument doc, java.util.function.IntConsumer onPage) throws IOException {
        Collector c = new Collector(onPage);
        Writer sink = new StringWriter();
        c.writeText(doc, sink);
        return c.words;
    }

    private static final class Collector extends PDFTextStripper {
        final List<Word> words = new ArrayList<>();
        final java.util.function.IntConsumer onPage;

        Collector(java.util.function.IntConsumer onPage) {
            this.onPage = onPage;
            setSuppressDuplicateOverlappingText(true);
        }

        @Override
        protected void writeString(String text, List<TextPosition> positions) {
            int page = getCurrentPageNo() - 1;
            StringBuilder sb = new StringBuilder();
            float x0 = 0, x1 = 0, top = Float.MAX_VALUE, bottom = -Float.MAX_VALUE;
            for (TextPosition p : positions) {
                String u = p.getUnicode();
                if (u == null || u.isBlank()) {
                    flush(sb, page, x0, x1, top, bottom);
                    sb.setLength(0);
                    top = Float.MAX_VALUE;
                    bottom = -Float.MAX_VALUE;
                    continue;
                }
                if (sb.isEmpty()) x0 = p.getXDirAdj();
                sb.append(u);
                x1 = Math.max(x1, p.getXDirAdj() + p.getWidthDirAdj());
                // glyph heights from fonts are often too small; the font size gives a box a reader can see
                float h = Math.max(p.getHeightDir(), p.getFontSizeInPt() * 0.75f);
                top = Math.min(top, p.getYDirAdj() - h);
                bottom = Math.max(bottom, p.getYDirAdj() + p.getFontSizeInPt() * 0.2f);
            }
            flush(sb, page, x0, x1, top, bottom);
        }

        private void flush(StringBuilder sb, int page, float x0, float x1, float top, float bottom) {
            if (sb.isEmpty()) return;
            String text = Normalizer.normalize(sb.toString(), Normalizer.Form.NFKC).strip();
            if (text.isEmpty()) return;
            words.add(new Word(text, page, x0, top, Math.max(1, x1 - x0), Math.max(1, bottom - top)));
        }

        @Override
        protected void endPage(org.apache.pdfbox.pdmodel.PDPage page) throws IOException {
            super.endPage(page);
            onPage.accept(getCurrentPageNo());
        }
    }
}
