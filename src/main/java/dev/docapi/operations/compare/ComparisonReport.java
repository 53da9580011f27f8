package dev.docapi.operations.compare;

import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.operations.compare.PdfWords.Word;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.apache.pdfbox.multipdf.LayerUtility;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;
import org.apache.pdfbox.pdmodel.graphics.state.PDExtendedGraphicsState;
import org.apache.pdfbox.util.Matrix;

/**
 * Writes the comparison PDF: a summary page, then one landscape-ish page per page index with the page of the first
 * document on the left and of the second on the right (each imported as a form XObject, so its text stays
 * selectable), deleted words under translucent red boxes on the left and inserted words under green ones on the
 * right. Highlights are drawn in the page content so every viewer and printer shows them.
 */
final class ComparisonReport {
    static final Color DELETED = new Color(230, 40, 40);
    static final Color INSERTED = new Color(20, 170, 60);
    private static final float GAP = 24;
    private static final float HEADER = 28;
    private static final float MARGIN = 12;

    /** The figures of a comparison, for the summary page and {@code output.note}. */
    record Summary(String nameA, int pagesA, int wordsA, String nameB, int pagesB, int wordsB, int deleted,
                   int inserted, List<Integer> pagesChanged, boolean pageByPage) {

        String note() {
            if (deleted == 0 && inserted == 0)
                return "No differences: the text of the two PDFs is identical (" + wordsB + " words, " + pagesB + " page"
                        + (pagesB == 1 ? "" : "s") + "); 0 words deleted, 0 inserted.";
            return deleted + " word" + (deleted == 1 ? "" : "s") + " deleted (red), " + inserted + " word"
                    + (inserted == 1 ? "" : "s") + " inserted (green); " + pagesChanged.size() + " of "
                    + Math.max(pagesA, pagesB) + " page" + (Math.max(pagesA, pagesB) == 1 ? "" : "s") + " changed"
                    + (pagesChanged.isEmpty() ? "" : " (" + pageList() + ")") + "."
                    + (pageByPage ? " The documents differ too much for a whole-document diff; pages were compared pair by pair." : "");
        }

        String pageList() {
            List<String> shown = pagesChanged.stream().limit(30).map(String::valueOf).toList();
            return "page" + (pagesChanged.size() == 1 ? " " : "s ") + String.join(", ", shown) + (pagesChanged.size() > 30 ? ", ..." : "");
        }
    }

    private ComparisonReport() {
    }

    static void write(PDDocument a, PDDocument b, WordDiff.Result diff, Summary summary, Path out, IntConsumer onPage)
            throws IOException {
        Map<Integer, List<Word>> deletedByPage = byPage(diff.deleted());
        Map<Integer, List<Word>> insertedByPage = byPage(diff.inserted());
        try (PDDocument doc = new PDDocument()) {
            PDFont regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDFont bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
            summaryPage(doc, summary, diff, regular, bold);
            LayerUtility layers = new LayerUtility(doc);
            PDExtendedGraphicsState translucent = new PDExtendedGraphicsState();
            translucent.setNonStrokingAlphaConstant(0.35f);
            int pages = Math.max(a.getNumberOfPages(), b.getNumberOfPages());
            for (int i = 0; i < pages; i++) {
                PDRectangle boxA = i < a.getNumberOfPages() ? displayed(a.getPage(i)) : null;
                PDRectangle boxB = i < b.getNumberOfPages() ? displayed(b.getPage(i)) : null;
                float wA = boxA != null ? boxA.getWidth() : boxB.getWidth();
                float wB = boxB != null ? boxB.getWidth() : boxA.getWidth();
                float h = Math.max(boxA != null ? boxA.getHeight() : 0, boxB != null ? boxB.getHeight() : 0);
                PDPage page = new PDPage(new PDRectangle(2 * MARGIN + wA + GAP + wB, h + HEADER + MARGIN));
                doc.addPage(page);
                float top = h + MARGIN; // PDF y of the pages' top edge
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    side(cs, layers, a, i, boxA, MARGIN, top, deletedByPage.get(i), DELETED, translucent);
                    side(cs, layers, b, i, boxB, MARGIN + wA + GAP, top, insertedByPage.get(i), INSERTED, translucent);
                    label(cs, regular, bold, "Page " + (i + 1) + " of " + summary.nameA(), boxA == null ? "(no such page)" : count(deletedByPage.get(i), "deleted"),
                            MARGIN, top + 10);
                    label(cs, regular, bold, "Page " + (i + 1) + " of " + summary.nameB(), boxB == null ? "(no such page)" : count(insertedByPage.get(i), "inserted"),
                            MARGIN + wA + GAP, top + 10);
                }
                onPage.accept(i + 1);
            }
            PdfBox.save(doc, out);
        }
    }

    private static String count(List<Word> words, String what) {
        int n = words == null ? 0 : words.size();
        return n + " word" + (n == 1 ? "" : "s") + " " + what;
    }

    private static Map<Integer, List<Word>> byPage(List<Word> words) {
        Map<Integer, List<Word>> m = new HashMap<>();
        for (Word w : words) m.computeIfAbsent(w.page(), k -> new ArrayList<>()).add(w);
        return m;
    }

    /** The page as displayed: its crop box, width and height swapped for a quarter-turn rotation. */
    private static PDRectangle displayed(PDPage page) {
        PDRectangle crop = page.getCropBox();
        int rot = ((page.getRotation() % 360) + 360) % 360;
        return rot == 90 || rot == 270 ? new PDRectangle(crop.getHeight(), crop.getWidth()) : new PDRectangle(crop.getWidth(), crop.getHeight());
    }

    private static void side(PDPageContentStream cs, LayerUtility layers, PDDocument src, int index, PDRectangle box,
                             float left, float top, List<Word> marks, Color colour, PDExtendedGraphicsState alpha)
            throws IOException {
        if (box == null) return;
        PDFormXObject form = layers.importPageAsForm(src, index);
        cs.saveGraphicsState();
        cs.transform(Matrix.getTranslateInstance(left, top - box.getHeight()));
        cs.drawForm(form);
        cs.restoreGraphicsState();
        // a thin frame so the two pages read as two sheets
        cs.setStrokingColor(new Color(150, 150, 150));
        cs.setLineWidth(0.5f);
        cs.addRect(left, top - box.getHeight(), box.getWidth(), box.getHeight());
        cs.stroke();
        if (marks == null || marks.isEmpty()) return;
        cs.saveGraphicsState();
        cs.setGraphicsStateParameters(alpha);
        cs.setNonStrokingColor(colour);
        for (Word w : marks) {
            // word boxes are top-left based within the displayed page
            cs.addRect(left + w.x() - 0.5f, top - w.top() - w.height(), w.width() + 1, w.height());
        }
        cs.fill();
        cs.restoreGraphicsState();
    }

    private static void label(PDPageContentStream cs, PDFont regular, PDFont bold, String title, String detail, float x, float y)
            throws IOException {
        cs.beginText();
        cs.setNonStrokingColor(Color.DARK_GRAY);
        cs.setFont(bold, 9);
        cs.newLineAtOffset(x, y);
        cs.showText(winAnsi(title, bold));
        cs.setFont(regular, 9);
        cs.showText("   " + winAnsi(detail, regular));
        cs.endText();
    }

    private static void summaryPage(PDDocument doc, Summary s, WordDiff.Result diff, PDFont regular, PDFont bold) throws IOException {
        PDPage page = new PDPage(PDRectangle.A4);
        doc.addPage(page);
        float x = 56;
        float[] y = {PDRectangle.A4.getHeight() - 64};
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
            Line line = (font, size, colour, text) -> {
                cs.beginText();
                cs.setFont(font, size);
                cs.setNonStrokingColor(colour);
                cs.newLineAtOffset(x, y[0]);
                cs.showText(winAnsi(text, font));
                cs.endText();
                y[0] -= size * 1.6f;
            };
            line.show(bold, 20, Color.BLACK, "Comparison");
            y[0] -= 6;
            line.show(regular, 11, Color.BLACK, "Original (files[0]): " + s.nameA() + " - " + s.pagesA() + " pages, " + s.wordsA() + " words");
            line.show(regular, 11, Color.BLACK, "Changed (files[1]): " + s.nameB() + " - " + s.pagesB() + " pages, " + s.wordsB() + " words");
            y[0] -= 8;
            if (s.deleted() == 0 && s.inserted() == 0) {
                line.show(bold, 14, Color.BLACK, "No differences in the text.");
            } else {
                line.show(bold, 14, DELETED, "Words deleted: " + s.deleted() + "  (red, on the left, where they stood)");
                line.show(bold, 14, INSERTED, "Words inserted: " + s.inserted() + "  (green, on the right)");
                line.show(bold, 14, Color.BLACK, "Pages changed: " + s.pagesChanged().size() + " of " + Math.max(s.pagesA(), s.pagesB()));
                line.show(regular, 10, Color.BLACK, wrap(s.pageList(), 100));
                if (s.pageByPage()) line.show(regular, 10, Color.BLACK, "The documents differ too much for a whole-document diff; pages were compared pair by pair.");
                y[0] -= 8;
                line.show(bold, 11, Color.BLACK, "First differences");
                for (String change : firstChanges(diff, 24)) {
                    if (y[0] < 60) break;
                    line.show(regular, 9, change.startsWith("-") ? DELETED : INSERTED, change);
                }
            }
            y[0] -= 8;
            line.show(regular, 9, Color.GRAY, "Each following page shows page N of the original (left) beside page N of the changed file (right).");
        }
    }

    @FunctionalInterface
    private interface Line {
        void show(PDFont font, float size, Color colour, String text) throws IOException;
    }

    /** Up to {@code max} lines "- p.3: old words" / "+ p.3: new words", runs of adjacent words joined. */
    private static List<String> firstChanges(WordDiff.Result diff, int max) {
        List<String> lines = new ArrayList<>();
        runs(diff.deleted(), "- ", lines, max / 2);
        runs(diff.inserted(), "+ ", lines, max / 2);
        return lines;
    }

    private static void runs(List<Word> words, String sign, List<String> into, int max) {
        StringBuilder run = new StringBuilder();
        int page = -1;
        int added = 0;
        for (Word w : words) {
            if (w.page() != page || run.length() > 90) {
                if (!run.isEmpty() && added++ < max) into.add(sign + "p." + (page + 1) + ": " + wrap(run.toString(), 100));
                run.setLength(0);
                page = w.page();
            }
            if (!run.isEmpty()) run.append(' ');
            run.append(w.text());
        }
        if (!run.isEmpty() && added < max) into.add(sign + "p." + (page + 1) + ": " + wrap(run.toString(), 100));
    }

    private static String wrap(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    /** {@code text} with the characters the standard font cannot encode replaced by '?'. */
    private static String winAnsi(String text, PDFont font) {
        StringBuilder sb = new StringBuilder();
        text.codePoints().forEach(cp -> {
            String ch = new String(Character.toChars(cp));
            try {
                font.encode(ch);
                sb.append(ch);
            } catch (IllegalArgumentException | IOException e) {
                sb.append('?');
            }
        });
        return sb.toString();
    }
}
