package dev.docapi.text;

import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.EngineFailure;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.TextPosition;
import org.springframework.stereotype.Component;

/**
 * A PDF's text layer, page by page, in logical order (issue 12 item 2): what {@code extract-text}, the AI operations'
 * inputs (through {@link OcrText}) and the pdf → xlsx/pptx text read. Pages are read with {@code pdftotext}; a page
 * with right-to-left text is read again from PDFBox's glyph positions, line by line in logical order
 * ({@link LogicalOrder}), because pdftotext passes visual-order Arabic through as it is drawn (WeasyPrint's) and
 * turns lam-alef ligatures around ("سالم" for "سلام"). Pages without right-to-left text keep pdftotext's text.
 */
@Component
public class TextLayer {
    private final Poppler poppler;
    private final PdfBox pdfBox;

    public TextLayer(Poppler poppler, PdfBox pdfBox) {
        this.poppler = poppler;
        this.pdfBox = pdfBox;
    }

    /**
     * The text layer of every page, in page order (index 0 = page 1); a page without text gives "".
     *
     * @param workDir a writable job folder (a PDF PDFBox cannot parse is repaired by qpdf into it)
     * @throws EngineFailure {@code INVALID_INPUT} when the PDF cannot be read
     */
    public List<String> pages(Path pdf, Path workDir) throws EngineFailure, InterruptedException {
        List<String> pages = new ArrayList<>(poppler.pageTexts(pdf));
        List<Integer> rightToLeft = new ArrayList<>();
        for (int p = 1; p <= pages.size(); p++) if (LogicalOrder.hasRightToLeft(pages.get(p - 1))) rightToLeft.add(p);
        if (rightToLeft.isEmpty()) return pages;
        try (PDDocument doc = pdfBox.open(pdf, null, workDir)) {
            for (int p : rightToLeft) pages.set(p - 1, page(doc, p));
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the text layer could not be read: " + e.getMessage(), e);
        }
        return pages;
    }

    private static String page(PDDocument doc, int page) throws IOException {
        StringBuilder text = new StringBuilder();
        LineStripper lines = new LineStripper() {
            @Override
            protected void line(List<List<TextPosition>> words) {
                List<List<LogicalOrder.Glyph>> glyphs = new ArrayList<>();
                for (List<TextPosition> w : words) glyphs.add(LogicalOrder.glyphs(w));
                text.append(LogicalOrder.line(glyphs).strip()).append('\n');
            }
        };
        lines.setStartPage(page);
        lines.setEndPage(page);
        lines.writeText(doc, new StringWriter());
        return text.toString();
    }
}
