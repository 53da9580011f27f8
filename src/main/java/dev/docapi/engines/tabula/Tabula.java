package dev.docapi.engines.tabula;

import dev.docapi.shaded.pdfbox2.pdmodel.PDDocument;
import dev.docapi.shaded.tabula.ObjectExtractor;
import dev.docapi.shaded.tabula.Page;
import dev.docapi.shaded.tabula.RectangularTextContainer;
import dev.docapi.shaded.tabula.Table;
import dev.docapi.shaded.tabula.extractors.BasicExtractionAlgorithm;
import dev.docapi.shaded.tabula.extractors.SpreadsheetExtractionAlgorithm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Table detection with Tabula (shaded: its PDFBox 2 is relocated to {@code dev.docapi.shaded.pdfbox2} so it does not
 * clash with our PDFBox 3). Lattice mode (ruled tables) first; stream mode (columns inferred from whitespace) only on
 * pages where lattice finds nothing, and only when asked — stream mode finds a "table" in almost any text page.
 */
@Component
public class Tabula {
    private static final Logger log = LoggerFactory.getLogger(Tabula.class);

    /**
     * A table found on a page.
     *
     * @param page   page number, from 1
     * @param top    top edge in PDF points from the page's top (Tabula's coordinates, same as PDFBox's
     *               {@code TextPosition.getYDirAdj})
     * @param left   left edge in points
     * @param width  width in points
     * @param height height in points
     * @param rows   the cells' text, row by row (rows padded to the same length)
     * @param lattice true when found by its rulings, false when inferred from whitespace
     */
    public record PdfTable(int page, float top, float left, float width, float height, List<List<String>> rows, boolean lattice) {
        /** True when {@code (x, y)} (points, top-left origin) lies inside the table, with a 1 pt margin. */
        public boolean contains(float x, float y) {
            return x >= left - 1 && x <= left + width + 1 && y >= top - 1 && y <= top + height + 1;
        }
    }

    /**
     * The tables of every page, in page order, each page's in Tabula's order (top to bottom).
     *
     * @param streamFallback also try stream mode on pages where lattice mode finds no table; stream tables with fewer
     *                       than 2 rows or 2 columns are dropped
     * @throws IOException when the PDF cannot be read
     */
    public List<PdfTable> tables(Path pdf, boolean streamFallback) throws IOException {
        return tables(pdf, streamFallback, null);
    }

    /**
     * As {@link #tables(Path, boolean)}, reporting each page done (its number, from 1) to {@code pageDone} (may be
     * null). A page Tabula fails on (it throws runtime exceptions on odd geometry) has no tables; the others keep theirs.
     */
    public List<PdfTable> tables(Path pdf, boolean streamFallback, IntConsumer pageDone) throws IOException {
        List<PdfTable> out = new ArrayList<>();
        try (PDDocument doc = PDDocument.load(pdf.toFile()); ObjectExtractor extractor = new ObjectExtractor(doc)) {
            SpreadsheetExtractionAlgorithm lattice = new SpreadsheetExtractionAlgorithm();
            BasicExtractionAlgorithm stream = new BasicExtractionAlgorithm();
            for (int p = 1; p <= doc.getNumberOfPages(); p++) {
                try {
                    Page page = extractor.extract(p);
                    if (page.hasText()) {
                        List<PdfTable> found = convert(p, lattice.extract(page), true);
                        if (found.isEmpty() && streamFallback) found = convert(p, stream.extract(page), false);
                        out.addAll(found);
                    }
                } catch (RuntimeException e) {
                    log.debug("no tables on page {} of {}: {}", p, pdf.getFileName(), e.toString());
                }
                if (pageDone != null) pageDone.accept(p);
            }
        }
        return out;
    }

    /**
     * True when a stream-mode "table" is running text cut into columns (a two-column page): long cells, or most rows
     * with a single filled cell.
     */
    static boolean prose(List<List<String>> rows) {
        int cells = 0, chars = 0, multi = 0;
        for (List<String> r : rows) {
            int filled = 0;
            for (String c : r) {
                if (c.isEmpty()) continue;
                filled++;
                cells++;
                chars += c.length();
            }
            if (filled >= 2) multi++;
        }
        return cells == 0 || chars / cells > 40 || multi * 2 < rows.size();
    }

    private static List<PdfTable> convert(int page, List<Table> tables, boolean lattice) {
        List<PdfTable> out = new ArrayList<>();
        for (Table t : tables) {
            List<List<String>> rows = new ArrayList<>();
            int cols = 0;
            for (List<RectangularTextContainer> row : t.getRows()) {
                List<String> cells = new ArrayList<>();
                for (RectangularTextContainer c : row) cells.add(c.getText().replace('\r', ' ').strip());
                // trailing empty cells carry nothing
                while (!cells.isEmpty() && cells.getLast().isEmpty()) cells.removeLast();
                if (cells.stream().allMatch(String::isEmpty)) continue;
                cols = Math.max(cols, cells.size());
                rows.add(cells);
            }
            for (List<String> r : rows) while (r.size() < cols) r.add("");
            if (rows.isEmpty() || cols == 0) continue;
            if (!lattice && (rows.size() < 2 || cols < 2 || prose(rows))) continue;
            if (lattice && rows.size() * cols < 2) continue;
            out.add(new PdfTable(page, (float) t.getTop(), (float) t.getLeft(), (float) t.getWidth(), (float) t.getHeight(), rows, lattice));
        }
        return out;
    }
}
