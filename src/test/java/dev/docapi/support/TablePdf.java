package dev.docapi.support;

import java.io.IOException;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/** PDF pages with a ruled table, drawn with PDFBox, for the table detection tests. */
public final class TablePdf {
    private TablePdf() {
    }

    /** A page with a 2 × 2 ruled table: a header row (Team, Cups) and one row. */
    public static void ruledTable(PDDocument doc, String team, String cups) throws IOException {
        ruledTable(doc, new String[][] {{"Team", "Cups"}, {team, cups}});
    }

    /** A page with a ruled table of {@code cells} (rows of equal length, at most 26 rows to fit the page). */
    public static void ruledTable(PDDocument doc, String[][] cells) throws IOException {
        PDPage page = new PDPage();
        doc.addPage(page);
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        int rows = cells.length, cols = cells[0].length;
        float left = 72, top = 700, row = 24, col = 150;
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
            for (int r = 0; r <= rows; r++) {
                cs.moveTo(left, top - r * row);
                cs.lineTo(left + cols * col, top - r * row);
            }
            for (int c = 0; c <= cols; c++) {
                cs.moveTo(left + c * col, top);
                cs.lineTo(left + c * col, top - rows * row);
            }
            cs.stroke();
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    cs.beginText();
                    cs.setFont(font, 11);
                    cs.newLineAtOffset(left + c * col + 6, top - (r + 1) * row + 8);
                    cs.showText(cells[r][c]);
                    cs.endText();
                }
            }
        }
    }
}
