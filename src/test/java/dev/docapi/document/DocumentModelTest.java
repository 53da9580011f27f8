package dev.docapi.document;

import static dev.docapi.support.ApiTestBase.corpus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Type;
import dev.docapi.engines.tabula.Tabula;
import dev.docapi.operations.pagenumbers.PopplerWords;
import dev.docapi.support.Independent;
import dev.docapi.support.TablePdf;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.fontbox.ttf.TrueTypeCollection;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType0Font;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDPageXYZDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDCheckBox;
import org.junit.jupiter.api.Test;

/**
 * The document model's structure (issue 36) on corpus files, checked against independent readings: pdftotext of one
 * column's area says which column a paragraph stands in; pdftotext's layout says what the running header reads.
 * Built from the text layer alone (no ruled tables): the tables here are found by alignment.
 */
class DocumentModelTest {

    private static DocumentModel model(Path pdf) throws IOException {
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            return DocumentReader.model(doc, List.of(), Set.of(), new ArrayList<>(), page -> { });
        }
    }

    /** One line of {@code text} in {@code font} at {@code size} pt, its baseline from ({@code x}, {@code y}) in points from the page's bottom-left. */
    private static void show(PDPageContentStream cs, PDFont font, float size, float x, float y, String text) throws IOException {
        cs.beginText();
        cs.setFont(font, size);
        cs.newLineAtOffset(x, y);
        cs.showText(text);
        cs.endText();
    }

    /** One line of runs in turn, each a font and its text ({@code fontsAndTexts}: font, text, font, text, …), at {@code size} pt from ({@code x}, {@code y}). */
    private static void runs(PDPageContentStream cs, float size, float x, float y, Object... fontsAndTexts) throws IOException {
        cs.beginText();
        cs.newLineAtOffset(x, y);
        for (int i = 0; i < fontsAndTexts.length; i += 2) {
            cs.setFont((PDFont) fontsAndTexts[i], size);
            cs.showText((String) fontsAndTexts[i + 1]);
        }
        cs.endText();
    }

    /** The rulings of a grid: a level line at each of {@code ys} across {@code xs}, an upright one at each of {@code xs} down {@code ys}. */
    private static void grid(PDPageContentStream cs, float[] xs, float[] ys) throws IOException {
        for (float y : ys) {
            cs.moveTo(xs[0], y);
            cs.lineTo(xs[xs.length - 1], y);
        }
        for (float x : xs) {
            cs.moveTo(x, ys[0]);
            cs.lineTo(x, ys[ys.length - 1]);
        }
        cs.stroke();
    }

    /**
     * The model of {@code pdf}'s first page as a scan: printed to a 200 dpi grey image by pdftoppm and given its text
     * layer by Tesseract's own PDF renderer (as the kept OCR's ocrmypdf does), its ruled tables found as the service
     * finds them on an OCR'd page.
     */
    private static List<Element> scannedModel(Path pdf) throws Exception {
        Path dir = pdf.getParent();
        Independent.run("pdftoppm", "-r", "200", "-gray", "-png", "-singlefile", pdf.toString(), dir.resolve("scan").toString());
        Independent.run("env", "OMP_THREAD_LIMIT=1", "tesseract", dir.resolve("scan.png").toString(), dir.resolve("scan").toString(), "-l", "eng+ara", "pdf");
        try (PDDocument doc = Loader.loadPDF(dir.resolve("scan.pdf").toFile())) {
            List<Tabula.PdfTable> ruled = Lattice.tables(doc, Set.of(1)).tables().stream().filter(DocumentReader::tabular).toList();
            return DocumentReader.model(doc, ruled, Set.of(1), new ArrayList<>(), page -> { }).pages().getFirst().elements();
        }
    }

    /** What a test draws on its one page. */
    @FunctionalInterface
    private interface Drawing {
        void draw(PDPageContentStream cs) throws IOException;
    }

    /** A one-page PDF of {@code size} named {@code name} in a new temporary folder, with what {@code drawing} draws. */
    private static Path onePage(String name, PDRectangle size, Drawing drawing) throws IOException {
        Path pdf = Files.createTempDirectory("model-").resolve(name);
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(size);
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                drawing.draw(cs);
            }
            doc.save(pdf.toFile());
        }
        return pdf;
    }

    /** What a test draws on its one page with a CJK font. */
    @FunctionalInterface
    private interface CjkDrawing {
        void draw(PDPageContentStream cs, PDFont cjk) throws IOException;
    }

    /**
     * A one-page A4 PDF named {@code name} in a new temporary folder, drawn by {@code drawing} with WenQuanYi Zen Hei (a
     * TrueType CJK font with Hangul, Debian's fonts-wqy-zenhei, which scripts/install-deps installs).
     */
    private static Path cjkPage(String name, CjkDrawing drawing) throws IOException {
        Path font = Path.of("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(font), "fonts-wqy-zenhei is installed");
        Path pdf = Files.createTempDirectory("cjk-").resolve(name);
        try (PDDocument doc = new PDDocument(); TrueTypeCollection ttc = new TrueTypeCollection(font.toFile())) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType0Font cjk = PDType0Font.load(doc, ttc.getFontByName("WenQuanYiZenHei"), true);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                drawing.draw(cs, cjk);
            }
            doc.save(pdf.toFile());
        }
        return pdf;
    }

    /** {@code html} printed to PDF by headless Chromium (as a user's browser prints a page, without its header and footer). */
    private static Path printed(String name, String html) throws Exception {
        Path dir = Files.createTempDirectory(name);
        Files.writeString(dir.resolve(name + ".html"), html);
        Independent.run("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                "--print-to-pdf=" + dir.resolve(name + ".pdf"), dir.resolve(name + ".html").toUri().toString());
        return dir.resolve(name + ".pdf");
    }

    private static String squeeze(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    /** The first words of a text, as they start the paragraph (before any line-end hyphen). */
    private static String start(String text, int words) {
        String[] w = squeeze(text).split(" ");
        return String.join(" ", List.of(w).subList(0, Math.min(words, w.length)));
    }

    @Test
    void aTwoColumnPageReadsColumnOneThenColumnTwo() throws Exception {
        Path pdf = corpus("pdf-text/two-column-paper-2p.pdf");
        DocumentModel model = model(pdf);
        // the columns below the title block, read by pdftotext from each half of the page on its own
        String left = squeeze(Independent.run("pdftotext", "-q", "-f", "1", "-l", "1", "-x", "0", "-y", "200", "-W", "297", "-H", "600", pdf.toString(), "-").output());
        String right = squeeze(Independent.run("pdftotext", "-q", "-f", "1", "-l", "1", "-x", "297", "-y", "200", "-W", "315", "-H", "600", pdf.toString(), "-").output());
        List<Character> columns = new ArrayList<>();
        for (Element e : model.pages().getFirst().elements()) {
            if (e.box().y() < 200 || e.text().length() < 20) continue;
            String start = start(e.text(), 3);
            boolean inLeft = left.contains(start), inRight = right.contains(start);
            if (inLeft != inRight) columns.add(inLeft ? 'L' : 'R');
        }
        assertThat(columns).as("columns of page 1's paragraphs in reading order").contains('L', 'R').isSorted();
        assertThat(columns.stream().filter(c -> c == 'L').count()).isGreaterThanOrEqualTo(2);
        assertThat(columns.stream().filter(c -> c == 'R').count()).isGreaterThanOrEqualTo(2);
        // the sentence that crosses lines in column 1 reads on, de-hyphenated
        assertThat(squeeze(model.pageText(1, false))).contains("Open-domain question answering relies on efficient passage retrieval to select candidate contexts");
        // the title is the title, the numbered sections are headings with their level
        assertThat(model.pages().getFirst().elements().getFirst()).satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.TITLE);
            assertThat(e.text()).isEqualTo("Dense Passage Retrieval for Open-Domain Question Answering");
        });
        List<Element> all = model.pages().stream().flatMap(p -> p.elements().stream()).toList();
        assertThat(all).anySatisfy(e -> {
            assertThat(e.text()).isEqualTo("3.1 Overview");
            assertThat(e.type()).isEqualTo(Type.HEADING);
            assertThat(e.level()).isEqualTo(2);
        });
        assertThat(all).filteredOn(e -> e.text().equals("1 Introduction")).singleElement().satisfies(e -> assertThat(e.level()).isEqualTo(1));
        assertThat(all).filteredOn(e -> e.text().startsWith("2For instance")).singleElement().satisfies(e -> assertThat(e.type()).isEqualTo(Type.FOOTNOTE));
        for (int i = 0; i < all.size(); i++) assertThat(all.get(i).index()).isEqualTo(i);
    }

    /**
     * A word set one letter per line (a text box one glyph wide, as PowerPoint and Word wrap it) reads as the word,
     * not a word per letter, and words so set with a line left empty between them (a slide's "Text in an odd shape")
     * as one text, spaced, its two-letter words too; option letters in a column ("A", "B", "C") and a letter typed on
     * every line stay lines.
     */
    @Test
    void lettersStackedOnePerLineAreOneWord() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("stacked.pdf", PDRectangle.LETTER, cs -> {
            show(cs, font, 11, 72, 720, "The box on the right holds one word, wrapped after every letter.");
            stack(cs, font, 450, 690, "Vertical");
            for (int i = 0; i < 3; i++) show(cs, font, 11, 72, 560 - 13 * i, String.valueOf((char) ('A' + i)));
            for (int i = 0; i < 4; i++) show(cs, font, 11, 72, 480 - 13 * i, "w");
            stack(cs, font, 450, 420, "Text in an odd shape");
        });
        List<String> texts = model(pdf).pages().getFirst().elements().stream().map(e -> squeeze(e.text())).toList();
        assertThat(texts).contains("Vertical", "Text in an odd shape").doesNotContain("V e r t i c a l");
        assertThat(String.join(" ", texts)).contains("A B C").contains("w w w w");
    }

    /** {@code text} in 11 pt a character a line down from ({@code x}, {@code y}), 13 pt apart; a space leaves its line empty. */
    private static void stack(PDPageContentStream cs, PDFont font, float x, float y, String text) throws IOException {
        for (char c : text.toCharArray()) {
            if (c != ' ') show(cs, font, 11, x, y, String.valueOf(c));
            y -= 13;
        }
    }

    /**
     * Word's second-level bullet is a Courier "o" set apart by a tab: a nested list item of its own, not the end of the
     * item above; an "o" that starts a line of Portuguese, a space after it, stays a word of its paragraph.
     */
    @Test
    void wordsLetterOBulletIsANestedItem() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font courier = new PDType1Font(Standard14Fonts.FontName.COURIER);
        Path pdf = onePage("o-bullet.pdf", PDRectangle.LETTER, cs -> {
            show(cs, font, 11, 72, 720, "Before the list comes a sentence that introduces it to the reader.");
            show(cs, font, 11, 90, 700, "\u2022");
            show(cs, font, 11, 108, 700, "Some italic bold underline");
            show(cs, courier, 11, 126, 686, "o");
            show(cs, font, 11, 143, 686, "Nested italic bold");
            show(cs, font, 11, 72, 650, "O autor escreveu que quem comprou ontem");
            show(cs, font, 11, 72, 636, "o livro leu todas as suas páginas numa noite.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(e -> squeeze(e.text()))
                .containsExactly("Some italic bold underline", "Nested italic bold");
        assertThat(elements).filteredOn(e -> squeeze(e.text()).equals("Nested italic bold")).singleElement()
                .satisfies(e -> {
                    assertThat(e.marker()).isEqualTo("\u25E6");
                    assertThat(e.level()).isEqualTo(2);
                });
        assertThat(elements).anySatisfy(e -> assertThat(squeeze(e.text()))
                .isEqualTo("O autor escreveu que quem comprou ontem o livro leu todas as suas páginas numa noite."));
    }

    /**
     * A sheet printed without grid lines (LibreOffice Calc's default): the header's cells stand closer than a gutter
     * ("Header1 Header2", 0.9 em apart) while the shorter cells under them stand apart at the same left edges; the
     * header is split at those edges and the whole is one table of 3 rows and 2 columns. A chart placed beside the
     * rows, its top between them, neither ends the table nor is lost: it follows the table.
     */
    @Test
    void aSheetsHeaderSetCloseIsSplitAtItsColumnsEdges() throws Exception {
        Path pdf = Files.createTempDirectory("sheet").resolve("sheet.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                String[][] rows = {{"Header1", "Header2"}, {"data1", "data2"}, {"data3", "data4"}};
                for (int r = 0; r < rows.length; r++) {
                    show(cs, font, 10, 55, 770 - 15 * r, rows[r][0]);
                    show(cs, font, 10, 103.1f, 770 - 15 * r, rows[r][1]);
                }
                java.awt.image.BufferedImage chart = new java.awt.image.BufferedImage(60, 48, java.awt.image.BufferedImage.TYPE_INT_RGB);
                cs.drawImage(LosslessFactory.createFromImage(doc, chart), 200, 700, 75, 60);
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.TABLE, Type.PICTURE);
        assertThat(elements.getFirst()).satisfies(e -> {
            assertThat(e.table().rows()).hasSize(3);
            assertThat(e.text()).isEqualTo("Header1\tHeader2\ndata1\tdata2\ndata3\tdata4");
        });
    }

    /**
     * A sheet whose first two columns stand only a word space or two apart in every row ("Widget A  2024-01-01"): the
     * dates start at one edge in every row, each set apart from the word before by more than the row's other spaces,
     * so the rows are cut there. The heads "Quantity" and "Revenue" stand 1 em apart over right-aligned numbers: the
     * gap between them lies in the rows' gutter, so they are two heads. One table of four columns.
     */
    @Test
    void cellsLittleApartInEveryRowAreCutAtTheirSharedEdge() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("sales.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 55, 770, "Product");
            show(cs, font, 10, 104, 770, "Date");
            show(cs, font, 10, 196, 770, "Quantity");
            show(cs, font, 10, 245.5f, 770, "Revenue");
            String[] products = {"Widget A", "Widget B", "Widget C", "Widget D"};
            String[] quantities = {"5", "10", "3", "12"};
            for (int r = 0; r < products.length; r++) {
                float y = 755 - 15 * r;
                show(cs, font, 10, 55, y, products[r]);
                show(cs, font, 10, 106.6f, y, "2024-01-0" + (r + 1) + " 0:00:00");
                // numbers right-aligned, as a sheet sets them
                show(cs, font, 10, 243.4f - 5.56f * quantities[r].length(), y, quantities[r]);
                show(cs, font, 10, 270, y, quantities[r] + "00");
            }
        });
        assertThat(model(pdf).pages().getFirst().elements()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.TABLE);
            assertThat(e.table().columns()).isEqualTo(4);
            assertThat(e.text()).startsWith("Product\tDate\tQuantity\tRevenue\nWidget A\t2024-01-01 0:00:00\t5\t500\n");
        });
    }

    /**
     * A sheet's small table at the top of its page, its first column headed "#" and its last holding titles of five
     * words: the "#" is a column head, not a page number (nor are the heads beside it a running header), and two long
     * titles do not make their column running text. One table of 3 rows and 4 columns, every word kept.
     */
    @Test
    void aSmallTableWithAHashHeadAndATitleColumnIsATable() throws Exception {
        Path pdf = Files.createTempDirectory("catalog").resolve("catalog.pdf");
        String[][] rows = {{"#", "Genre", "Sub-Genre", "Title"}, {"1", "Fiction", "Mystery", "The Hound of the Baskervilles"},
                {"2", "Non-fiction", "Science", "A Brief History of Time"}};
        float[] xs = {55, 88, 177, 266};
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                for (int r = 0; r < rows.length; r++) for (int c = 0; c < xs.length; c++) show(cs, font, 10, xs[c], 770 - 15 * r, rows[r][c]);
            }
            doc.save(pdf.toFile());
        }
        assertThat(model(pdf).pages().getFirst().elements()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.TABLE);
            assertThat(e.text()).isEqualTo("#\tGenre\tSub-Genre\tTitle\n1\tFiction\tMystery\tThe Hound of the Baskervilles\n"
                    + "2\tNon-fiction\tScience\tA Brief History of Time");
        });
    }

    /**
     * A table with no rules whose rows are each one text object, every cell's text ending in a space and the next cell
     * reached by moving the text position (as the ICDAR 2013 table competition's US reports draw theirs): PDFBox starts
     * no new word after a space glyph, so each row came as one word and the table as lines of prose. It is a table of
     * 4 rows and 4 columns, and the prose around it stays paragraphs.
     */
    @Test
    void aTableWhoseCellsEndInASpaceBeforeAMoveIsATable() throws Exception {
        String[][] rows = {{"", "1994 ", "1997 ", "2003 "}, {"Lowest ", "$9,594 or less ", "$22,400 or less ", "$34,000 or less "},
                {"Lower middle ", "$9,595–$17,992 ", "$22,401–$29,992 ", "$34,001–$48,000 "},
                {"Highest ", "Greater than $25,771 ", "Greater than $40,888 ", "Greater than $66,900 "}};
        float[] xs = {77, 185, 290, 395};
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        Path pdf = onePage("rows-as-text-objects.pdf", PDRectangle.LETTER, cs -> {
            show(cs, font, 10, 72, 700, "In current dollars, the ranges for each group are as follows: ");
            for (int r = 0; r < rows.length; r++) {
                cs.beginText();
                cs.setFont(font, 10);
                cs.newLineAtOffset(xs[0], 670 - 14 * r);
                for (int c = 0; c < xs.length; c++) {
                    if (c > 0) cs.newLineAtOffset(xs[c] - xs[c - 1], 0);
                    cs.showText(rows[r][c]);
                }
                cs.endText();
            }
            show(cs, font, 10, 72, 600, "In 1994, respondents reported the annual salary or rate of pay for the job they held in April 1994. ");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.PARAGRAPH, Type.TABLE, Type.PARAGRAPH);
        assertThat(elements.get(1).text()).isEqualTo("\t1994\t1997\t2003\nLowest\t$9,594 or less\t$22,400 or less\t$34,000 or less\n"
                + "Lower middle\t$9,595–$17,992\t$22,401–$29,992\t$34,001–$48,000\nHighest\tGreater than $25,771\tGreater than $40,888\tGreater than $66,900");
    }

    /**
     * A table with no rules whose rows are each one text object drawn out of order: a row's head and its last cell
     * first, then the figures between them, moving back left (as a US report's enrolment table draws its grades): PDFBox
     * read the last cell and the first figure as one word ("ungraded7"), which put the figures in the last column. The
     * figures stand in their own columns, in their order on the page.
     */
    @Test
    void aTableRowDrawnOutOfOrderReadsInItsColumns() throws Exception {
        String[][] rows = {{"Year ", "Grade 7 ", "Grade 8 ", "ungraded "}, {"1994 ", "235 ", "259 ", "12 "}, {"1995 ", "241 ", "262 ", "15 "},
                {"1996 ", "250 ", "270 ", "9 "}};
        float[] xs = {77, 185, 290, 395};
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        Path pdf = onePage("rows-drawn-out-of-order.pdf", PDRectangle.LETTER, cs -> {
            show(cs, font, 10, 72, 700, "Enrolment by grade in the district's schools, 1994 to 1996, was as follows: ");
            for (int r = 0; r < rows.length; r++) {
                cs.beginText();
                cs.setFont(font, 10);
                cs.newLineAtOffset(xs[0], 670 - 14 * r);
                cs.showText(rows[r][0]);
                cs.newLineAtOffset(xs[3] - xs[0], 0);
                cs.showText(rows[r][3]);
                cs.newLineAtOffset(xs[1] - xs[3], 0);
                cs.showText(rows[r][1]);
                cs.newLineAtOffset(xs[2] - xs[1], 0);
                cs.showText(rows[r][2]);
                cs.endText();
            }
            show(cs, font, 10, 72, 600, "The ungraded pupils are those in special classes, counted apart from the grades. ");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.PARAGRAPH, Type.TABLE, Type.PARAGRAPH);
        assertThat(elements.get(1).text()).isEqualTo("Year\tGrade 7\tGrade 8\tungraded\n1994\t235\t259\t12\n1995\t241\t262\t15\n1996\t250\t270\t9");
    }

    /**
     * A line whose subscripts are drawn after it, moving back left to each into the room left for it (as a US report's
     * formulas in running text): each subscript stands at its letter's side with no space, wherever it was drawn
     * ("BAF3", not "BAF 3" or the figures gathered at the line's end).
     */
    @Test
    void subscriptsDrawnAfterTheirLineStandAtTheirLetters() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String before = "A percentage-wise increase in BAF", between = " or FD", after = " will cause a less than proportional increase in WC.";
        float x = 72, y = 700, room = font.getStringWidth("3") * 6.5f / 1000;
        float bafEnd = x + font.getStringWidth(before) / 100, fdEnd = bafEnd + room + font.getStringWidth(between) / 100;
        Path pdf = onePage("subscripts-after-the-line.pdf", PDRectangle.LETTER, cs -> {
            cs.beginText();
            cs.setFont(font, 10);
            cs.newLineAtOffset(x, y);
            cs.showText(before);
            cs.newLineAtOffset(bafEnd + room - x, 0);
            cs.showText(between);
            cs.newLineAtOffset(fdEnd + room - (bafEnd + room), 0);
            cs.showText(after);
            cs.setFont(font, 6.5f);
            cs.newLineAtOffset(bafEnd - (fdEnd + room), -2);
            cs.showText("3");
            cs.newLineAtOffset(fdEnd - bafEnd, 0);
            cs.showText("3");
            cs.endText();
        });
        assertThat(model(pdf).pages().getFirst().elements()).extracting(Element::text)
                .containsExactly("A percentage-wise increase in BAF3 or FD3 will cause a less than proportional increase in WC.");
    }

    /**
     * An unruled table whose header row has a long head ("Weight of indicator in 2006"), whose groups have heads of
     * their own outdented left of the rows, and one of whose row heads is a long one ("Further studies (in higher
     * education)"), under a two-line caption whose label stands apart (as the ICDAR 2013 competition's EU reports set
     * theirs): one table from the header row to the last row, every group head a row, the caption before it.
     */
    @Test
    void aTablesLongHeadsAndItsGroupsHeadsAreItsRows() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"Effectiveness", null}, {"Employment", "40"}, {"Further studies (in higher education)", "15"},
                {"Processes", null}, {"Dropping out", "15"}, {"% ratio of qualification certificate holders to entrants", "13"},
                {"Staff", null}, {"Formal teaching qualifications", "11"}, {"Staff development", "6"}};
        Path pdf = onePage("grouped-rows.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 760, "When the funding index is calculated, indicators are assigned different weights of importance.");
            show(cs, font, 10, 72, 730, "Table 10:");
            show(cs, font, 10, 136, 730, "Indicators of performance-based funding for upper secondary vocational");
            show(cs, font, 10, 136, 718, "education and training in 2006");
            show(cs, font, 10, 185, 696, "Indicators");
            show(cs, font, 10, 371, 696, "Weight of indicator in 2006");
            for (int r = 0; r < rows.length; r++) {
                float y = 679 - 16.5f * r;
                show(cs, font, 10, rows[r][1] == null ? 76 : 92, y, rows[r][0]);
                if (rows[r][1] != null) show(cs, font, 10, 430, y, rows[r][1]);
            }
            show(cs, font, 10, 72, 500, "Source: Finnish National Board of Education, 2006.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        Element table = elements.stream().filter(e -> e.type() == Type.TABLE).findFirst().orElseThrow();
        assertThat(elements.stream().filter(e -> e.type() == Type.TABLE)).hasSize(1);
        assertThat(table.text()).isEqualTo("Indicators\tWeight of indicator in 2006\nEffectiveness\t\nEmployment\t40\n"
                + "Further studies (in higher education)\t15\nProcesses\t\nDropping out\t15\n"
                + "% ratio of qualification certificate holders to entrants\t13\nStaff\t\nFormal teaching qualifications\t11\nStaff development\t6");
        assertThat(elements.indexOf(table)).isGreaterThan(elements.indexOf(elements.stream()
                .filter(e -> e.text().contains("Indicators of performance-based")).findFirst().orElseThrow()));
    }

    /**
     * A table ruled only between its rows, each row one box across the whole table, its cells a gutter apart in the box
     * and some of them no-break spaces only: Tabula reads one column of whole rows. Its columns come from the
     * alignment of its text: one table of 4 rows and 4 columns, the blank cells blank.
     */
    @Test
    void aTableOfOneBoxARowHasTheColumnsOfItsText() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"District Totals", "FY 2009", "FY 2010", "FY 2011"}, {"Defendants Charged", "235", "259", "215"},
                {"Cases Charged", "173", "177", "\u00a0"}, {"No Prison Term", "126", "121", "102"}};
        float[] xs = {110, 250, 330, 410};
        Path pdf = onePage("row-boxes.pdf", PDRectangle.LETTER, cs -> {
            show(cs, font, 10, 72, 720, "The table below gives the district's totals for each fiscal year since 2009.");
            for (int r = 0; r < rows.length; r++) {
                float top = 690 - 20 * r;
                cs.addRect(100, top - 20, 380, 20);
                cs.stroke();
                for (int c = 0; c < xs.length; c++) show(cs, font, 10, xs[c], top - 14, rows[r][c]);
            }
            show(cs, font, 10, 72, 580, "Sentences of more than 60 months in prison were rare in every year.");
        });
        List<Element> elements;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            elements = DocumentReader.model(doc, lattice(pdf).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().getFirst().elements();
        }
        assertThat(elements).extracting(Element::type).containsExactly(Type.PARAGRAPH, Type.TABLE, Type.PARAGRAPH);
        assertThat(elements.get(1).text()).isEqualTo("District Totals\tFY 2009\tFY 2010\tFY 2011\nDefendants Charged\t235\t259\t215\n"
                + "Cases Charged\t173\t177\t\nNo Prison Term\t126\t121\t102");
    }

    /**
     * A table over a page background cut in strips across the page (as the ICDAR 2013 set's EU reports draw theirs),
     * its row heads ranges of quarters ("Q2 2006 – Q1 2010**", five words but no prose): the strips are a background,
     * not pictures among the cells, and the row heads are cells. One table of 4 rows and 4 columns.
     */
    @Test
    void aTableOverABackgroundCutInStripsWithRangesForRowHeadsIsATable() throws Exception {
        String[][] rows = {{"Differences with respect to Germany", "Portugal", "Spain", "France"}, {"Q2 2006 – Q1 2010**", "0.33", "0.31", "0.05"},
                {"Q1 2009 – Q4 2009", "-0.01", "0.21", "0.05"}, {"Q4 2009", "0.17", "0.26", "-0.01"}};
        float[] xs = {72, 280, 380, 475};
        Path pdf = Files.createTempDirectory("model-").resolve("strips.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            var strip = LosslessFactory.createFromImage(doc, new java.awt.image.BufferedImage(64, 10, java.awt.image.BufferedImage.TYPE_INT_RGB));
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                for (float y = 0; y < 842; y += 94) cs.drawImage(strip, 0, y, 595, 94);
                show(cs, font, 10, 72, 600, "Correlation coefficients of the spread and yield differences for selected European countries");
                for (int r = 0; r < rows.length; r++) for (int c = 0; c < xs.length; c++) show(cs, font, 9, xs[c], 580 - 15 * r, rows[r][c]);
                show(cs, font, 10, 72, 500, "From these results, it emerges that the relationship between the two markets has changed over time.");
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid())
                .containsExactly(List.of(rows[0]), List.of(rows[1]), List.of(rows[2]), List.of(rows[3])));
    }

    /**
     * A ruled table whose rules frame its header's cells and each column's body as one box, with no rules between its
     * rows (as the ICDAR 2013 set's EU reports draw theirs): each body line is a row, a blank where a column has no
     * line on its level, so also beside a group's label that has no figures. A ruled row of cells whose text wraps
     * beside one number stays one row.
     */
    @Test
    void aRuledTableWithoutRulesBetweenItsRowsHasItsRows() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] body = {{"Bulgaria", "2.3", "5.5"}, {"Cyprus", "0.21", "0.21"}, {"Czech Republic", "8.8", "22.2"}, {"Technical Assistance", "", "0.87"}};
        float[] xs = {100, 250, 350, 450};
        Path pdf = onePage("column-boxes.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 760, "The indicative amounts available to new Member States are summarised in the table below.");
            for (int c = 0; c < 3; c++) {
                cs.addRect(xs[c], 720, xs[c + 1] - xs[c], 20);
                cs.addRect(xs[c], 640, xs[c + 1] - xs[c], 80);
                show(cs, font, 10, xs[c] + 4, 726, new String[] {"Country", "Cohesion Fund", "Total"}[c]);
                for (int r = 0; r < body.length; r++) if (!body[r][c].isEmpty()) show(cs, font, 10, xs[c] + 4, 706 - 16 * r, body[r][c]);
            }
            // a second table: a row whose first cell wraps over three lines beside one number
            for (int c = 0; c < 2; c++) {
                cs.addRect(xs[c], 560, xs[c + 1] - xs[c], 20);
                cs.addRect(xs[c], 500, xs[c + 1] - xs[c], 60);
            }
            show(cs, font, 10, 104, 566, "Measure");
            show(cs, font, 10, 254, 566, "Amount");
            show(cs, font, 10, 104, 546, "Loans to small firms");
            show(cs, font, 10, 104, 532, "for energy savings in");
            show(cs, font, 10, 104, 518, "public buildings");
            show(cs, font, 10, 254, 546, "12.5");
            // a third: group rows ("Men", "Women") with no figure beside them
            String[][] groups = {{"Men", ""}, {"Under 30", "41%"}, {"30 and over", "59%"}, {"Women", ""}, {"Under 30", "38%"}, {"30 and over", "62%"}};
            for (int c = 0; c < 2; c++) {
                cs.addRect(xs[c], 460, xs[c + 1] - xs[c], 20);
                cs.addRect(xs[c], 360, xs[c + 1] - xs[c], 100);
                show(cs, font, 10, xs[c] + 4, 466, new String[] {"Group", "Share"}[c]);
                for (int r = 0; r < groups.length; r++) if (!groups[r][c].isEmpty()) show(cs, font, 10, xs[c] + 4, 446 - 14 * r, groups[r][c]);
            }
            cs.stroke();
        });
        List<Element> elements;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            elements = DocumentReader.model(doc, lattice(pdf).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().getFirst().elements();
        }
        List<Element> tables = elements.stream().filter(e -> e.type() == Type.TABLE).toList();
        assertThat(tables).hasSize(3);
        assertThat(tables.get(2).table().grid()).containsExactly(List.of("Group", "Share"), List.of("Men", ""), List.of("Under 30", "41%"),
                List.of("30 and over", "59%"), List.of("Women", ""), List.of("Under 30", "38%"), List.of("30 and over", "62%"));
        assertThat(tables.getFirst().table().grid()).containsExactly(List.of("Country", "Cohesion Fund", "Total"), List.of(body[0]),
                List.of(body[1]), List.of(body[2]), List.of(body[3]));
        assertThat(tables.get(1).table().grid()).containsExactly(List.of("Measure", "Amount"),
                List.of("Loans to small firms for energy savings in public buildings", "12.5"));
    }

    /**
     * A table without rules whose cells wrap over several lines (a report's table of definitions: a header of short
     * heads, then each row's head beside its definition and examples, each a few lines long, and groups' heads alone):
     * one table, each wrapped cell one cell, not three columns of running text. Two columns of prose whose
     * paragraphs start at other heights, under no header, stay paragraphs.
     */
    @Test
    void aTableWhoseCellsWrapIsATableAndTwoColumnsOfProseAreNot() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String[][] major = {{"Emissions of 10 tons per year", "or more of any one air toxic,", "or 25 tons per year or more"},
                {"Utilities, refineries, steel", "manufacturers, chemical", "manufacturers"}};
        String[][] area = {{"Emissions of less than 10 tons", "per year of any one air toxic", "pollutant, or of any combination"},
                {"Dry cleaners, gas stations,", "auto body refinishing paint", "shops, electroplating"}};
        Path table = onePage("wrapped-cells.pdf", PDRectangle.LETTER, cs -> {
            show(cs, font, 10, 144, 690, "Table 1-1: Sources of Air Toxics");
            show(cs, font, 10, 150, 670, "Source");
            show(cs, font, 10, 300, 670, "Definition");
            show(cs, font, 10, 455, 670, "Examples");
            show(cs, font, 10, 150, 650, "Stationary:");
            show(cs, font, 10, 185, 630, "Major");
            show(cs, font, 10, 190, 580, "Area");
            for (int l = 0; l < 3; l++) {
                show(cs, font, 10, 246, 630 - 11 * l, major[0][l]);
                show(cs, font, 10, 411, 630 - 11 * l, major[1][l]);
                show(cs, font, 10, 246, 580 - 11 * l, area[0][l]);
                show(cs, font, 10, 411, 580 - 11 * l, area[1][l]);
            }
        });
        List<Element> elements = model(table).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid())
                .containsExactly(List.of("Source", "Definition", "Examples"), List.of("Stationary:", "", ""),
                        List.of("Major", String.join(" ", major[0]), String.join(" ", major[1])),
                        List.of("Area", String.join(" ", area[0]), String.join(" ", area[1]))));

        String[] left = {"The wardens counted the ducks on every lake", "of the county, as each year since the count", "began in the spring of that year.",
                "Most lakes held fewer birds than a decade", "ago, and the smallest held none at all."};
        String[] right = {"Volunteers walked the shores at dawn and", "wrote down each bird they saw, with the", "time and the weather.",
                "The results go to the national survey, which", "publishes them every autumn."};
        Path prose = onePage("two-columns.pdf", PDRectangle.LETTER, cs -> {
            for (int l = 0; l < 5; l++) {
                show(cs, font, 10, 72, 700 - 12 * l - (l >= 3 ? 8 : 0), left[l]);
                show(cs, font, 10, 320, 706 - 12 * l - (l >= 3 ? 14 : 0), right[l]);
            }
        });
        assertThat(model(prose).pages().getFirst().elements()).extracting(Element::type).containsOnly(Type.PARAGRAPH);
    }

    /**
     * A table whose row heads wrap over two lines, each row's numbers set level with the middle of its head: one
     * table, each number in its head's row.
     */
    @Test
    void aTablesNumbersBesideTheMiddleOfTheirTwoLineHeadsAreTheirRows() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String[][] heads = {{"Between-state income inequality", "(Gini index)"}, {"Premature mortality (years of", "potential life lost before age 75)"},
                {"Mean Health and Activities", "Limitation Index, ages 18-65"}};
        String[][] numbers = {{"0.0628", "0.0636"}, {"7108.3", "6960.6"}, {"0.8766", "0.8762"}};
        Path pdf = onePage("two-line-heads.pdf", PDRectangle.LETTER, cs -> {
            show(cs, font, 8, 45, 720, "TABLE. Inequality in income, premature mortality and quality of life, 1997-1998");
            show(cs, font, 8, 260, 704, "Year");
            show(cs, font, 8, 45, 690, "Inequality measure");
            show(cs, font, 8, 240, 690, "1997");
            show(cs, font, 8, 290, 690, "1998");
            for (int r = 0; r < heads.length; r++) {
                float top = 670 - 24 * r;
                show(cs, font, 8, 45, top, heads[r][0]);
                show(cs, font, 8, 45, top - 9, heads[r][1]);
                show(cs, font, 8, 236, top - 4.5f, numbers[r][0]);
                show(cs, font, 8, 286, top - 4.5f, numbers[r][1]);
            }
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid())
                .containsExactly(List.of("Inequality measure", "1997", "1998"),
                        List.of(String.join(" ", heads[0]), numbers[0][0], numbers[0][1]),
                        List.of(String.join(" ", heads[1]), numbers[1][0], numbers[1][1]),
                        List.of(String.join(" ", heads[2]), numbers[2][0], numbers[2][1])));
    }

    /**
     * An unruled table whose header sets each year centred over its pair of columns ("2007" over "N" and "% Pos"): the
     * year spans both (Markdown repeats it in each, as Docling writes a merged cell).
     */
    @Test
    void aYearCentredOverItsPairOfColumnsSpansThem() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"Country", "Sample size", "N", "% Pos", "N", "% Pos"}, {"Austria", "25g", "109", "0.9", "93", "1.1"},
                {"Germany", "25g", "123", "0.8", "290", "0.7"}, {"Spain", "25g", "36", "0", "40", "0"}};
        float[] xs = {90, 160, 250, 290, 350, 390};
        Path pdf = onePage("pairs.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 9, 277, 700, "2007");
            show(cs, font, 9, 377, 700, "2006");
            for (int r = 0; r < rows.length; r++) for (int c = 0; c < xs.length; c++) show(cs, font, 9, xs[c], 686 - 13 * r, rows[r][c]);
        });
        assertThat(model(pdf).pages().getFirst().elements()).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> {
            assertThat(t.table().rows().getFirst()).extracting(DocumentModel.Cell::text, DocumentModel.Cell::colSpan)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("", 1), org.assertj.core.groups.Tuple.tuple("", 1),
                            org.assertj.core.groups.Tuple.tuple("2007", 2), org.assertj.core.groups.Tuple.tuple("2006", 2));
            assertThat(t.table().grid().get(1)).containsExactly(rows[0]);
        });
    }

    /**
     * Two line charts side by side, drawn in vector paths, their axes' tick labels level with each other's ("300" beside
     * "300", "Jan-08" under both): labels of the figures, not a table of numbers. A table of words and numbers drawn
     * under them is a table.
     */
    @Test
    void twoChartsLabelsSideBySideAreNoTable() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("charts.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 780, "Figures 15 and 16 show the spreads of two countries against Germany since 2008.");
            for (float x0 : new float[] {100, 320}) {
                show(cs, font, 7, x0 + 40, 750, "Diff 5-y CDS spread");
                for (int t = 0; t <= 6; t++) {
                    float y = 600 + 20 * t;
                    show(cs, font, 6, x0 - 14, y - 2, String.valueOf(50 * t));
                    cs.moveTo(x0, y);
                    cs.lineTo(x0 + 180, y);
                    cs.stroke();
                }
                cs.moveTo(x0, 600);
                cs.lineTo(x0, 720);
                cs.stroke();
                cs.moveTo(x0, 610);
                cs.curveTo(x0 + 60, 700, x0 + 120, 640, x0 + 180, 690);
                cs.stroke();
                String[] months = {"Jan-08", "Jul-08", "Jan-09", "Jul-09"};
                for (int m = 0; m < months.length; m++) show(cs, font, 6, x0 + 50 * m, 590, months[m]);
            }
            String[][] rows = {{"Country", "2008", "2009"}, {"Portugal", "0.33", "0.51"}, {"Spain", "0.31", "0.21"}, {"Italy", "0.18", "0.18"}};
            for (int r = 0; r < rows.length; r++) for (int c = 0; c < 3; c++) show(cs, font, 10, 100 + 120 * c, 520 - 15 * r, rows[r][c]);
        });
        List<Element> tables = model(pdf).pages().getFirst().elements().stream().filter(e -> e.type() == Type.TABLE).toList();
        assertThat(tables).singleElement().satisfies(t -> assertThat(t.table().grid().getFirst()).containsExactly("Country", "2008", "2009"));
    }

    /**
     * A filled form (Acrobat): each field's value is a form field element right after its label, in the box where
     * poppler (which draws the widgets' appearances) reads the value's words; checkboxes and radio buttons read ☑ or ☐
     * as PDFBox's form reads their state.
     */
    @Test
    void aFormsValuesStandBesideTheirLabels() throws Exception {
        Path pdf = corpus("pdf-text/form-filled-by-acrobat-3p.pdf");
        DocumentModel model = model(pdf);
        List<Element> page1 = model.pages().getFirst().elements();
        Element value = page1.stream().filter(e -> e.type() == Type.FORM_FIELD && "Text Box 1".equals(e.field())).findFirst().orElseThrow();
        assertThat(value.text()).isEqualTo("abc potato");
        assertThat(page1.get(page1.indexOf(value) - 1).text()).as("the element before the value: its label").isEqualTo("Text Field");
        DocumentModel.Box box = value.box();
        assertThat(PopplerWords.of(pdf).pages().getFirst().textWithin(box.x(), box.y(), box.width(), box.height())).isEqualTo("abc potato");

        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            for (String name : List.of("Check Box 1", "Check Box 2", "Check Box 3")) {
                Element box2 = page1.stream().filter(e -> name.equals(e.field())).findFirst().orElseThrow();
                assertThat(box2.text()).as(name).isEqualTo(((PDCheckBox) form.getField(name)).isChecked() ? "☑" : "☐");
                // the label right of the box follows it
                assertThat(page1.get(page1.indexOf(box2) + 1).text()).isEqualTo(name.replace(" 1", ""));
            }
        }
        // radio buttons: one of three on, each before its label
        assertThat(page1.stream().filter(e -> "r1".equals(e.field())).map(Element::text).toList()).containsExactly("☑", "☐", "☐");
        // the text for models and extract-text: label and value on one line, as printed
        String text = model.pageText(1, false);
        assertThat(text).contains("Text Field abc potato").contains("☑ Check Box 2").contains("☐ Check Box 3");
        assertThat(text.indexOf("Where’s my form?")).isLessThan(text.indexOf("Text Field abc potato"));
        assertThat(text.indexOf("Text Field abc potato")).isLessThan(text.indexOf("Other stuff."));
        assertThat(model.pageText(3, false)).contains("Potato salad πʬ xyz");
    }

    /** On a page turned by /Rotate, a value's box is where poppler (displayed coordinates) reads its words. */
    @Test
    void aFormValueOnATurnedPageIsBoxedAsThePageIsSeen() throws Exception {
        for (int rotation : new int[] {90, 270}) {
            Path turned = Files.createTempFile("turned-form-", ".pdf");
            try (PDDocument doc = Loader.loadPDF(corpus("pdf-text/libreoffice-form.pdf").toFile())) {
                doc.getPage(0).setRotation(rotation);
                doc.save(turned.toFile());
            }
            try {
                Element alice = model(turned).pages().getFirst().elements().stream().filter(e -> e.type() == Type.FORM_FIELD && e.text().equals("Alice"))
                        .findFirst().orElseThrow();
                DocumentModel.Box box = alice.box();
                assertThat(PopplerWords.of(turned).pages().getFirst().textWithin(box.x() - 1, box.y() - 1, box.width() + 2, box.height() + 2))
                        .as("rotation %d, box %s", rotation, box).isEqualTo("Alice");
            } finally {
                Files.delete(turned);
            }
        }
    }

    @Test
    void aRunningHeaderAndItsPageNumberAreKeptApart() throws Exception {
        Path pdf = corpus("pdf-text/geotopo-117p-linearized-links.pdf");
        DocumentModel model = model(pdf);
        for (int page = 18; page <= 20; page++) {
            // pdftotext's layout: the page's first line is its printed number and the section's running title
            String first = Independent.run("pdftotext", "-q", "-layout", "-f", "" + page, "-l", "" + page, pdf.toString(), "-").output()
                    .lines().filter(l -> !l.isBlank()).findFirst().orElseThrow().strip();
            String number = first.split("\\s+")[0];
            String title = squeeze(first.substring(number.length()));
            List<Element> elements = model.pages().get(page - 1).elements();
            assertThat(elements).as("page %d", page).anySatisfy(e -> {
                assertThat(e.text()).isEqualTo(number);
                assertThat(e.type()).isEqualTo(Type.PAGE_NUMBER);
            });
            assertThat(elements).as("page %d", page).anySatisfy(e -> {
                assertThat(e.text()).isEqualTo(title);
                assertThat(e.type()).isEqualTo(Type.PAGE_HEADER);
            });
            assertThat(model.pageText(page, false).lines().map(String::strip).toList()).doesNotContain(number, title);
            assertThat(model.pageText(page, true)).startsWith(number);
        }
        // a LaTeX article's page numbers, at the foot of A4 pages, as pdftotext's last line of each page reads
        Path article = corpus("pdf-text/pdflatex-4-pages-objstm.pdf");
        DocumentModel four = model(article);
        for (int page = 1; page <= 4; page++) {
            String last = Independent.pdftotext(article, page, page).lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElseThrow().strip();
            assertThat(four.pages().get(page - 1).elements().getLast()).satisfies(e -> {
                assertThat(e.text()).isEqualTo(last);
                assertThat(e.type()).isEqualTo(Type.PAGE_NUMBER);
            });
        }
        // the section heading itself, in the body of page 18, is a heading, not a header
        assertThat(model.pages().get(17).elements()).anySatisfy(e -> {
            assertThat(e.text()).endsWith("1.5 Kompaktheit");
            assertThat(e.type()).isEqualTo(Type.HEADING);
        });
    }

    /**
     * A figure's axis labels drawn out of order ("R" then "0" back at the axis's start, one PDFBox word) stay as they
     * were read, and the numbered list above the figure keeps each item's second line (geotopo's page 14: its items
     * "2)" and "3)" ended at their first line once the label was cut in two).
     */
    @Test
    void aFiguresLabelsDrawnOutOfOrderLeaveTheListAboveWhole() throws Exception {
        List<Element> elements = model(corpus("pdf-text/geotopo-117p-linearized-links.pdf")).pages().get(13).elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(Element::text)
                .anySatisfy(t -> assertThat(squeeze(t)).startsWith("Ist (Y,TY ) trivialer topologischer Raum").endsWith("f : X → Y stetig."))
                .anySatisfy(t -> assertThat(squeeze(t)).startsWith("Ist X diskreter topologischer Raum").endsWith("Raum Y und jede Abbildung f ."));
    }

    /**
     * A page that is one ruled table (a spreadsheet's or a report's print) has its running header and page number as
     * the other pages do: apart from its text, not paragraphs of it (a held-out sheet's "Page 3" read as text).
     */
    @Test
    void aPageOfOneTableKeepsItsRunningHeaderAndPageNumberApart() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("report.pdf");
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        try (PDDocument doc = new PDDocument()) {
            for (int p = 1; p <= 3; p++) {
                PDPage page = new PDPage(PDRectangle.LETTER);
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    show(cs, font, 9, 250, 750, "Quarterly sales report");
                    show(cs, font, 9, 290, 30, "Page " + p);
                    if (p == 2) {
                        float[] xs = {72, 200, 320, 440};
                        float[] ys = {700, 680, 660, 640, 620};
                        grid(cs, xs, ys);
                        String[][] rows = {{"Region", "Units", "Revenue"}, {"North", "1200", "48000"}, {"South", "950", "38000"}, {"West", "1430", "57200"}};
                        for (int r = 0; r < rows.length; r++) {
                            for (int c = 0; c < 3; c++) show(cs, font, 10, xs[c] + 4, ys[r] - 14, rows[r][c]);
                        }
                    } else {
                        show(cs, font, 10, 72, 700, "Sales grew in every region this quarter, led by the West, where two new stores opened.");
                        show(cs, font, 10, 72, 686, "The table on the next page gives each region's units and revenue for the quarter.");
                    }
                }
            }
            doc.save(pdf.toFile());
        }
        DocumentModel model;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            model = DocumentReader.model(doc, lattice(pdf).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { });
        }
        for (int p = 1; p <= 3; p++) {
            assertThat(model.pages().get(p - 1).elements()).as("page %d", p)
                    .anySatisfy(e -> assertThat(e.type()).isEqualTo(Type.PAGE_HEADER))
                    .anySatisfy(e -> assertThat(e.type()).isEqualTo(Type.PAGE_NUMBER));
            assertThat(model.pageText(p, false)).as("page %d", p).doesNotContain("Page " + p).doesNotContain("Quarterly sales report");
        }
        assertThat(model.pages().get(1).elements()).extracting(Element::type).containsExactly(Type.PAGE_HEADER, Type.TABLE, Type.PAGE_NUMBER);
        assertThat(Independent.pdftotext(pdf, 2, 2)).contains("Page 2", "Quarterly sales report", "Revenue");
    }

    /**
     * A sheet's title over a table whose columns are printed over two pages, drawn on each page where it is centred
     * over the whole sheet (over the first band, then half off the second page's left edge): no running header, though
     * each page repeats it; it stays the document's text.
     */
    @Test
    void aSheetsTitleCutOverTwoPagesIsNoRunningHeader() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("sheet.pdf");
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][][] parts = {{{"#", "Genre", "Title"}, {"1", "Fiction", "The Hound of the Baskervilles"}, {"2", "Science", "A Brief History of Time"}},
                {{"Author", "Publisher", "Added"}, {"Arthur Conan Doyle", "George Newnes", "1902"}, {"Stephen Hawking", "Bantam Books", "1988"}}};
        try (PDDocument doc = new PDDocument()) {
            for (int p = 0; p < 2; p++) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    // centred over the whole sheet: over the first page's band, then half off the second page's left
                    show(cs, font, 10, p == 0 ? 460 : -20, 800, "Reading List");
                    float[] xs = {40, 200, 360, 555};
                    float[] ys = {760, 744, 728, 712};
                    grid(cs, xs, ys);
                    for (int r = 0; r < 3; r++) {
                        for (int c = 0; c < 3; c++) show(cs, font, 10, xs[c] + 3, ys[r] - 12, parts[p][r][c]);
                    }
                }
            }
            doc.save(pdf.toFile());
        }
        DocumentModel model;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            model = DocumentReader.model(doc, lattice(pdf).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { });
        }
        assertThat(model.pages().getFirst().elements()).anySatisfy(e -> {
            assertThat(e.text()).isEqualTo("Reading List");
            assertThat(e.type().furniture()).isFalse();
        });
        assertThat(model.pageText(1, false)).contains("Reading List");
    }

    /**
     * A born-digital form's checkboxes drawn as paths (no glyph): a stroked square before its option is {@code ☐}, one
     * filled dark or with a check drawn inside is {@code ☒}, in running text and in a ruled table's cell; in Arabic the
     * box stands right of its option and still leads it. A filled square with no outline (a legend key) and a box with
     * a letter inside (a field of letter boxes) are no checkbox.
     */
    @Test
    void drawnCheckboxesReadBeforeTheirOptions() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("drawn-boxes.pdf");
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType0Font arabic = PDType0Font.load(doc, new File("/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf"));
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, font, 11, 72, 760, "Do you smoke?");
                box(cs, 72, 740, false);
                show(cs, font, 11, 88, 742, "Yes");
                box(cs, 130, 740, true);
                show(cs, font, 11, 146, 742, "No");
                // a check drawn as two strokes inside an empty box
                box(cs, 72, 720, false);
                cs.moveTo(74, 726);
                cs.lineTo(76, 722);
                cs.lineTo(81, 730);
                cs.stroke();
                show(cs, font, 11, 88, 722, "Sometimes");
                // a legend key: a filled square, no outline
                cs.addRect(72, 700, 9, 9);
                cs.fill();
                show(cs, font, 11, 88, 702, "Male");
                // a box holding a letter
                box(cs, 200, 700, false);
                show(cs, font, 9, 202, 702, "A");
                show(cs, font, 11, 216, 702, "Initial");
                // Arabic: "نعم" (yes) with its box on its right
                show(cs, arabic, 12, 300, 742, new StringBuilder("نعم").reverse().toString());
                box(cs, 325, 740, true);
                // a ruled table: "Agree" | box before "Fully"
                cs.addRect(72, 600, 300, 40);
                cs.moveTo(200, 600);
                cs.lineTo(200, 640);
                cs.moveTo(72, 620);
                cs.lineTo(372, 620);
                cs.stroke();
                show(cs, font, 11, 80, 625, "Agree");
                box(cs, 210, 623, false);
                show(cs, font, 11, 226, 625, "Fully");
                show(cs, font, 11, 80, 605, "Disagree");
                box(cs, 210, 603, true);
                show(cs, font, 11, 226, 605, "Strongly");
            }
            doc.save(pdf.toFile());
        }
        DocumentModel model;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            model = DocumentReader.model(doc, lattice(pdf).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { });
        }
        String text = model.pageText(1, true);
        assertThat(text).contains("☐ Yes", "☒ No", "☒ Sometimes", "☒ نعم").doesNotContain("☐ Male", "☒ Male", "☐ A", "☐ Initial", "☐ Do");
        assertThat(model.pages().getFirst().elements()).filteredOn(e -> e.type() == Type.TABLE).singleElement()
                .satisfies(t -> assertThat(t.table().grid()).containsExactly(List.of("Agree", "☐ Fully"), List.of("Disagree", "☒ Strongly")));
    }

    /** A 9 pt square outline with its lower-left corner at ({@code x}, {@code y}), filled dark when {@code ticked}. */
    private static void box(PDPageContentStream cs, float x, float y, boolean ticked) throws IOException {
        cs.addRect(x, y, 9, 9);
        if (ticked) {
            cs.setNonStrokingColor(0.1f, 0.1f, 0.1f);
            cs.fillAndStroke();
            cs.setNonStrokingColor(0f, 0f, 0f);
        } else {
            cs.stroke();
        }
    }

    /**
     * Bullets from a font whose metrics are stated for vertical writing (a CJK "-VK" font: its glyphs 1.8 em high by
     * its bounding box, ascent and cap height) reached into the line above: "Symptoms:＊" over "Fever", one item. Each
     * bullet leads its own item.
     */
    @Test
    void bulletsFromAFontWithTallMetricsLeadTheirOwnItems() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("tall-bullets.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType0Font tall = PDType0Font.load(doc, new File("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"));
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, font, 12, 72, 760, "Symptoms to report:");
                String[] items = {"Fever", "Cough", "Headache", "Sore throat"};
                for (int i = 0; i < items.length; i++) {
                    float y = 742 - 17.4f * i;
                    show(cs, tall, 12, 72, y, "•");
                    show(cs, font, 12, 86, y, items[i]);
                }
            }
            // the metrics a vertical-writing font states: glyphs far taller than the em
            var descriptor = tall.getFontDescriptor();
            descriptor.setFontBoundingBox(new PDRectangle(-1000, -1880, 3000, 3760));
            descriptor.setAscent(1880);
            descriptor.setDescent(-1880);
            descriptor.setCapHeight(1800);
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(Element::text)
                .containsExactly("Fever", "Cough", "Headache", "Sore throat");
        assertThat(elements.getFirst().text()).isEqualTo("Symptoms to report:");
    }

    /**
     * A ruled table whose second column holds pictures (a product's photo beside its name; Word's "table with
     * pictures"): the picture's cell has content though no text, so rows of a name beside a photo are a table, the
     * photos' cells empty in it, not loose lines of text.
     */
    @Test
    void aRuledTableWithPicturesInItsCellsIsATable() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("pictures.pdf");
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            var photo = LosslessFactory.createFromImage(doc, new java.awt.image.BufferedImage(64, 64, java.awt.image.BufferedImage.TYPE_INT_RGB));
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, font, 10, 72, 760, "Our best sellers this spring, each with its photo.");
                float[] xs = {72, 300, 520};
                float[] ys = {740, 690, 640, 590};
                grid(cs, xs, ys);
                String[] names = {"Red mug", "Blue plate", "Green bowl"};
                for (int r = 0; r < names.length; r++) {
                    show(cs, font, 10, 76, ys[r] - 14, names[r]);
                    cs.drawImage(photo, 306, ys[r + 1] + 5, 40, 40);
                }
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            elements = DocumentReader.model(doc, lattice(pdf).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().getFirst().elements();
        }
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid())
                .containsExactly(List.of("Red mug", ""), List.of("Blue plate", ""), List.of("Green bowl", "")));
        assertThat(elements).filteredOn(e -> e.type() == Type.PICTURE).hasSize(3);
        assertThat(Independent.pdftotext(pdf)).contains("Green bowl");
    }

    /**
     * A Word table a page break cut after its header row: the row alone at the foot of page 1 (one ruled row, no table by
     * itself) is a table heading the one at the top of page 2, which goes on with it (same column edges); an icon in a
     * cell of the page-2 table is read after that table, not before it, so nothing stands between the two.
     */
    @Test
    void aHeaderRowAloneAtAPagesFootHeadsTheTableGoingOnOverleaf() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("cut.pdf");
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        float[] xs = {72, 300, 520};
        try (PDDocument doc = new PDDocument()) {
            PDPage first = new PDPage(PDRectangle.A4), second = new PDPage(PDRectangle.A4);
            doc.addPage(first);
            doc.addPage(second);
            var icon = LosslessFactory.createFromImage(doc, new java.awt.image.BufferedImage(64, 64, java.awt.image.BufferedImage.TYPE_INT_RGB));
            try (PDPageContentStream cs = new PDPageContentStream(doc, first)) {
                for (int i = 0; i < 40; i++) show(cs, font, 10, 72, 780 - 16 * i, "Line " + (i + 1) + " of the report that comes before the table of products.");
                grid(cs, xs, new float[] {80, 62});
                show(cs, font, 10, 76, 67, "Product");
                show(cs, font, 10, 304, 67, "Picture");
            }
            try (PDPageContentStream cs = new PDPageContentStream(doc, second)) {
                grid(cs, xs, new float[] {790, 750, 710});
                show(cs, font, 10, 76, 775, "Red mug");
                cs.drawImage(icon, 304, 755, 24, 24);
                show(cs, font, 10, 76, 735, "Blue plate");
                show(cs, font, 10, 304, 735, "none yet");
                show(cs, font, 10, 72, 680, "The products above ship in spring.");
            }
            doc.save(pdf.toFile());
        }
        List<Tabula.PdfTable> found = lattice(pdf);
        assertThat(found).filteredOn(t -> t.page() == 1).singleElement().satisfies(t -> assertThat(DocumentReader.tabular(t)).isFalse());
        DocumentModel model;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            model = DocumentReader.model(doc, DocumentReader.tables(found, doc), Set.of(), new ArrayList<>(), p -> { });
        }
        Element head = model.pages().getFirst().elements().getLast();
        assertThat(head.type()).isEqualTo(Type.TABLE);
        assertThat(head.table().grid()).containsExactly(List.of("Product", "Picture"));
        List<Element> overleaf = model.pages().get(1).elements();
        assertThat(overleaf).extracting(Element::type).containsExactly(Type.TABLE, Type.PICTURE, Type.PARAGRAPH);
        assertThat(overleaf.getFirst().table().grid()).containsExactly(List.of("Red mug", ""), List.of("Blue plate", "none yet"));
        assertThat(overleaf.getFirst().box().x()).isCloseTo(head.box().x(), within(1f));
        assertThat(overleaf.getFirst().box().right()).isCloseTo(head.box().right(), within(1f));
        assertThat(Independent.pdftotext(pdf)).contains("Product", "Blue plate");
    }

    /**
     * A table ruled around its column groups only (a statistics table: "2023" over "Q1" and "Q2", their figures side by
     * side in one ruled box per row, no rule between them) has a column for each figure: the group's head spans its
     * two columns, over a row of the sub-heads; a column of one text per box is left whole.
     */
    @Test
    void figuresSideBySideInOneRuledBoxAreColumnsOfTheirOwn() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("groups.pdf");
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"North", "12", "15", "18", "21"}, {"South", "1,204", "987", "1,310", "1,066"}, {"East", "7", "9", "11", "8"},
                {"West", "340", "355", "372", "390"}};
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, font, 10, 72, 780, "Sales by region and quarter, in units.");
                float[] xs = {72, 170, 330, 490};
                float[] ys = {760, 720, 700, 680, 660, 640};
                grid(cs, xs, ys);
                show(cs, font, 10, 76, 738, "Region");
                for (int g = 0; g < 2; g++) {
                    float left = xs[g + 1];
                    show(cs, font, 10, left + 66, 748, g == 0 ? "2023" : "2024");
                    show(cs, font, 10, left + 30, 728, "Q1");
                    show(cs, font, 10, left + 110, 728, "Q2");
                }
                for (int r = 0; r < rows.length; r++) {
                    float base = ys[r + 1] - 14;
                    show(cs, font, 10, 76, base, rows[r][0]);
                    for (int c = 1; c < 5; c++) {
                        float right = xs[(c + 1) / 2] + ((c % 2 == 1) ? 60 : 140);
                        show(cs, font, 10, right - font.getStringWidth(rows[r][c]) / 100, base, rows[r][c]);
                    }
                }
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            elements = DocumentReader.model(doc, lattice(pdf).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().getFirst().elements();
        }
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().filledGrid()).containsExactly(
                List.of("Region", "2023", "2023", "2024", "2024"), List.of("Region", "Q1", "Q2", "Q1", "Q2"), List.of("North", "12", "15", "18", "21"),
                List.of("South", "1,204", "987", "1,310", "1,066"), List.of("East", "7", "9", "11", "8"), List.of("West", "340", "355", "372", "390")));
        assertThat(Independent.pdftotext(pdf)).contains("1,310", "Q2");
    }

    /** A table as booktabs sets it: rules above, below the header and at the bottom only; or one rule under each row. */
    private static Path table(boolean everyRow) throws IOException {
        Path pdf = Files.createTempDirectory("booktabs").resolve(everyRow ? "row-ruled.pdf" : "booktabs.pdf");
        String[][] rows = {{"Team", "Code", "Cups", "Last won"}, {"Maple Leafs", "TOR", "13", "1967"}, {"Canadiens", "MTL", "24", "1993"},
                {"Red Wings", "DET", "11", "2008"}, {"Blues", "STL", "1", "2019"}};
        float[] xs = {72, 200, 280, 350};
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.setFont(font, 10);
                cs.beginText();
                cs.newLineAtOffset(72, 720);
                cs.showText("The teams with the most championships are listed in the table below, with the year of their last win.");
                cs.endText();
                float y = 680;
                cs.moveTo(70, y + 14);
                cs.lineTo(420, y + 14);
                cs.stroke();
                for (int r = 0; r < rows.length; r++) {
                    for (int c = 0; c < rows[r].length; c++) {
                        cs.beginText();
                        cs.newLineAtOffset(xs[c], y);
                        cs.showText(rows[r][c]);
                        cs.endText();
                    }
                    if (r == 0 || everyRow || r == rows.length - 1) {
                        cs.moveTo(70, y - 5);
                        cs.lineTo(420, y - 5);
                        cs.stroke();
                    }
                    y -= 18;
                }
                cs.beginText();
                cs.newLineAtOffset(72, y - 20);
                cs.showText("Every figure comes from the league's own records, checked against the newspapers of the time.");
                cs.endText();
            }
            doc.save(pdf.toFile());
        }
        return pdf;
    }

    @Test
    void aBooktabsTableAndARowRuledTableAreTables() throws Exception {
        for (boolean everyRow : new boolean[] {false, true}) {
            Path pdf = table(everyRow);
            DocumentModel model = model(pdf);
            List<Element> elements = model.pages().getFirst().elements();
            assertThat(elements).extracting(Element::type).as(pdf.getFileName().toString())
                    .containsExactly(Type.PARAGRAPH, Type.TABLE, Type.PARAGRAPH);
            DocumentModel.Table table = elements.get(1).table();
            assertThat(table.columns()).isEqualTo(4);
            assertThat(table.grid()).hasSize(5).contains(List.of("Maple Leafs", "TOR", "13", "1967"), List.of("Blues", "STL", "1", "2019"));
            // pdftotext reads the same cells
            String text = Independent.pdftotext(pdf);
            for (List<String> row : table.grid()) for (String cell : row) assertThat(text).contains(cell);
        }
    }

    @Test
    void twoColumnsOfRunningTextAreNotATable() throws Exception {
        DocumentModel model = model(corpus("pdf-text/two-column-paper-2p.pdf"));
        assertThat(model.pages().stream().flatMap(p -> p.elements().stream())).noneMatch(e -> e.type() == Type.TABLE);
    }

    /**
     * Ruled tables are found in this JVM from the page's own rulings ({@link Lattice}): Word's first ruled table on
     * word_tables.docx.pdf has its nine drawn cells in three rows of three, and each row's words stand in one line of
     * pdftotext -layout, in the cells' order. A text page, a circle and a triangle (a curve and three segments) and a
     * single drawn box hold no table.
     */
    @Test
    void ruledTablesAreFoundFromThePagesOwnRulings() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/word_tables.docx.pdf");
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            List<Tabula.PdfTable> found = Lattice.tables(doc, Set.of()).tables();
            assertThat(found).extracting(Tabula.PdfTable::page).contains(1, 2);
            Tabula.PdfTable first = found.getFirst();
            assertThat(first.cells()).hasSize(9);
            List<List<String>> rows = List.of(List.of("Header 0.0", "Header 0.1", "Header 0.2"), List.of("Cell 1.0", "Cell 1.1", "Cell 1.2"),
                    List.of("Cell 2.0", "Cell 2.1", "Cell 2.2"));
            assertThat(first.rows()).isEqualTo(rows);
            // three rows of three boxes side by side: the same tops within a row, the same lefts within a column
            List<Tabula.CellBox> cells = first.cells();
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    assertThat(cells.get(3 * r + c).top()).isCloseTo(cells.get(3 * r).top(), within(0.5f));
                    assertThat(cells.get(3 * r + c).left()).isCloseTo(cells.get(c).left(), within(0.5f));
                }
            }
            // the model's table reads the same cells
            DocumentModel model = DocumentReader.model(doc, found.stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { });
            assertThat(tables(model, 1).getFirst().grid()).isEqualTo(rows);
        }
        List<String> lines = Independent.run("pdftotext", "-q", "-layout", "-enc", "UTF-8", "-f", "1", "-l", "1", pdf.toString(), "-").output()
                .lines().map(String::strip).toList();
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("Header 0\\.0 +Header 0\\.1 +Header 0\\.2"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("Cell 1\\.0 +Cell 1\\.1 +Cell 1\\.2"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("Cell 2\\.0 +Cell 2\\.1 +Cell 2\\.2"));
        try (PDDocument doc = Loader.loadPDF(Path.of("bench/structure/pdf/lorem_ipsum.docx.pdf").toFile())) {
            assertThat(Lattice.tables(doc, Set.of()).tables()).isEmpty();
        }
        try (PDDocument doc = new PDDocument()) {
            PDFont font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDPage shapes = new PDPage();
            doc.addPage(shapes);
            try (PDPageContentStream cs = new PDPageContentStream(doc, shapes)) {
                show(cs, font, 11, 72, 700, "A circle and a triangle");
                cs.moveTo(300, 400);
                cs.curveTo(300, 455, 345, 500, 400, 500);
                cs.curveTo(455, 500, 500, 455, 500, 400);
                cs.lineTo(300, 400);
                cs.closePath();
                cs.stroke();
                cs.moveTo(100, 100);
                cs.lineTo(200, 100);
                cs.lineTo(150, 180);
                cs.lineTo(100, 100);
                cs.stroke();
            }
            PDPage box = new PDPage();
            doc.addPage(box);
            try (PDPageContentStream cs = new PDPageContentStream(doc, box)) {
                show(cs, font, 11, 72, 700, "A box");
                cs.addRect(72, 500, 200, 100);
                cs.stroke();
            }
            assertThat(Lattice.tables(doc, Set.of()).tables()).isEmpty();
        }
    }

    /**
     * Hostile pages are read for no table, in bounded time (this JVM has no page timeout to stop a pass): one whose
     * rulings cross more than {@value LatticeGrid#MAX_CROSSINGS} times (a 150 by 150 grid: 22,801 crossings, a drawing),
     * and the page that sends Tabula's clipping into an endless loop (a {@code cm} scaling by the largest float, one
     * oblique line: TabulaTest's).
     */
    @Test
    void hostilePagesAreReadForNoTableInBoundedTime() throws Exception {
        try (PDDocument doc = new PDDocument()) {
            // lines 6 pt apart: wider than a glyph, so that snapping to the text's smallest glyph keeps them apart
            PDPage page = new PDPage(new PDRectangle(1000, 1050));
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, new PDType1Font(Standard14Fonts.FontName.HELVETICA), 11, 50, 1000, "A hatching");
                for (int i = 0; i <= 150; i++) {
                    cs.moveTo(50 + 6 * i, 50);
                    cs.lineTo(50 + 6 * i, 950);
                    cs.moveTo(50, 50 + 6 * i);
                    cs.lineTo(950, 50 + 6 * i);
                }
                cs.stroke();
            }
            PDPage loop = new PDPage();
            doc.addPage(loop);
            try (PDPageContentStream cs = new PDPageContentStream(doc, loop)) {
                show(cs, new PDType1Font(Standard14Fonts.FontName.HELVETICA), 11, 72, 700, "A page whose rulings are out of all proportion");
                String huge = "340282346638528859811704183484516925440";
                cs.appendRawCommands(huge + " 0 0 " + huge + " 0 0 cm\n-0.433985736011608613793555377924349159002304077 0.5 m\n"
                        + "0.000000000000000000000000000000000002834420070 0.000000000000000000000000000000000001550341558 l S\n");
            }
            long start = System.nanoTime();
            Tabula.Tables found = Lattice.tables(doc, Set.of());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(found.tables()).isEmpty();
            // the hatching was not read for tables, and the job's note says so
            assertThat(found.note()).startsWith("Tables could not be detected on page 1 (its lines cross more than 20000 times)");
        }
    }

    /** The page's tables. */
    private static List<DocumentModel.Table> tables(DocumentModel model, int page) {
        return model.pages().get(page - 1).elements().stream().filter(e -> e.type() == Type.TABLE).map(Element::table).toList();
    }

    /**
     * A spreadsheet exported by LibreOffice: a table with no rules at all, its header left-aligned over right-aligned
     * numbers, under a one-line title. One table of 2 columns, the header its first row; pdftotext's layout reads each
     * row's two cells on one line.
     */
    @Test
    void anUnruledSheetTableIsATableWithItsHeaderRow() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/odf_table_with_title_01.ods.pdf");
        DocumentModel model = model(pdf);
        List<DocumentModel.Table> tables = tables(model, 1);
        assertThat(tables).hasSize(1);
        List<List<String>> grid = tables.getFirst().grid();
        assertThat(grid).hasSize(7).allSatisfy(row -> assertThat(row).hasSize(2));
        assertThat(grid.getFirst()).containsExactly("Year", "Freshwater Ducks");
        String layout = Independent.run("pdftotext", "-q", "-layout", pdf.toString(), "-").output();
        for (List<String> row : grid.subList(1, grid.size())) {
            assertThat(row.getFirst()).matches("20\\d\\d");
            assertThat(layout).containsPattern("(?m)^\\s*" + row.get(0) + "\\s+" + row.get(1) + "\\s*$");
        }
        assertThat(model.pages().getFirst().elements()).filteredOn(e -> e.type() == Type.PARAGRAPH).extracting(Element::text)
                .contains("Number of freshwater ducks per year").doesNotContain("Year", "2019");
    }

    /**
     * A table without rules whose widest figures stand closer than the gap that parts a line's segments (the last row's
     * "1,271.7" half an em after "208"): its figures still take their own columns, as the rows above show them, so
     * the row has a cell each. A dash for none is no list marker before the figure far right of it. The caption's
     * short last line, right above the header, is the caption's, not a group's head in the table.
     */
    @Test
    void closeSetFiguresOfAnUnruledTableKeepTheirColumns() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"Age", "no.", "Rate", "(95% CI)"}, {"45\u201354", "47", "21.8", "(16.0\u201329.0)"},
                {"55\u201364", "116", "85.5", "(69.9\u2013101.0)"}, {"65\u201374", "164", "234.9", "(199.0\u2013270.9)"},
                {"75\u201384", "242", "654.1", "(571.7\u2013736.5)"}, {"85+", "208", "1,271.7", "(1,098.9\u20131,444.5)"},
                {"Unknown", "\u2014", "\u2014", "(0.0\u20131.2)"}};
        float[] rights = {0, 200, 240, 330};
        Path pdf = onePage("close-figures.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 778, "Table 2. Deaths from coronary heart disease by age group, per 100,000, from the national");
            show(cs, font, 10, 72, 766, "Statistics, 2006");
            for (int r = 0; r < rows.length; r++) {
                float y = 750 - 16 * r;
                show(cs, font, 10, 72, y, rows[r][0]);
                for (int c = 1; c < 4; c++) show(cs, font, 10, rights[c] - font.getStringWidth(rows[r][c]) / 100, y, rows[r][c]);
            }
        });
        DocumentModel model = model(pdf);
        assertThat(tables(model, 1)).singleElement().satisfies(t -> assertThat(t.grid()).containsExactly(java.util.Arrays.stream(rows).map(List::of).toArray(List[]::new)));
        assertThat(model.pages().getFirst().elements()).extracting(Element::text).contains("Table 2. Deaths from coronary heart disease by age group, per 100,000, from the national\nStatistics, 2006");
        assertThat(Independent.pdftotext(pdf)).contains("1,271.7");
    }

    /**
     * A table without rules whose second header row sets a narrow unit ("$000") left over right-aligned figures wider
     * than it: one column under it, not a column of the unit's own beside one of the narrowest figures, which the
     * wider figures would span.
     */
    @Test
    void aNarrowHeadLeftOverRightAlignedFiguresIsTheirColumn() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"Loan type", "Amount", "Share"}, {"", "$000", "%"}, {"Mortgages", "4,151,000", "25.0"}, {"Consumer loans", "63,000", "0.4"},
                {"Construction", "361,000", "2.2"}, {"Leases", "3,508,000", "21.1"}};
        Path pdf = onePage("unit-head.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 780, "Loans by type at the end of the year.");
            for (int r = 0; r < rows.length; r++) {
                float y = 750 - 16 * r;
                if (!rows[r][0].isEmpty()) show(cs, font, 10, 72, y, rows[r][0]);
                if (r < 2) show(cs, font, 10, 195, y, rows[r][1]);
                else show(cs, font, 10, 250 - font.getStringWidth(rows[r][1]) / 100, y, rows[r][1]);
                show(cs, font, 10, 300 - font.getStringWidth(rows[r][2]) / 100, y, rows[r][2]);
            }
        });
        List<DocumentModel.Table> tables = tables(model(pdf), 1);
        assertThat(tables).singleElement().satisfies(t -> assertThat(t.grid()).containsExactly(java.util.Arrays.stream(rows).map(List::of).toArray(List[]::new)));
        assertThat(Independent.pdftotext(pdf)).contains("3,508,000");
    }

    /**
     * A one-page income statement without rules: its header of years right under the title (two numbers level in the
     * page's top fifth, no page number), line items wrapped over two lines with their figures on the last ("Revenue
     * from contracts with" over "customers  12,345  11,210"), a group's head alone, and figures in brackets. One table:
     * each wrapped line item one cell, the years its header, "(210)" a figure.
     */
    @Test
    void aStatementsWrappedLineItemsAreOneRowWithTheirFigures() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"", "2023", "2022"}, {"Revenue from contracts with|customers", "12,345", "11,210"},
                {"Cost of goods and services|sold", "(7,120)", "(6,540)"}, {"Gross profit", "5,225", "4,670"}, {"Expenses", "", ""},
                {"Selling and distribution|expenses", "(1,210)", "(1,100)"}, {"General and administrative|expenses", "(980)", "(930)"},
                {"Operating profit", "3,035", "2,640"}, {"Net finance costs on|borrowings", "(210)", "(190)"}, {"Profit before income tax", "2,825", "2,450"}};
        Path pdf = onePage("statement.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 780, "Consolidated income statement for the year ended 31 December, in thousands.");
            float y = 766;
            for (String[] row : rows) {
                y -= 16;
                String[] lines = row[0].split("\\|");
                for (int l = 0; l < lines.length; l++) {
                    if (l > 0) y -= 11;
                    show(cs, font, 10, l > 0 ? 80 : 72, y, lines[l]);
                }
                for (int c = 1; c < 3; c++) if (!row[c].isEmpty()) show(cs, font, 10, (c == 1 ? 420 : 500) - font.getStringWidth(row[c]) / 100, y, row[c]);
            }
        });
        DocumentModel model = model(pdf);
        List<List<String>> expected = java.util.Arrays.stream(rows).map(r -> List.of(r[0].replace('|', ' '), r[1], r[2])).toList();
        assertThat(tables(model, 1)).singleElement().satisfies(t -> assertThat(t.grid()).containsExactlyElementsOf(expected));
        assertThat(Independent.pdftotext(pdf)).contains("borrowings", "2022");
    }

    /**
     * Two years level with each other in the page's top fifth, under the title, are no page numbers (a page number
     * stands alone on its line, or beside a running header's text): they stay paragraphs.
     */
    @Test
    void yearsSideBySideAtThePagesTopAreNoPageNumbers() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("figures.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 780, "Summary of the year, in thousands of euros.");
            show(cs, font, 10, 300, 752, "2023");
            show(cs, font, 10, 400, 752, "2022");
            for (int i = 0; i < 6; i++) show(cs, font, 10, 72, 700 - 12 * i, "The year closed with revenue above the plan in every region we serve today.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).noneMatch(e -> e.type() == Type.PAGE_NUMBER);
        assertThat(elements).filteredOn(e -> e.type() == Type.PARAGRAPH).extracting(Element::text).contains("2023", "2022");
        assertThat(Independent.pdftotext(pdf)).contains("2022");
    }

    /**
     * Word's table without borders: a header row whose first cell is empty, bold row heads, a cell wrapped over two
     * lines. One table of 3 columns and 4 rows; the bold row heads are cells, not headings.
     */
    @Test
    void anUnruledWordTableKeepsItsRowHeadsAndWrappedCells() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/word_sample.docx.pdf");
        DocumentModel model = model(pdf);
        List<DocumentModel.Table> tables = tables(model, 2);
        assertThat(tables).hasSize(1);
        assertThat(tables.getFirst().grid()).containsExactly(List.of("", "Food", "Calories per portion"), List.of("Leaves", "Ash, Elm, Maple", "50"),
                List.of("Berries", "Blueberry, Strawberry, Cranberry", "150"), List.of("Grain", "Corn, Buckwheat, Barley", "200"));
        assertThat(model.pages().get(1).elements()).noneMatch(e -> e.type() == Type.HEADING && e.text().equals("Leaves"));
        // pdftotext's layout reads the one-line rows on one line each, in the same order
        String layout = squeeze(Independent.run("pdftotext", "-q", "-f", "2", "-l", "2", "-layout", pdf.toString(), "-").output());
        assertThat(layout).contains("Leaves Ash, Elm, Maple 50").contains("Grain Corn, Buckwheat, Barley 200");
    }

    /**
     * Two printed pages on one sheet, a questionnaire's list in the left half beside a table in the right half whose
     * rows share lines with it: the table holds only the right half's rows, the left half's list stays text.
     */
    @Test
    void aTableBesideAColumnOfTextTakesNoneOfItsLines() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/table_mislabeled_as_picture.pdf");
        DocumentModel model = model(pdf);
        DocumentModel.Page page = model.pages().getFirst();
        List<Element> tables = page.elements().stream().filter(e -> e.type() == Type.TABLE).toList();
        assertThat(tables).singleElement().satisfies(t -> {
            assertThat(t.box().x()).isGreaterThan(page.width() / 2);
            assertThat(t.table().grid()).anySatisfy(row -> assertThat(row).contains("Persons with disabilities"))
                    .allSatisfy(row -> assertThat(String.join(" ", row)).doesNotContain("Yes, at"));
        });
        // pdftotext of the left half reads the list the table must not take
        String left = squeeze(Independent.run("pdftotext", "-q", "-x", "0", "-y", "0", "-W", String.valueOf((int) (page.width() / 2)), "-H",
                String.valueOf((int) page.height()), pdf.toString(), "-").output());
        assertThat(left).contains("Yes, at regional (district) level");
        assertThat(model.pageText(1, false)).contains("Yes, at regional (district) level");
    }

    /**
     * A list as Word sets it: each multi-level number ("2.3.1.") or Symbol-font bullet a tab apart from its text. The
     * markers' column is no table column: the lines are list items, and a numbered heading set the same way is one
     * heading.
     */
    private static Path wordList() throws IOException {
        Path pdf = Files.createTempDirectory("word-list").resolve("word-list.pdf");
        String[][] items = {{"2.3.1.", "Hardware constraints"}, {"2.3.2.", "Software constraints"}, {"2.3.3.", "Network constraints"},
                {"2.3.4.", "Budget constraints"}};
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                float y = 720;
                for (String[] part : new String[][] {{"72", "1.1."}, {"108", "Section one"}}) {
                    show(cs, bold, 14, Float.parseFloat(part[0]), y, part[1]);
                }
                y -= 30;
                show(cs, font, 10, 72, y, "The constraints that bound the design are listed below, each with a section of its own.");
                y -= 24;
                for (String[] item : items) {
                    for (int c = 0; c < 2; c++) {
                        show(cs, font, 10, c == 0 ? 90 : 130, y, item[c]);
                    }
                    y -= 14;
                }
            }
            doc.save(pdf.toFile());
        }
        return pdf;
    }

    @Test
    void aWordListWithItsMarkersATabApartIsAListNotATable() throws Exception {
        Path pdf = wordList();
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.HEADING, Type.PARAGRAPH, Type.LIST_ITEM, Type.LIST_ITEM,
                Type.LIST_ITEM, Type.LIST_ITEM);
        assertThat(elements.getFirst()).satisfies(e -> {
            assertThat(e.text()).isEqualTo("1.1. Section one");
            assertThat(e.level()).isEqualTo(2);
        });
        assertThat(elements.get(2)).satisfies(e -> {
            assertThat(e.marker()).isEqualTo("2.3.1.");
            assertThat(e.text()).isEqualTo("Hardware constraints");
        });
        // pdftotext's layout reads every item's number beside its text
        String text = squeeze(Independent.run("pdftotext", "-q", "-layout", pdf.toString(), "-").output());
        for (Element e : elements.subList(2, 6)) assertThat(text).contains(e.marker() + " " + e.text());

        // Word's own output: Symbol-font bullets (U+F0B7) a tab before "Term 1: Definition 1"
        Path word = Path.of("bench/structure/pdf/list_after_num_headers.docx.pdf");
        List<Element> glossary = model(word).pages().get(1).elements();
        assertThat(glossary).noneMatch(e -> e.type() == Type.TABLE);
        assertThat(glossary).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(Element::text)
                .containsExactly("Term 1: Definition 1", "Term 2: Definition 2", "Term 3: Definition 3", "Term 4: Definition 4", "Term 5: Definition 5");
        // the Symbol font's bullet (U+F0B7, a private-use code point) is written as the bullet it shows
        assertThat(glossary).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(Element::marker).containsOnly("•");
        assertThat(Independent.pdftotext(word)).contains("Term 5: Definition 5");
    }

    /**
     * A document that is mostly ruled tables: 16 pt headings, each over a ruled table of 12 pt cells, and one short 12
     * pt line. The text outside the tables is mostly headings; the body size is the cells' size, so the headings are
     * headings. Returns the PDF and the tables' areas as the ruled tables found on it (the test draws them).
     */
    private static Path tablesUnderHeadings(List<Tabula.PdfTable> ruled) throws IOException {
        Path pdf = Files.createTempDirectory("tables").resolve("tables.pdf");
        String[][] rows = {{"Region", "Quarter", "Amount"}, {"North America", "First", "1,204,000"}, {"Western Europe", "Second", "987,500"},
                {"South-East Asia", "Third", "1,530,250"}, {"Latin America", "Fourth", "640,125"}};
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            float height = page.getMediaBox().getHeight();
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                float y = 720;
                for (String heading : new String[] {"Sales by region", "Costs by region"}) {
                    show(cs, font, 16, 72, y, heading);
                    y -= 30;
                    float top = y + 16;
                    for (String[] row : rows) {
                        for (int c = 0; c < row.length; c++) {
                            show(cs, font, 12, 76 + 150 * c, y, row[c]);
                        }
                        y -= 20;
                    }
                    float bottom = y + 16;
                    for (float ry = top; ry >= bottom - 0.1f; ry -= 20) {
                        cs.moveTo(72, ry);
                        cs.lineTo(522, ry);
                    }
                    for (int c = 0; c <= 3; c++) {
                        cs.moveTo(72 + 150 * c, top);
                        cs.lineTo(72 + 150 * c, bottom);
                    }
                    cs.stroke();
                    ruled.add(new Tabula.PdfTable(1, height - top, 72, 450, top - bottom, List.of(rows).stream().map(List::of).toList(), true));
                    y -= 30;
                }
                show(cs, font, 12, 72, y, "Figures in US dollars.");
            }
            doc.save(pdf.toFile());
        }
        return pdf;
    }

    @Test
    void headingsOverRuledTablesAreHeadingsWhenTheTablesHoldMostOfTheText() throws Exception {
        List<Tabula.PdfTable> ruled = new ArrayList<>();
        Path pdf = tablesUnderHeadings(ruled);
        List<Element> elements;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            elements = DocumentReader.model(doc, ruled, Set.of(), new ArrayList<>(), page -> { }).pages().getFirst().elements();
        }
        assertThat(elements).extracting(Element::type).containsExactly(Type.TITLE, Type.TABLE, Type.HEADING, Type.TABLE, Type.PARAGRAPH);
        assertThat(elements.get(2).text()).isEqualTo("Costs by region");
        // pdftotext reads the headings and the cells the model has
        String text = Independent.pdftotext(pdf);
        assertThat(text).contains("Sales by region", "Costs by region", "South-East Asia");
        assertThat(elements.get(1).table().grid()).contains(List.of("South-East Asia", "Third", "1,530,250"));
    }

    @Test
    void numbersOfATableNearThePagesTopAreNotPageNumbers() throws Exception {
        // a spreadsheet printed as LibreOffice does: its sheet's name on top, a title, then years and counts close under it
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("sheet.pdf", PDRectangle.A4, cs -> {
            float y = 800;
            String[][] lines = {{"280", "Sheet1"}, {"120", "Number of freshwater ducks per year"}, {"120", "Year", "190", "Freshwater Ducks"},
                    {"160", "2019", "255", "120"}, {"160", "2020", "255", "135"}, {"160", "2021", "255", "150"}};
            for (String[] line : lines) {
                for (int k = 0; k < line.length; k += 2) {
                    show(cs, font, 10, Float.parseFloat(line[k]), y, line[k + 1]);
                }
                y -= line == lines[0] ? 30 : 14;
            }
        });
        DocumentModel model = model(pdf);
        assertThat(model.pages().getFirst().elements()).noneMatch(e -> e.type() == Type.PAGE_NUMBER);
        String text = model.pageText(1, false);
        // pdftotext reads every number the model must keep in the page's text
        for (String number : squeeze(Independent.pdftotext(pdf)).split(" ")) if (number.matches("\\d+")) assertThat(text).contains(number);
        assertThat(text).contains("2019", "120", "2021", "150");
    }

    /**
     * A handbook page drawn with the standard fonts: Times-Roman body text; a section title in Times-Italic at the body's
     * size on a line of its own; an italic sentence (a note) inside the text; a command's syntax in Courier-Bold, lines
     * that are bold where the body is not but code, not headings.
     */
    private static Path italicAndCodePage() throws IOException {
        Path pdf = Files.createTempDirectory("fonts").resolve("fonts.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            PDType1Font roman = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
            PDType1Font italic = new PDType1Font(Standard14Fonts.FontName.TIMES_ITALIC);
            PDType1Font code = new PDType1Font(Standard14Fonts.FontName.COURIER_BOLD);
            Object[][] lines = {
                    {roman, "Plates must be attached to the structure in a positive manner to eliminate"},
                    {roman, "rotation or misalignment when tightening the bolts or screws."},
                    {italic, "Boots Self-Locking Nut"},
                    {roman, "The Boots self-locking nut is of one piece, all-metal construction designed to"},
                    {roman, "hold tight despite severe vibration, a locking nut and a load-carrying nut."},
                    {italic, "Note that the nut can be removed and reused without impairing its efficiency."},
                    {roman, "The permission is created with the statement whose syntax follows here."},
                    {code, "CREATE PERMISSION <permission name> ON <table name>"},
                    {roman, "The permission is enabled when it is created, unless it says otherwise."},
                    // a letter of a displayed formula, in math italic on a line of its own: no heading
                    {italic, "Z"},
                    {roman, "The whole numbers are closed under addition and under multiplication."}};
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                float y = 700;
                for (Object[] line : lines) {
                    show(cs, (PDType1Font) line[0], 10, 72, y, (String) line[1]);
                    y -= 12;
                }
            }
            doc.save(pdf.toFile());
        }
        return pdf;
    }

    @Test
    void anItalicLineOfItsOwnAtBodySizeIsAHeadingAndBoldCodeIsNot() throws Exception {
        Path pdf = italicAndCodePage();
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.HEADING).extracting(Element::text).containsExactly("Boots Self-Locking Nut");
        // the italic sentence and the italic letter stay text and the bold monospace syntax is code, no heading, in the
        // order pdftotext reads them
        assertThat(elements).filteredOn(e -> e.text().contains("Note that the nut")).singleElement().extracting(Element::type).isEqualTo(Type.PARAGRAPH);
        assertThat(elements).filteredOn(e -> e.text().contains("CREATE PERMISSION")).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.CODE);
            assertThat(e.bold()).isTrue();
        });
        String read = squeeze(Independent.pdftotext(pdf));
        String modelText = squeeze(elements.stream().map(Element::text).reduce("", (a, b) -> a + " " + b));
        assertThat(modelText).isEqualTo(read);
    }

    @Test
    void aKoreanPageReadsItsHeadlineAsOneHeadingThenColumnOneThenColumnTwo() throws Exception {
        // a flyer set in WenQuanYi Zen Hei (a TrueType CJK font with Hangul, Debian's fonts-wqy-zenhei): a headline over
        // two lines across the page, then two columns of running text
        Path font = Path.of("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(font), "fonts-wqy-zenhei is installed");
        Path pdf = Files.createTempDirectory("korean").resolve("korean.pdf");
        String[] headline = {"코로나-19 관련 보험약관상", "재해보험금 지급문제 및 개선과제"};
        String[] left = {"세계보건기구는 지난 3월 코로나가 세계적", "유행 단계에 돌입하였음을 선언하였다.", "국내 보험업계에서는 이를 질병으로 볼지",
                "재해로 볼지에 대하여 혼선이 생겼다."};
        String[] right = {"보험약관의 현황과 문제점을 살펴보고", "그에 따른 개선방안을 제시하고자 한다.", "감염병예방법의 규정이 바뀌어 적용됨에",
                "따라 약관의 해석도 달라질 수 있다."};
        try (PDDocument doc = new PDDocument(); TrueTypeCollection ttc = new TrueTypeCollection(font.toFile())) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType0Font cjk = PDType0Font.load(doc, ttc.getFontByName("WenQuanYiZenHei"), true);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                float y = 760;
                for (String line : headline) {
                    show(cs, cjk, 24, 60, y, line);
                    y -= 30;
                }
                y -= 20;
                for (int i = 0; i < left.length; i++) {
                    for (int c = 0; c < 2; c++) {
                        show(cs, cjk, 10, c == 0 ? 60 : 310, y, (c == 0 ? left : right)[i]);
                    }
                    y -= 15;
                }
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.TITLE, Type.PARAGRAPH, Type.PARAGRAPH);
        assertThat(squeeze(elements.get(0).text())).isEqualTo(headline[0] + " " + headline[1]);
        // each column's text is one paragraph, in pdftotext's reading of that column's half of the page
        String leftHalf = squeeze(Independent.run("pdftotext", "-q", "-x", "0", "-y", "0", "-W", "300", "-H", "842", pdf.toString(), "-").output());
        String rightHalf = squeeze(Independent.run("pdftotext", "-q", "-x", "300", "-y", "0", "-W", "295", "-H", "842", pdf.toString(), "-").output());
        assertThat(leftHalf).contains(squeeze(elements.get(1).text()));
        assertThat(rightHalf).contains(squeeze(elements.get(2).text()));
    }

    /**
     * A Korean, Chinese or Japanese caption ("[표 1] …", "图 2 …") set in bold at body size is a caption, not a heading
     * (issue 36), as "Table 1" is; a bold line at body size without a caption's number heads its section.
     */
    @Test
    void aCjkCaptionInBoldIsACaptionNotAHeading() throws Exception {
        Path font = Path.of("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(font), "fonts-wqy-zenhei is installed");
        Path pdf = Files.createTempDirectory("captions").resolve("captions.pdf");
        String body = "보험약관의 현황과 문제점을 살펴보고 그에 따른 개선방안을 제시하고자 한다.";
        try (PDDocument doc = new PDDocument(); TrueTypeCollection ttc = new TrueTypeCollection(font.toFile())) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType0Font regular = PDType0Font.load(doc, ttc.getFontByName("WenQuanYiZenHei"), true);
            PDType0Font bold = PDType0Font.load(doc, ttc.getFontByName("WenQuanYiZenHei"), true);
            bold.getFontDescriptor().setFontWeight(700); // a bold face, as its descriptor says
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, bold, 10, 60, 760, "코로나-19 관련 보험 현황");
                float y = 740;
                for (int i = 0; i < 4; i++, y -= 15) show(cs, regular, 10, 60, y, body);
                show(cs, bold, 10, 60, y - 10, "[표 1] 감염병예방법 제2조 개정 전후 비교");
                y -= 40;
                for (int i = 0; i < 4; i++, y -= 15) show(cs, regular, 10, 60, y, body);
                show(cs, bold, 10, 60, y - 10, "图 2 保险金支付情况");
                y -= 40;
                for (int i = 0; i < 4; i++, y -= 15) show(cs, regular, 10, 60, y, body);
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.text().startsWith("[표 1]")).singleElement().satisfies(e -> assertThat(e.type()).isEqualTo(Type.CAPTION));
        assertThat(elements).filteredOn(e -> e.text().startsWith("图 2")).singleElement().satisfies(e -> assertThat(e.type()).isEqualTo(Type.CAPTION));
        assertThat(elements).filteredOn(e -> e.text().equals("코로나-19 관련 보험 현황")).singleElement()
                .satisfies(e -> assertThat(e.type()).isIn(Type.HEADING, Type.TITLE));
    }

    /**
     * The bullets of Chinese, Japanese and Korean lists — a full-width asterisk "＊", the middle dot "・", a diamond "◆" —
     * mark list items as "•" does (issue 36).
     */
    @Test
    void cjkBulletsMarkListItems() throws Exception {
        Path pdf = cjkPage("bullets.pdf", (cs, cjk) -> {
            show(cs, cjk, 11, 60, 760, "報告すべき症状は次のとおりです。");
            String[] items = {"＊ 発熱", "＊ 咳", "・ 東京", "・ 大阪", "◆ 서울", "◆ 부산"};
            float y = 740;
            for (String item : items) {
                show(cs, cjk, 11, 60, y, item);
                y -= 16;
            }
        });
        List<Element> items = model(pdf).pages().getFirst().elements().stream().filter(e -> e.type() == Type.LIST_ITEM).toList();
        assertThat(items).extracting(Element::marker).containsExactly("＊", "＊", "・", "・", "◆", "◆");
        assertThat(items).extracting(Element::text).containsExactly("発熱", "咳", "東京", "大阪", "서울", "부산");
    }

    /**
     * An OCR'd bullet list is a list (issue 36): the list of a scanned brochure's left column, given a text layer by
     * Tesseract's own PDF renderer (as the kept OCR's ocrmypdf does), reads as list items, whatever OCR makes of the
     * bullets ("*", "©", "°", "¢"), and none of its items is a heading.
     */
    @Test
    void anOcrdBulletListIsAList() throws Exception {
        Path dir = Files.createTempDirectory("ocr-list");
        // the column's list only (cropped at 150 dpi) and one thread: Tesseract's time stays a few seconds on a busy machine
        Independent.run("pdftoppm", "-r", "150", "-png", "-singlefile", "-x", "0", "-y", "225", "-W", "675", "-H", "750",
                corpus("pdf-scanned/english-skewed-brochure.pdf").toString(), dir.resolve("list").toString());
        Independent.run("env", "OMP_THREAD_LIMIT=1", "tesseract", dir.resolve("list.png").toString(), dir.resolve("list").toString(), "-l", "eng", "pdf");
        DocumentModel model;
        try (PDDocument doc = Loader.loadPDF(dir.resolve("list.pdf").toFile())) {
            model = DocumentReader.model(doc, List.of(), Set.of(1), new ArrayList<>(), page -> { });
        }
        List<Element> elements = model.pages().getFirst().elements();
        List<Element> items = elements.stream().filter(e -> e.type() == Type.LIST_ITEM).toList();
        assertThat(items).extracting(e -> squeeze(e.text()))
                .anyMatch(t -> t.startsWith("Ultra-fast"))
                .anyMatch(t -> t.startsWith("One or all tracks"))
                .anyMatch(t -> t.startsWith("Exclusive real-time ERASE"));
        assertThat(items.stream().map(Element::list).distinct()).hasSize(1);
        assertThat(elements).noneMatch(e -> e.type() == Type.HEADING || e.type() == Type.TITLE);
    }

    /**
     * A scan's headings stand out by what the page shows (issue 36): the text layer OCR lays over a scan gives its
     * lines about one font size (Tesseract's estimate) and no weight, so a scanned report's title and section headings
     * read as paragraphs. Measured on the image ({@link ScanType}), the larger and the bold lines are headings again,
     * and a line of figures at body size (measured by its capitals' height) is none. The page is drawn, printed to an
     * image by pdftoppm and given its text layer by Tesseract's own PDF renderer, as the kept OCR's ocrmypdf does.
     */
    @Test
    void aScansLargerAndBoldLinesAreItsHeadings() throws Exception {
        PDType1Font times = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.TIMES_BOLD);
        String[] first = {"The survey counted the ducks on every lake of the county in the first week of May, as in",
                "each year since the count began, and the wardens compared the numbers with the year before."};
        String[] second = {"Most lakes kept their numbers, while the larger ones saw more ducks than ever before, as",
                "the winter was mild and the water stayed open until the end of the season in March."};
        Path pdf = onePage("report.pdf", PDRectangle.LETTER, cs -> {
            float y = 700;
            show(cs, bold, 18, 72, y, "Duck Observations");
            y -= 40;
            show(cs, bold, 12, 72, y, "Counting the lakes");
            y -= 7;
            for (String line : first) show(cs, times, 12, 72, y -= 15, line);
            show(cs, times, 12, 72, y -= 15, "2019 2020 2021 2022 2023 2024");
            show(cs, bold, 12, 72, y -= 30, "What the numbers say");
            y -= 7;
            for (String line : second) show(cs, times, 12, 72, y -= 15, line);
        });
        List<Element> elements = scannedModel(pdf);
        assertThat(elements).filteredOn(e -> e.type() == Type.HEADING || e.type() == Type.TITLE).extracting(e -> squeeze(e.text()))
                .containsExactly("Duck Observations", "Counting the lakes", "What the numbers say");
        assertThat(elements).filteredOn(e -> e.type() == Type.PARAGRAPH).extracting(e -> squeeze(e.text()))
                .anyMatch(t -> t.contains("2019 2020 2021")).anyMatch(t -> t.startsWith("Most lakes kept their numbers"));
    }

    /**
     * A scan's ruled table is a table (issue 36): its rules are pixels of the page's image, not paths, so the lattice
     * found none and the cells' text ran together; found on the image ({@link ImageRulings}), they make the cells, and
     * the OCR's words fill them. The page is drawn slightly turned (half a degree, as a scanner feeds it), printed to
     * an image by pdftoppm and OCR'd by Tesseract's own PDF renderer. A box drawn around a paragraph is no table.
     */
    @Test
    void aScansRuledTableIsATable() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"Product", "Quantity", "Revenue"}, {"Widget", "5", "5000"}, {"Gadget", "10", "12000"}, {"Sprocket", "3", "3000"}};
        Path pdf = onePage("ruled.pdf", PDRectangle.LETTER, cs -> {
            cs.transform(org.apache.pdfbox.util.Matrix.getRotateInstance(Math.toRadians(0.5), 0, 0));
            cs.addRect(72, 660, 460, 40);
            cs.stroke();
            show(cs, font, 12, 80, 684, "A note set in a box of its own, which is no table at all.");
            float top = 600, width = 150, height = 24;
            grid(cs, new float[] {72, 72 + width, 72 + 2 * width, 72 + 3 * width},
                    new float[] {top, top - height, top - 2 * height, top - 3 * height, top - 4 * height});
            for (int r = 0; r < rows.length; r++) for (int c = 0; c < 3; c++) show(cs, font, 12, 80 + width * c, top - 16 - height * r, rows[r][c]);
        });
        List<Element> elements = scannedModel(pdf);
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid())
                .containsExactly(List.of("Product", "Quantity", "Revenue"), List.of("Widget", "5", "5000"), List.of("Gadget", "10", "12000"),
                        List.of("Sprocket", "3", "3000")));
        assertThat(elements).filteredOn(e -> e.type() == Type.PARAGRAPH).extracting(e -> squeeze(e.text())).anyMatch(t -> t.startsWith("A note set in a box"));
    }

    /**
     * A scan's table without rules is a table, and its bulleted lines a list (issue 36): Tesseract's text layer writes
     * a line's words, spaces and all, in one text object, which PDFBox reads as one word, so a row's cells had no gap
     * between them ("Leaves Ash, Elm, Maple 50" was one line). Cut at its wide spaces, the row is cells that line up
     * under the header; a bullet a tab before its text keeps it. Drawn, printed to an image by pdftoppm, OCR'd by
     * Tesseract's own PDF renderer.
     */
    @Test
    void aScansUnruledTableIsATableAndItsBulletsAList() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[][] rows = {{"Food", "Origin", "Calories"}, {"Leaves", "Ash, Elm, Maple", "50"}, {"Berries", "Blueberry, Strawberry", "150"},
                {"Grain", "Corn, Buckwheat, Barley", "200"}};
        String[] items = {"You can relax and look around", "Paddle about in the shallows", "Enjoy the summer warmth"};
        Path pdf = onePage("unruled.pdf", PDRectangle.LETTER, cs -> {
            for (int r = 0; r < rows.length; r++) for (int c = 0; c < 3; c++) show(cs, font, 12, 90 + 170 * c, 680 - 24 * r, rows[r][c]);
            for (int i = 0; i < items.length; i++) {
                show(cs, font, 12, 90, 520 - 20 * i, "\u2022");
                show(cs, font, 12, 126, 520 - 20 * i, items[i]);
            }
        });
        List<Element> elements = scannedModel(pdf);
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid())
                .containsExactly(List.of("Food", "Origin", "Calories"), List.of("Leaves", "Ash, Elm, Maple", "50"),
                        List.of("Berries", "Blueberry, Strawberry", "150"), List.of("Grain", "Corn, Buckwheat, Barley", "200")));
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(e -> squeeze(e.text())).containsExactly(items);
    }

    /**
     * A scan's second-level headings a little over the body's size are headings, as a Word document's "Heading 2"
     * (13 pt over 11 pt) prints: a line 1.15-1.3 times the body's size is within the measure's spread, and larger
     * when the OCR's size finds it so too. An equation set large ("a+8=12") is no heading.
     */
    @Test
    void aScansSecondLevelHeadingsAreHeadings() throws Exception {
        PDType1Font sans = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String paragraph = "The wardens counted the ducks on every lake of the county, as each year since the count began.";
        Path pdf = Files.createTempDirectory("model-").resolve("headings.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            PDFont noto = PDType0Font.load(doc, new File("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"));
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, noto, 28, 72, 700, "Test Document");
                float y = 640;
                for (int section = 1; section <= 3; section++) {
                    show(cs, sans, 13, 90, y, "1." + section + " Section 1." + section);
                    for (int p = 0; p < 3; p++) show(cs, sans, 11, 72, y -= 22, paragraph);
                    y -= 36;
                }
                show(cs, sans, 14, 72, y, "a+8=12");
                show(cs, sans, 11, 72, y - 28, paragraph);
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = scannedModel(pdf);
        assertThat(elements).filteredOn(e -> e.type() == Type.TITLE || e.type() == Type.HEADING).extracting(e -> squeeze(e.text()))
                .containsExactly("Test Document", "1.1 Section 1.1", "1.2 Section 1.2", "1.3 Section 1.3");
    }

    /**
     * A scanned questionnaire's checkboxes are its options' markers: OCR reads no character for a drawn box, so the
     * options read as plain lines; found on the image, each box leads its option's line, outlined on white paper or
     * white on a tint.
     */
    @Test
    void aScansCheckboxesAreItsOptionsMarkers() throws Exception {
        PDType1Font times = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String[] options = {"Yes, at the national (federal) level", "Yes, at the regional (district) level", "Yes, at the local (municipal) level", "No"};
        Path pdf = onePage("questionnaire.pdf", PDRectangle.LETTER, cs -> {
            show(cs, times, 11, 72, 700, "24. Do the staff lawyers coordinate to uniformly challenge common violations of due process rights?");
            cs.setLineWidth(0.8f);
            for (int i = 0; i < options.length; i++) {
                float y = 670 - 22 * i;
                cs.addRect(90, y - 1, 9, 9);
                cs.stroke();
                show(cs, times, 11, 106, y, options[i]);
            }
            show(cs, times, 11, 72, 560, "25. Does it have specialized providers for representing child victims and child witnesses?");
        });
        List<Element> items = scannedModel(pdf).stream().filter(e -> e.type() == Type.LIST_ITEM && !Character.isDigit(e.marker().charAt(0))).toList();
        assertThat(items).extracting(e -> squeeze(e.text())).containsExactly(options);
        assertThat(items).extracting(Element::marker).containsOnly("☐");
        // a report printed on a grey tint draws its boxes as white squares, with no outline
        Path tinted = onePage("tinted.pdf", PDRectangle.LETTER, cs -> {
            cs.setNonStrokingColor(0.82f);
            cs.addRect(0, 0, PDRectangle.LETTER.getWidth(), PDRectangle.LETTER.getHeight());
            cs.fill();
            cs.setNonStrokingColor(0.3f);
            show(cs, times, 11, 72, 700, "24. Do the staff lawyers coordinate to uniformly challenge common violations of due process rights?");
            for (int i = 0; i < options.length; i++) {
                float y = 670 - 22 * i;
                cs.setNonStrokingColor(1f);
                cs.addRect(90, y - 1, 9, 9);
                cs.fill();
                cs.setNonStrokingColor(0.3f);
                show(cs, times, 11, 106, y, options[i]);
            }
        });
        assertThat(scannedModel(tinted)).filteredOn(e -> e.type() == Type.LIST_ITEM && "☐".equals(e.marker())).extracting(e -> squeeze(e.text()))
                .containsExactly(options);
        // a word in bold whose letters run together is as square and as closed as a box, but not clear inside
        assertThat(scannedModel(onePage("bold.pdf", PDRectangle.LETTER, cs -> {
            PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
            for (int i = 0; i < 6; i++) show(cs, bold, 11, 72, 700 - 20 * i, "IBM DB2 for i supports nine different built-in global variables");
        }))).noneMatch(e -> e.text().contains("☐") || "☐".equals(e.marker()));
    }

    /**
     * A scanned document that is mostly ruled tables has its headings: its lines outside the tables are its headings and
     * a caption, so they were its body's size; the tables' text is the body (issue 36).
     */
    @Test
    void aScanOfMostlyTablesHasItsHeadings() throws Exception {
        PDType1Font sans = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[] headings = {"Table with rich cells", "Table with nested lists", "Table with pictures and text"};
        Path pdf = onePage("tables.pdf", PDRectangle.LETTER, cs -> {
            float top = 730;
            for (String heading : headings) {
                show(cs, sans, 14, 72, top, heading);
                show(cs, sans, 10, 72, top - 22, "Before table");
                float[] ys = {top - 30, top - 72, top - 114, top - 156};
                grid(cs, new float[] {72, 300, 528}, ys);
                for (int r = 0; r < 3; r++) {
                    for (int c = 0; c < 2; c++) {
                        float x = 78 + 228 * c, y = ys[r] - 13;
                        show(cs, sans, 10, x, y, "Row " + (r + 1) + " column " + (c + 1) + " holds a short line");
                        show(cs, sans, 10, x, y - 12, "and a second line of the same cell");
                        show(cs, sans, 10, x, y - 24, "and a third one, as a rich cell does");
                    }
                }
                top -= 220;
            }
        });
        List<Element> elements = scannedModel(pdf);
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).hasSize(3);
        assertThat(elements).filteredOn(e -> e.type() == Type.TITLE || e.type() == Type.HEADING).extracting(e -> squeeze(e.text()))
                .containsExactly(headings);
    }

    /**
     * A scanned table's upright rules are no text: Tesseract reads a rule beside a cell's text as a word "|" (Docling's
     * paper page as a 200 dpi scan: "0.934 | 0.927 |", "mAP | (0.75) |" in 14 of its 48 cells).
     */
    @Test
    void aScannedTablesUprightRulesAreNoText() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("paper.pdf");
        Files.copy(Path.of("bench/structure/pdf/2305.03393v1-pg9.pdf"), pdf);
        List<Element> elements = scannedModel(pdf);
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> {
            assertThat(t.table().grid().get(2)).startsWith("6", "6", "OTSL HTML", "0.965 0.969", "0.934 0.927", "0.955 0.955");
            assertThat(t.table().grid()).flatExtracting(row -> row).noneMatch(cell -> cell.contains("|"));
        });
        assertThat(elements).extracting(Element::text).noneMatch(t -> t.contains(" | "));
    }

    /**
     * A scan's table ruled only between its rows, its rows padded apart (Word's "Grid Table Light"), is a table: an OCR
     * layer's boxes are its ink's, tighter than a drawn line's, and its rows stood further apart than three of them.
     */
    @Test
    void aScansPaddedRowRuledTableIsATable() throws Exception {
        PDType1Font times = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.TIMES_BOLD);
        String[][] rows = {{"Leaves", "Ash, Elm, Maple", "50"}, {"Berries", "Blueberry, Strawberry", "150"}, {"Grain", "Corn, Buckwheat, Barley", "200"}};
        Path pdf = onePage("padded.pdf", PDRectangle.LETTER, cs -> {
            show(cs, times, 11, 72, 720, "Here are some interesting things a respectful duck could eat:");
            show(cs, times, 12, 245, 674, "Food");
            show(cs, times, 12, 405, 674, "Calories per portion");
            cs.setLineWidth(2);
            cs.moveTo(68, 664);
            cs.lineTo(524, 664);
            cs.stroke();
            cs.setLineWidth(0.5f);
            for (int r = 0; r < rows.length; r++) {
                float y = 640 - 36 * r;
                show(cs, bold, 11, 205 - bold.getStringWidth(rows[r][0]) * 11 / 1000, y, rows[r][0]);
                show(cs, times, 11, 245, y, rows[r][1]);
                show(cs, times, 11, 405, y, rows[r][2]);
                cs.moveTo(68, y - 14);
                cs.lineTo(524, y - 14);
                cs.stroke();
            }
            show(cs, times, 11, 72, 500, "And let us add another list in the end, after the table.");
        });
        List<Element> elements = scannedModel(pdf);
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid())
                .containsExactly(List.of("", "Food", "Calories per portion"), List.of(rows[0]), List.of(rows[1]), List.of(rows[2])));
    }

    /**
     * A scan's bullet list set about 1.3 times the body's size (the corpus's brochure: its feature list over 9 pt
     * columns) keeps each item's wrapped lines in the item, and none of them is a heading: a real scan's line measures
     * spread either side of the size that sets a line apart, so the lines of one block take one size; and its column
     * headings, one style measured 10.5 and 11.5 pt, are one level (issue 36). The whole page, straightened and given
     * its text layer by OCRmyPDF, as the kept OCR does.
     */
    @Test
    void aScannedBrochureKeepsItsItemsWholeAndItsHeadingsOneLevel() throws Exception {
        Path dir = Files.createTempDirectory("ocr-features");
        Independent.run("env", "OMP_THREAD_LIMIT=1", "ocrmypdf", "-l", "eng", "--deskew", "--skip-text", "--pdf-renderer", "sandwich", "--jobs", "1",
                "--quiet", corpus("pdf-scanned/english-skewed-brochure.pdf").toString(), dir.resolve("page.pdf").toString());
        List<Element> elements;
        try (PDDocument doc = Loader.loadPDF(dir.resolve("page.pdf").toFile())) {
            elements = DocumentReader.model(doc, List.of(), Set.of(1), new ArrayList<>(), page -> { }).pages().getFirst().elements();
        }
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(e -> squeeze(e.text()))
                .anyMatch(t -> t.startsWith("Each of the 100 sequences") && t.endsWith("16 polyphonic synthesizers!"))
                .anyMatch(t -> t.startsWith("Exclusive REPEAT function") && t.endsWith("pre-selected rhythmic value."));
        assertThat(elements).filteredOn(e -> e.type() == Type.HEADING || e.type() == Type.TITLE).extracting(e -> squeeze(e.text()))
                .noneMatch(t -> t.contains("rhythmic") || t.contains("synthesizers"));
        // its column headings, one style measured a size apart, are one level
        assertThat(elements).filteredOn(e -> e.type() == Type.HEADING && (e.text().equals("Recording a Sequence") || e.text().equals("Creating a Song")))
                .extracting(Element::level).hasSize(2).containsOnly(elements.stream()
                        .filter(e -> e.text().equals("Recording a Sequence")).findFirst().orElseThrow().level());
    }

    /**
     * A heading the file tags in its structure tree ({@code /H2}) is a heading at that level, though it is set in the
     * body's font and size, where the font rules alone would find none (issue 36).
     */
    @Test
    void aTaggedHeadingIsAHeadingAtItsLevel() throws Exception {
        Path pdf = Files.createTempDirectory("tagged").resolve("tagged.pdf");
        String heading = "Stainless steel self-locking nut";
        List<String> body = List.of("The stainless steel self-locking nut may be spun on and off by hand as its locking",
                "action takes place only when the nut is seated against a solid surface and tightened.");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            PDType1Font times = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
            org.apache.pdfbox.cos.COSDictionary mcid = new org.apache.pdfbox.cos.COSDictionary();
            mcid.setInt(org.apache.pdfbox.cos.COSName.MCID, 0);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.beginMarkedContent(org.apache.pdfbox.cos.COSName.getPDFName("H2"),
                        org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDPropertyList.create(mcid));
                show(cs, times, 10, 72, 700, heading);
                cs.endMarkedContent();
                for (int i = 0; i < body.size(); i++) {
                    show(cs, times, 10, 72, 686 - 12 * i, body.get(i));
                }
            }
            var root = new org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureTreeRoot();
            doc.getDocumentCatalog().setStructureTreeRoot(root);
            var document = new org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureElement("Document", root);
            root.appendKid(document);
            var h2 = new org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureElement("H2", document);
            h2.setPage(page);
            h2.appendKid(org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDMarkedContent.create(
                    org.apache.pdfbox.cos.COSName.getPDFName("H2"), mcid));
            document.appendKid(h2);
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements.getFirst()).satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.HEADING);
            assertThat(e.level()).isEqualTo(2);
            assertThat(e.text()).isEqualTo(heading);
        });
        // the body stays one paragraph, as pdftotext reads it
        assertThat(elements.subList(1, elements.size())).extracting(Element::type).containsOnly(Type.PARAGRAPH);
        assertThat(squeeze(Independent.pdftotext(pdf))).contains(squeeze(String.join(" ", elements.stream().skip(1).map(Element::text).toList())));
    }

    /**
     * A ruled area whose one cell holds most of its words (a frame drawn around a form's page, with the form's small
     * boxes inside it: Tabula reads the page's text into the frame's cell) is no table, where a table with one long
     * description among short cells stays one (issue 36).
     */
    @Test
    void aFrameAroundAPageWithBoxesInsideIsNotATable() {
        String page = String.join(" ", java.util.Collections.nCopies(30, "the committee met to review the plan"));
        List<List<String>> framed = List.of(List.of(page, "", ""), List.of("1403/09/19", "", "date of filing"),
                List.of("436", "", "meeting number"), List.of("1403/10/05", "", "date of listing"));
        assertThat(DocumentReader.tabular(new Tabula.PdfTable(1, 30, 30, 535, 780, framed, true))).isFalse();
        List<List<String>> described = List.of(List.of("Item", "Description", "Price"),
                List.of("Nut", String.join(" ", java.util.Collections.nCopies(6, "a stainless steel self-locking nut")), "1.20"),
                List.of("Bolt", "a hex bolt", "0.80"), List.of("Washer", "a flat washer", "0.10"));
        assertThat(DocumentReader.tabular(new Tabula.PdfTable(1, 100, 72, 400, 200, described, true))).isTrue();
    }

    /**
     * A ruled table read from its drawn cells (issue 36): the header's first cell is merged over two columns, so it spans
     * 2 and the row below keeps its 3 columns; every word of the table's area is in a cell even where the ruling
     * detector's text lost a column (Tabula's lattice pass dropping row heads). Cells are drawn as boxes; the test gives
     * the boxes as Tabula gives them, and a text with the first column left out.
     */
    @Test
    void aRuledTableKeepsItsMergedCellsAndEveryWordOfItsArea() throws Exception {
        Path pdf = Files.createTempDirectory("ruled").resolve("ruled.pdf");
        String[][] rows = {{"Quarterly sales", null, "Total"}, {"Region", "Quarter", "Amount"}, {"North", "First", "1,204"}, {"South", "Second", "987"}};
        float left = 72, width = 150, rowHeight = 20, top = 100;
        List<Tabula.CellBox> cells = new ArrayList<>();
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            float height = page.getMediaBox().getHeight();
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                for (int r = 0; r < rows.length; r++) {
                    for (int c = 0; c < 3; c++) {
                        if (rows[r][c] == null) continue;
                        boolean merged = c + 1 < 3 && rows[r][c + 1] == null;
                        float x = left + width * c, y = top + rowHeight * r, w = merged ? 2 * width : width;
                        cs.addRect(x, height - y - rowHeight, w, rowHeight);
                        cells.add(new Tabula.CellBox(y, x, w, rowHeight));
                        show(cs, font, 11, x + 4, height - y - 15, rows[r][c]);
                    }
                }
                cs.stroke();
            }
            doc.save(pdf.toFile());
        }
        List<List<String>> lost = List.of(List.of("", "Total"), List.of("Quarter", "Amount"), List.of("First", "1,204"), List.of("Second", "987"));
        Tabula.PdfTable ruled = new Tabula.PdfTable(1, top, left, 3 * width, 4 * rowHeight, lost, true, cells);
        DocumentModel.Table table;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            List<Element> elements = DocumentReader.model(doc, List.of(ruled), Set.of(), new ArrayList<>(), page -> { }).pages().getFirst().elements();
            assertThat(elements).extracting(Element::type).containsExactly(Type.TABLE);
            table = elements.getFirst().table();
        }
        assertThat(table.columns()).isEqualTo(3);
        assertThat(table.rows().getFirst()).containsExactly(new DocumentModel.Cell("Quarterly sales", 1, 2), new DocumentModel.Cell("Total", 1, 1));
        assertThat(table.grid()).containsExactly(List.of("Quarterly sales", "", "Total"), List.of("Region", "Quarter", "Amount"),
                List.of("North", "First", "1,204"), List.of("South", "Second", "987"));
        // every word pdftotext reads on the page is in a cell
        String cellText = String.join(" ", table.grid().stream().flatMap(List::stream).toList());
        assertThat(List.of(squeeze(Independent.pdftotext(pdf)).split(" "))).allSatisfy(w -> assertThat(cellText).contains(w));
    }

    /** The ruled tables found on {@code pdf}, as the service finds them ({@link Lattice}). */
    private static List<Tabula.PdfTable> lattice(Path pdf) throws IOException {
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            return Lattice.tables(doc, Set.of()).tables();
        }
    }

    /**
     * A table ruled across its whole width but with vertical rules only between its inner columns (a paper's table: no
     * frame at its sides) keeps the columns beyond its outermost vertical rules (issue 36): two unruled columns of row
     * heads on the left, one on the right, each head beside the rule under a group of inner heads spanning both head
     * rows. Tabula's lattice pass runs as in the service, on a generated page and on the paper page of the structure set.
     */
    @Test
    void aTableWithoutSideRulesKeepsItsOuterColumns() throws Exception {
        Path pdf = Files.createTempDirectory("open").resolve("open.pdf");
        String[][] body = {{"6", "6", "OTSL", "0.965", "0.934", "2.73"}, {"4", "4", "HTML", "0.938", "0.904", "1.97"}, {"2", "4", "OTSL", "0.923", "0.897", "1.91"}};
        float[] x = {72, 130, 190, 260, 330, 400, 470};
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                float top = 700, rule = 680, head = 660, bottom = head - 20 * body.length;
                show(cs, font, 9, x[0] + 4, top - 14, "Encoder");
                show(cs, font, 9, x[1] + 4, top - 14, "Decoder");
                show(cs, font, 9, x[2] + 4, top - 14, "Language");
                show(cs, font, 9, x[3] + 4, top - 14, "TEDs");
                show(cs, font, 9, x[5] + 4, top - 14, "Inference");
                show(cs, font, 9, x[5] + 4, rule - 14, "time (secs)");
                show(cs, font, 9, x[3] + 4, rule - 14, "simple");
                show(cs, font, 9, x[4] + 4, rule - 14, "complex");
                for (int r = 0; r < body.length; r++) for (int c = 0; c < 6; c++) show(cs, font, 9, x[c] + 4, head - 20 * r - 14, body[r][c]);
                // horizontal rules across the whole table, one under the TEDs group only; vertical rules between the inner columns only
                for (float y = head; y >= bottom; y -= 20) {
                    cs.moveTo(x[0], y);
                    cs.lineTo(x[6], y);
                }
                cs.moveTo(x[0], top);
                cs.lineTo(x[6], top);
                cs.moveTo(x[3], rule);
                cs.lineTo(x[5], rule);
                for (int c = 2; c <= 5; c++) {
                    cs.moveTo(x[c], top);
                    cs.lineTo(x[c], bottom);
                }
                cs.stroke();
            }
            doc.save(pdf.toFile());
        }
        DocumentModel.Table table;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            List<Element> elements = DocumentReader.model(doc, lattice(pdf), Set.of(), new ArrayList<>(), page -> { }).pages().getFirst().elements();
            assertThat(elements).extracting(Element::type).containsExactly(Type.TABLE);
            table = elements.getFirst().table();
        }
        assertThat(table.grid()).containsExactly(List.of("Encoder", "Decoder", "Language", "TEDs", "", "Inference time (secs)"),
                List.of("", "", "", "simple", "complex", ""), List.of(body[0]), List.of(body[1]), List.of(body[2]));
        assertThat(table.rows().getFirst().getFirst()).isEqualTo(new DocumentModel.Cell("Encoder", 2, 1));

        Path paper = Path.of("bench/structure/pdf/2305.03393v1-pg9.pdf");
        try (PDDocument doc = Loader.loadPDF(paper.toFile())) {
            List<Element> tables = DocumentReader.model(doc, lattice(paper), Set.of(), new ArrayList<>(), page -> { }).pages().getFirst()
                    .elements().stream().filter(e -> e.type() == Type.TABLE).toList();
            assertThat(tables).hasSize(1);
            List<List<String>> grid = tables.getFirst().table().grid();
            // pdftotext reads the outer columns' heads and values
            assertThat(Independent.pdftotext(paper)).contains("enc-layers", "Inference", "2.73");
            assertThat(grid.getFirst()).hasSize(8).contains("# enc-layers", "# dec-layers", "Inference time (secs)");
            assertThat(grid).contains(List.of("6", "6", "OTSL HTML", "0.965 0.969", "0.934 0.927", "0.955 0.955", "0.88 0.857", "2.73 5.39"));
        }
    }

    /**
     * Boxes stacked one above another, no two cells with text side by side, are a box around text, not a table
     * (issue 36): a figure of a box drawn inside a box (IBM's Redpaper, Figure 3-5: Tabula's lattice pass cuts it into
     * cells) and a code listing's line backgrounds read as their lines, while the ruled table above the figure stays a
     * table.
     */
    @Test
    void boxesAroundTextAreNotTables() throws Exception {
        Path page = Files.createTempDirectory("boxes").resolve("redp5110-p11.pdf");
        try (PDDocument doc = Loader.loadPDF(Path.of("bench/structure/pdf/redp5110_sampled.pdf").toFile()); PDDocument one = new PDDocument()) {
            one.importPage(doc.getPage(10));
            one.save(page.toFile());
        }
        for (Path pdf : List.of(page, Path.of("bench/structure/pdf/code_and_formula.pdf"))) {
            List<Tabula.PdfTable> ruled = lattice(pdf);
            // the box in a box is a ruled area read as a table of two columns or more; the listing's line backgrounds,
            // of one colour, show no edge between them and are no rulings at all
            if (pdf == page) assertThat(ruled).anySatisfy(t -> assertThat(DocumentReader.tabular(t)).isTrue());
            else assertThat(ruled).noneSatisfy(t -> assertThat(DocumentReader.tabular(t)).isTrue());
            List<Element> elements;
            try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
                elements = DocumentReader.model(doc, ruled.stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                        .pages().stream().flatMap(p -> p.elements().stream()).toList();
            }
            String boxed = pdf == page ? "CALL proc1" : "return a + b";
            assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).noneSatisfy(e -> assertThat(e.text()).contains(boxed));
            assertThat(elements).filteredOn(e -> e.type() != Type.TABLE).anySatisfy(e -> assertThat(e.text()).contains(boxed));
            assertThat(Independent.pdftotext(pdf)).contains(boxed);
        }
        try (PDDocument doc = Loader.loadPDF(page.toFile())) {
            List<Element> tables = DocumentReader.model(doc, lattice(page), Set.of(), new ArrayList<>(), p -> { }).pages().getFirst().elements()
                    .stream().filter(e -> e.type() == Type.TABLE).toList();
            assertThat(tables).hasSize(1);
            assertThat(tables.getFirst().table().grid()).contains(List.of("SYSTEM_USER", "The authorization ID that initiated the connection."));
        }
    }

    /**
     * A frame drawn around a whole page of ruled tables (the structure set's Farsi form) leaves the tables inside it
     * tables (issue 36): Tabula's lattice took the frame for a cell of every table inside it, so the page read as one
     * cell and no table at all. The right-to-left table reads from its right column (label, then value), and a date in
     * its cell, drawn from the right in runs, reads as printed (pdftotext gives it the same).
     */
    @Test
    void tablesInsideAPagesFrameAreTablesAndARightToLeftTableReadsFromTheRight() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/right_to_left_03.pdf");
        List<Tabula.PdfTable> ruled = lattice(pdf);
        List<Element> tables;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            tables = DocumentReader.model(doc, ruled.stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().getFirst().elements().stream().filter(e -> e.type() == Type.TABLE).toList();
        }
        assertThat(tables).anySatisfy(t -> assertThat(t.table().grid()).contains(
                List.of("تاريخ ارائه مدارک", "1403/09/19"), List.of("تاريخ پذيرش", "1403/10/04"), List.of("شماره جلسه کميته عرضه", "436"),
                List.of("نحوة تعيين قيمت پايه پس از پذيرش کالا در بورس", "بر اساس قيمت های جهانی")));
        assertThat(Independent.pdftotext(pdf)).contains("تاريخ ارائه مدارک", "1403/09/19", "1403/10/04");
    }

    /**
     * Shading is no ruling where it does not show (issue 36): Word shades a cell's paragraphs line by line inside the
     * cell's own shading, so the edge between two shaded lines of one colour is invisible; a wrapped label stays one
     * cell beside its value. A shade of another colour under the next row still ends its row.
     */
    @Test
    void theEdgesBetweenShadesOfOneColourAreNoRulings() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        float left = 72, middle = 272, right = 500, top = 700;
        float[] rows = {top, top - 20, top - 50, top - 70};
        Path pdf = onePage("shaded.pdf", PDRectangle.A4, cs -> {
            for (int r = 0; r < 3; r++) {
                float y0 = rows[r + 1], y1 = rows[r];
                cs.setNonStrokingColor(r == 2 ? 0.75f : 0.9f, 0.9f, 1f);
                cs.addRect(left, y0, middle - left, y1 - y0);
                cs.fill();
                // the label's lines shaded one by one, as Word exports a shaded paragraph
                for (float y = y1; y - 12 >= y0 - 0.01f; y -= 12) {
                    cs.addRect(left + 4, Math.max(y0, y - 15), middle - left - 8, Math.min(15, y - y0));
                    cs.fill();
                }
            }
            cs.setNonStrokingColor(0f, 0f, 0f);
            for (float y : rows) cs.addRect(left, y - 0.25f, right - left, 0.5f);
            for (float x : new float[] {left, middle, right}) cs.addRect(x - 0.25f, rows[3], 0.5f, top - rows[3]);
            cs.fill();
            show(cs, font, 10, left + 6, top - 14, "Date of filing");
            show(cs, font, 10, middle + 6, top - 14, "2024-12-09");
            show(cs, font, 10, left + 6, top - 34, "How the base price is set once the goods");
            show(cs, font, 10, left + 6, top - 46, "are admitted");
            show(cs, font, 10, middle + 6, top - 34, "From world prices");
            show(cs, font, 10, left + 6, top - 64, "Tolerance");
            show(cs, font, 10, middle + 6, top - 64, "5% of the last shipment");
        });
        List<Tabula.PdfTable> ruled = lattice(pdf);
        assertThat(ruled).singleElement().satisfies(t -> assertThat(t.rows()).hasSize(3));
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            List<Element> tables = DocumentReader.model(doc, ruled, Set.of(), new ArrayList<>(), p -> { }).pages().getFirst().elements()
                    .stream().filter(e -> e.type() == Type.TABLE).toList();
            assertThat(tables).singleElement().satisfies(t -> assertThat(t.table().grid()).containsExactly(
                    List.of("Date of filing", "2024-12-09"), List.of("How the base price is set once the goods are admitted", "From world prices"),
                    List.of("Tolerance", "5% of the last shipment")));
        }
    }

    /**
     * A ruled table of one column, two rows or more each a box with text, is a table (issue 36: Word's lists set one per
     * cell), and a heading over such a table stays a heading when the page holds nothing but headings and tables; a box
     * drawn around one text is still none. Tabula's lattice pass runs as in the service, on the structure set's Word
     * document rendered by LibreOffice.
     */
    @Test
    void aRuledTableOfOneColumnIsATable() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/docx_rich_cells.docx.pdf");
        List<Tabula.PdfTable> ruled = lattice(pdf);
        List<Element> page;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            page = DocumentReader.model(doc, ruled.stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().get(1).elements();
        }
        assertThat(page).filteredOn(e -> e.type() == Type.TABLE && e.table().columns() == 1).hasSize(3)
                .anySatisfy(t -> assertThat(t.table().grid()).containsExactly(List.of("• List item 1 • List item 2"), List.of("Regular text in second cell")));
        assertThat(page).filteredOn(e -> e.type() == Type.HEADING).extracting(Element::text).contains("Lists with same numId in different cells",
                "Lists with different numIds in different cells", "Multiple columns with lists", "Mixed content - list and regular text in different cells");
        assertThat(Independent.pdftotext(pdf)).contains("Regular text in second cell");

        Path odt = Path.of("bench/structure/pdf/text_document_03.odt.pdf");
        try (PDDocument doc = Loader.loadPDF(odt.toFile())) {
            List<Element> second = DocumentReader.model(doc, lattice(odt).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().get(1).elements();
            assertThat(second).extracting(Element::type).containsExactly(Type.HEADING, Type.TABLE, Type.HEADING, Type.TABLE, Type.HEADING, Type.TABLE,
                    Type.HEADING, Type.TABLE);
        }
    }

    /**
     * The rest of a word that runs out of its ruled cell (a spreadsheet's text overflowing its column past the table's
     * edge) is its cell's: "stored" stays one word in the cell, not "s" in the table and "tored" under it.
     */
    @Test
    void aWordRunningOutOfItsCellStaysInIt() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        float left = 72, middle = 200, right = 300, top = 700;
        Path pdf = onePage("overflow.pdf", PDRectangle.A4, cs -> {
            grid(cs, new float[] {left, middle, right}, new float[] {top, top - 20, top - 40, top - 60});
            show(cs, font, 10, left + 4, top - 14, "Question");
            show(cs, font, 10, middle + 4, top - 14, "Extra");
            show(cs, font, 10, left + 4, top - 34, "What is the objective?");
            show(cs, font, 10, middle + 4, top - 34, "More information");
            show(cs, font, 10, left + 4, top - 54, "What data is used?");
            show(cs, font, 10, middle + 4, top - 54, "No code data is stored");
        });
        List<Tabula.PdfTable> ruled = lattice(pdf);
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            List<Element> elements = DocumentReader.model(doc, ruled.stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().getFirst().elements();
            assertThat(elements).singleElement().satisfies(t -> assertThat(t.table().grid()).containsExactly(List.of("Question", "Extra"),
                    List.of("What is the objective?", "More information"), List.of("What data is used?", "No code data is stored")));
        }
        assertThat(Independent.pdftotext(pdf)).contains("No code data is stored");
    }

    /**
     * A cell's text cut by a clip at the cell's side is that cell's, all of it (issue 36): a spreadsheet clips a cell
     * whose text is wider than its column, so the glyphs past the column's rule are drawn over the next cell but not
     * shown there ("What is the mai|nThe main objective" was read). Drawn as a spreadsheet's PDF export draws it: each
     * cell's text inside {@code q ... re W n ... Q}. PDFBox's text stripper ignores clips, so the model follows them.
     * A head centred over its column and wider than it runs over the empty cell beside it, in one clip over both: it
     * stays its column's, whole ("Pro" | "duct/Integration" was read).
     */
    @Test
    void aCellsTextCutByItsClipIsThatCellsText() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        float left = 72, middle = 172, right = 320, top = 700;
        String head = "Product/Integration of each answer given here";
        Path pdf = onePage("clipped.pdf", PDRectangle.A4, cs -> {
            grid(cs, new float[] {left, middle, right}, new float[] {top + 20, top, top - 20, top - 40, top - 60});
            cs.saveGraphicsState();
            cs.addRect(left, top, right - left, 20);
            cs.clip();
            show(cs, font, 10, (middle + right) / 2 - font.getStringWidth(head) / 200, top + 6, head);
            cs.restoreGraphicsState();
            String[][] rows = {{"Question", "Answer"}, {"What is the main objective?", "The main objective is..."},
                    {"What types of data are used?", "Code data"}};
            for (int r = 0; r < rows.length; r++) {
                float baseline = top - 14 - 20 * r;
                for (int c = 0; c < 2; c++) {
                    float x = c == 0 ? left : middle;
                    cs.saveGraphicsState();
                    cs.addRect(x, top - 60, (c == 0 ? middle : right) - x, 60);
                    cs.clip();
                    show(cs, font, 10, x + 3, baseline, rows[r][c]);
                    cs.restoreGraphicsState();
                }
            }
        });
        assertThat(font.getStringWidth("What is the main objective?") / 100).as("the question runs past its column").isGreaterThan(middle - left);
        assertThat((middle + right) / 2 - font.getStringWidth(head) / 200).as("the head runs over the cell left of it").isLessThan(middle - 10);
        List<Tabula.PdfTable> ruled = lattice(pdf);
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            List<Element> elements = DocumentReader.model(doc, ruled.stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().getFirst().elements();
            assertThat(elements).singleElement().satisfies(t -> assertThat(t.table().grid()).containsExactly(List.of("", head), List.of("Question", "Answer"),
                    List.of("What is the main objective?", "The main objective is..."), List.of("What types of data are used?", "Code data")));
        }
    }

    /**
     * A sheet wider than the paper goes on over the next page a band of columns at a time (issue 36): LibreOffice and
     * Excel print its rows at the same heights on each page, and a title merged over all the columns on the pages
     * where it falls. The bands (three here) are one table, the title's copy goes; a table that each page starts alike
     * (an invoice's lines, a form repeated) stays a table a page.
     */
    @Test
    void aTableWhoseColumnsGoOnOverTheNextPageIsOneTable() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        String[][] left = {{"#", "Genre", "Title"}, {"1", "Fiction", "The Hound of the Baskervilles"}, {"2", "Non-fiction", "A Brief History of Time"}};
        String[][] right = {{"Author", "Publisher"}, {"Arthur Conan Doyle", "George Newnes"}, {"Stephen Hawking", "Bantam Books"}};
        String[][] third = {{"Added"}, {"1902"}, {"1988"}};
        Path pdf = Files.createTempDirectory("bands-").resolve("bands.pdf");
        Path repeated = pdf.resolveSibling("repeated.pdf");
        for (Path out : List.of(pdf, repeated)) {
            try (PDDocument doc = new PDDocument()) {
                for (String[][] band : out == pdf ? List.of(left, right, third) : List.of(left, left)) {
                    PDPage page = new PDPage(PDRectangle.A4);
                    doc.addPage(page);
                    try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                        float top = 740, width = 150;
                        float[] xs = new float[band[0].length + 1], ys = new float[band.length + 1];
                        for (int c = 0; c < xs.length; c++) xs[c] = 60 + width * c;
                        for (int r = 0; r < ys.length; r++) ys[r] = top - 20 * r;
                        grid(cs, xs, ys);
                        for (int r = 0; r < band.length; r++) for (int c = 0; c < band[r].length; c++) show(cs, font, 10, 64 + width * c, top - 14 - 20 * r, band[r][c]);
                        // the title over the whole sheet, drawn on each page where the sheet's middle falls
                        if (band != third) show(cs, bold, 12, out == pdf && band == right ? 20 : 300, 760, "Reading List");
                    }
                }
                doc.save(out.toFile());
            }
        }
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            List<Element> elements = DocumentReader.model(doc, lattice(pdf).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().stream().flatMap(p -> p.elements().stream()).toList();
            assertThat(elements).extracting(Element::text).filteredOn(t -> t.contains("Reading List")).hasSize(1);
            assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> {
                assertThat(t.page()).isEqualTo(1);
                assertThat(t.table().grid()).containsExactly(List.of("#", "Genre", "Title", "Author", "Publisher", "Added"),
                        List.of("1", "Fiction", "The Hound of the Baskervilles", "Arthur Conan Doyle", "George Newnes", "1902"),
                        List.of("2", "Non-fiction", "A Brief History of Time", "Stephen Hawking", "Bantam Books", "1988"));
            });
        }
        try (PDDocument doc = Loader.loadPDF(repeated.toFile())) {
            List<Element> elements = DocumentReader.model(doc, lattice(repeated).stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().stream().flatMap(p -> p.elements().stream()).toList();
            assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).extracting(Element::page).containsExactly(1, 2);
        }
        assertThat(Independent.pdftotext(pdf)).contains("Arthur Conan Doyle");
    }

    /**
     * Emphasis that runs onto the next line stays in its paragraph (issue 36): a line set in bold that starts in lower
     * case after a line that ends no sentence goes on with that sentence; it is no heading. A bold line that starts a
     * sentence after a full stop still stands apart as the heading it is.
     */
    @Test
    void boldWordsRunningOntoTheNextLineStayInTheirParagraph() throws Exception {
        PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("emphasis.pdf", PDRectangle.A4, cs -> {
            show(cs, regular, 11, 72, 760, "Reports come from the kindergarten, which informs the parents first.");
            show(cs, regular, 11, 72, 746, "After a first assessment of the case, the Health Bureau will handle");
            show(cs, bold, 11, 72, 732, "reporting and specimen collection");
            show(cs, regular, 11, 260, 732, ".");
            show(cs, bold, 11, 72, 700, "Case closed");
            show(cs, regular, 11, 72, 680, "The Health Bureau carries out the follow-up measures and asks for help if needed.");
            show(cs, regular, 11, 72, 666, "It reports to the Centers for Disease Control when the case is closed.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.text().contains("specimen")).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.PARAGRAPH);
            assertThat(squeeze(e.text())).contains("the Health Bureau will handle reporting and specimen collection");
        });
        assertThat(elements).filteredOn(e -> e.text().equals("Case closed")).singleElement().satisfies(e -> assertThat(e.type()).isEqualTo(Type.HEADING));
    }

    /**
     * A line of its own whose terms are set in bold among words in the body's weight ("A heißt <b>abgeschlossene
     * Hülle</b> oder <b>Abschluss</b> von M.", a definition between two displayed formulas) is running text, though
     * most of its characters are bold, and so is a line in bold but for its first word, in lower case ("heißt
     * <b>begleitendes Dreibein</b>."); a line bold throughout is a heading (issue 36: the corpus's geometry lecture
     * notes had twelve such lines as headings).
     */
    @Test
    void aLineWithItsTermsInBoldIsTextAndALineBoldThroughoutIsAHeading() throws Exception {
        PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("terms.pdf", PDRectangle.A4, cs -> {
            show(cs, bold, 11, 72, 760, "Abgeschlossene Mengen");
            show(cs, regular, 11, 72, 740, "Sei X ein topologischer Raum und M eine Teilmenge von X. Dann ist der Schnitt");
            show(cs, regular, 11, 72, 726, "aller abgeschlossenen Mengen, die M enthalten, wieder abgeschlossen.");
            runs(cs, 11, 72, 696, regular, "A heißt ", bold, "abgeschlossene Hülle", regular, " oder ", bold, "Abschluss", regular, " von M.");
            show(cs, regular, 11, 72, 666, "Der Abschluss ist die kleinste abgeschlossene Menge, die M enthält, und jede");
            show(cs, regular, 11, 72, 652, "abgeschlossene Menge ist ihr eigener Abschluss.");
            show(cs, regular, 11, 72, 622, "Die drei Vektoren T, N und B einer Kurve, zusammen genommen,");
            runs(cs, 11, 72, 592, regular, "heißt ", bold, "begleitendes Dreibein von Frenet", regular, ".");
            show(cs, regular, 11, 72, 562, "Seine Vektoren stehen in jedem Punkt der Kurve senkrecht aufeinander.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.text().contains("A heißt")).singleElement().satisfies(e -> {
            assertThat(squeeze(e.text())).isEqualTo("A heißt abgeschlossene Hülle oder Abschluss von M.");
            assertThat(e.bold()).as("most of its characters are bold").isTrue();
            assertThat(e.type()).isEqualTo(Type.PARAGRAPH);
        });
        assertThat(elements).filteredOn(e -> e.text().contains("Dreibein")).singleElement()
                .as("bold but for its first word, which goes on with the sentence above").satisfies(e -> assertThat(e.type()).isEqualTo(Type.PARAGRAPH));
        assertThat(elements).filteredOn(e -> e.text().equals("Abgeschlossene Mengen")).singleElement()
                .satisfies(e -> assertThat(e.type()).isEqualTo(Type.HEADING));
    }

    /**
     * A short line in smaller type set a little under a title (a byline: "Duck") is a line of its own, not the title's
     * last word (issue 36); an exponent raised over its line stays in it.
     */
    @Test
    void aBylineUnderATitleIsNotPartOfTheTitle() throws Exception {
        PDType1Font times = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        Path pdf = onePage("byline.pdf", PDRectangle.LETTER, cs -> {
            show(cs, times, 26, 72, 700, "Swimming in the lake");
            show(cs, times, 8, 72, 680, "Duck");
            show(cs, times, 11, 72, 640, "To get started with swimming, first lay down in the water and look around.");
            // (a wrapped line as long as text that wraps by fit makes it: a short one would end its paragraph)
            show(cs, times, 11, 72, 626, "The energy of a duck at rest, as every swimmer knows, is E = mc");
            show(cs, times, 7, 72 + times.getStringWidth("The energy of a duck at rest, as every swimmer knows, is E = mc") / 1000 * 11 + 0.5f, 630, "2");
            show(cs, times, 11, 72, 612, "and nobody has measured it yet.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements.getFirst().text()).isEqualTo("Swimming in the lake");
        assertThat(elements).anySatisfy(e -> assertThat(e.text()).isEqualTo("Duck"));
        assertThat(elements).filteredOn(e -> e.text().contains("mc")).singleElement().satisfies(e -> assertThat(squeeze(e.text())).contains("E = mc", "2", "nobody"));
    }

    /**
     * A flowchart's boxes joined by arrows, whose edges line up with each other, are a ruled area to Lattice but no
     * table (issue 36): each box's text reads as its own paragraph, whole, instead of cells cut from the other boxes'
     * edges ("show the sa | me sugg | ested re"). The boxes stand apart and meet no neighbour along their sides.
     */
    @Test
    void aFlowchartsBoxesAndArrowsAreNotATable() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("flowchart.pdf", PDRectangle.A4, cs -> {
            cs.setLineWidth(1);
            cs.addRect(120, 700, 110, 28); // "Student falls ill"
            cs.addRect(375, 560, 110, 168); // the symptoms, standing on the wide box below
            cs.addRect(50, 600, 260, 70); // the caregiver's question
            cs.addRect(165, 575, 40, 25); // a label box on the arrow below the question
            cs.addRect(25, 460, 530, 100); // the wide box of what to report
            cs.stroke();
            // the arrows: from the first box down to the question, across to the symptoms, down through the label
            cs.moveTo(175, 700);
            cs.lineTo(175, 670);
            cs.moveTo(230, 714);
            cs.lineTo(375, 714);
            cs.moveTo(185, 600);
            cs.lineTo(185, 560);
            cs.stroke();
            show(cs, font, 11, 130, 710, "Student falls ill");
            show(cs, font, 11, 385, 710, "Suggested symptoms:");
            show(cs, font, 11, 385, 690, "Fever");
            show(cs, font, 11, 385, 675, "Cough");
            show(cs, font, 11, 385, 660, "Rash");
            show(cs, font, 11, 60, 650, "If a caregiver suspects that a fifth of the class");
            show(cs, font, 11, 60, 636, "show the same suggested reportable symptoms");
            show(cs, font, 11, 175, 584, "Yes");
            show(cs, font, 11, 40, 535, "A report must be submitted within 24 hours via the Ministry's network.");
            show(cs, font, 11, 40, 520, "A report must also be submitted within 48 hours through the county's system.");
        });
        List<Tabula.PdfTable> ruled = lattice(pdf);
        // the boxes' edges make a ruled area that reads as a table of two columns or more
        assertThat(ruled).anySatisfy(t -> assertThat(DocumentReader.tabular(t)).isTrue());
        List<Element> elements;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            elements = DocumentReader.model(doc, ruled.stream().filter(DocumentReader::tabular).toList(), Set.of(), new ArrayList<>(), p -> { })
                    .pages().getFirst().elements();
        }
        assertThat(elements).noneSatisfy(e -> assertThat(e.type()).isEqualTo(Type.TABLE));
        String text = squeeze(String.join(" ", elements.stream().map(Element::text).toList()));
        assertThat(text).contains("Student falls ill", "If a caregiver suspects that a fifth of the class show the same suggested reportable symptoms",
                "A report must be submitted within 24 hours via the Ministry's network.");
        assertThat(text).contains(squeeze(Independent.pdftotext(pdf)).split(" "));
    }

    /**
     * Lists set side by side on a slide are lists read one after another, each a list of its own, not a table; the
     * bulleted cells of a slide's table, with gaps between them, stay a table (issue 36). The structure set's
     * presentation exported to PDF: its table on slide 1, five lists side by side on slide 3 (pdftotext reads them
     * row by row: the words are the same).
     */
    @Test
    void listsSideBySideAreListsAndABulletedTableIsATable() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/odf_presentation_01.odp.pdf");
        DocumentModel model = model(pdf);
        assertThat(model.pages().getFirst().elements()).filteredOn(e -> e.type() == Type.TABLE).singleElement()
                .satisfies(e -> assertThat(e.table().grid()).anySatisfy(row -> assertThat(row.getFirst()).endsWith("R1")));
        List<Element> slide = model.pages().get(2).elements();
        assertThat(slide).extracting(Element::type).containsOnly(Type.LIST_ITEM, Type.PARAGRAPH);
        List<Element> items = slide.stream().filter(e -> e.type() == Type.LIST_ITEM).toList();
        assertThat(items).extracting(Element::text).containsExactly("List item4", "List item5", "List item6", "I1", "I2", "I3", "I4",
                "Item A", "Item B", "List1", "List2", "List3", "l1", "l2", "l3");
        assertThat(items.stream().map(Element::list).distinct()).hasSize(5);
        assertThat(squeeze(Independent.pdftotext(pdf, 3))).contains("List item4", "Some info:", "Maybe a list?");
    }

    /**
     * Lists side by side whose narrow text box wraps each item ("•  l" over "1") are lists too, the wrapped line part
     * of its item, not a table of five columns (issue 36: a presentation's slide of lists, exported to PDF).
     */
    @Test
    void listsSideBySideWithWrappedItemsAreLists() throws Exception {
        Path pdf = Files.createTempDirectory("lists").resolve("lists.pdf");
        String[][] columns = {{"1.  List item4", "2.  List item5", "3.  List item6"}, {"\u2022  I1", "\u2022  I2", "\u2022  I3", "\u2022  I4"},
                {"Some info:", "\u2022  Item A", "\u2022  Item B"}, {"\u2022  l", "1", "\u2022  l", "2", "\u2022  l", "3"}};
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(new PDRectangle(720, 405));
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                for (int c = 0; c < columns.length; c++) {
                    for (int r = 0; r < columns[c].length; r++) {
                        String line = columns[c][r];
                        // a wrapped line starts where its item's text does
                        float x = 150 + 140 * c + (line.length() == 1 ? font.getStringWidth("\u2022  ") / 1000 * 14 : 0);
                        show(cs, font, 14, x, 260 - 17 * r, line);
                    }
                }
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).noneMatch(e -> e.type() == Type.TABLE);
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(e -> squeeze(e.text())).containsExactly(
                "List item4", "List item5", "List item6", "I1", "I2", "I3", "I4", "Item A", "Item B", "l 1", "l 2", "l 3");
        assertThat(squeeze(Independent.run("pdftotext", "-q", "-layout", pdf.toString(), "-").output())).contains("List item4", "Some info:");
    }

    /**
     * A text box beside a list of larger type (a slide's list and a shape with two lines of text) is read after the
     * list, its lines one paragraph: its lines overlap the items' lines but stand between them, so they are not a
     * table's rows read across (issue 36).
     */
    @Test
    void aTextBoxBesideAListOfLargerTypeIsReadAfterIt() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("slide.pdf", new PDRectangle(960, 540), cs -> {
            String[] items = {"\u2022  With foo", "\u2022  Bar", "\u2022  And baz things"};
            for (int r = 0; r < items.length; r++) show(cs, font, 28, 73, 330 - 40 * r, items[r]);
            show(cs, font, 18, 514, 284, "A rectangle shape with this text");
            show(cs, font, 18, 619, 262, "inside.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(e -> e.type() + " " + squeeze(e.text())).containsExactly("LIST_ITEM With foo", "LIST_ITEM Bar",
                "LIST_ITEM And baz things", "PARAGRAPH A rectangle shape with this text inside.");
        assertThat(squeeze(Independent.run("pdftotext", "-q", "-layout", pdf.toString(), "-").output())).contains("A rectangle shape with this text");
    }

    /**
     * A first page's own header and footer, whose texts recur on no other page, are page furniture by their place:
     * one line in the margin, the same distance from the edge on every page, two lines and more apart from the text.
     * A "Page 2" set bold and larger right over its section's text is that section's heading, not a page number
     * (issue 36: a Word document with a different first-page header).
     */
    @Test
    void headersThatDifferFromPageToPageAreHeadersAndAPageHeadingIsAHeading() throws Exception {
        Path pdf = Files.createTempDirectory("headers").resolve("headers.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
            for (int n = 1; n <= 2; n++) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    show(cs, font, 11, 90, 795, n == 1 ? "FIRST PAGE HEADER (page 1 only)" : "REGULAR HEADER (page 2 onward)");
                    if (n == 1) {
                        show(cs, bold, 14, 90, 730, "Page header and footer fixture");
                        show(cs, font, 11, 90, 712, "This document has a first page header and footer of its own.");
                    } else {
                        show(cs, bold, 13, 90, 745, "Page 2");
                        show(cs, font, 11, 90, 730, "This is body text on page 2.");
                    }
                    show(cs, font, 11, 90, 88, n == 1 ? "FIRST PAGE FOOTER (page 1 only)" : "REGULAR FOOTER (page 2 onward)");
                }
            }
            doc.save(pdf.toFile());
        }
        DocumentModel model = model(pdf);
        for (DocumentModel.Page page : model.pages()) {
            assertThat(page.elements().getFirst().type()).isEqualTo(Type.PAGE_HEADER);
            assertThat(page.elements().getLast().type()).isEqualTo(Type.PAGE_FOOTER);
        }
        assertThat(model.pages().get(1).elements().get(1)).satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.HEADING);
            assertThat(e.text()).isEqualTo("Page 2");
        });
        assertThat(Independent.pdftotext(pdf, 1)).contains("FIRST PAGE HEADER");
    }

    /** A bold line at body size that ends in a colon leads into the list under it; one set larger is a heading (issue 36). */
    @Test
    void aBoldLeadInEndingInAColonIsNoHeading() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("leadin.pdf", PDRectangle.LETTER, cs -> {
            show(cs, bold, 14, 72, 700, "Test 1:");
            show(cs, font, 11, 72, 680, "Open-source software is cost-effective as it eliminates license fees for everyone.");
            show(cs, bold, 11, 72, 655, "Key Benefits:");
            show(cs, font, 11, 72, 640, "\u2022  Enhances security and transparency by allowing public access to code");
            show(cs, font, 11, 72, 625, "\u2022  A strong global community improves and maintains the projects");
        });
        assertThat(model(pdf).pages().getFirst().elements()).extracting(e -> e.type() + " " + e.text()).startsWith(
                "HEADING Test 1:", "PARAGRAPH Open-source software is cost-effective as it eliminates license fees for everyone.",
                "PARAGRAPH Key Benefits:");
    }

    /**
     * A symbol font's box that maps to no character (its code U+0084, drawn twice) before each answer of a
     * questionnaire makes the answers list items, shown with a bullet, not paragraphs that start with control
     * characters (issue 36: a survey annex, where pdftotext prints the same two codes before each answer).
     */
    @Test
    void answersAfterAnUnmappedSymbolGlyphAreListItems() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/table_mislabeled_as_picture.pdf");
        String text = Independent.run("pdftotext", "-q", "-layout", pdf.toString(), "-").output();
        assertThat(text).contains("\u0084\u0084 They work in parallel");
        List<Element> items = model(pdf).pages().getFirst().elements().stream().filter(e -> e.type() == Type.LIST_ITEM).toList();
        assertThat(items).extracting(e -> start(e.text(), 4)).contains("They work in parallel", "They coordinate appointments of",
                "Not applicable, there is");
        assertThat(items).allSatisfy(e -> assertThat(e.marker() + e.text()).doesNotContain("\u0084"));
    }

    /**
     * Bullets drawn from fonts without a Unicode mapping for them make list items, and glyphs without a mapping are
     * no text (issue 36): the IBM Redbook's lists lead each item with a glyph that poppler reads as "r" (a CID of a
     * composite font, which PDFBox drops) or as an unassigned code point (a simple font's code 2), and the model read
     * them as paragraphs ("Advanced SQL knowledge and skills transfer Business intelligence and analytics" as one);
     * a logo's lettering in a font without a map came out as tabs and control codes.
     */
    @Test
    void bulletsFromFontsWithoutAUnicodeMapAreListItems() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/redp5110_sampled.pdf");
        String page3 = Independent.run("pdftotext", "-q", "-f", "3", "-l", "3", "-layout", pdf.toString(), "-").output();
        // the bullet's CID 114 read as "r", then an unmapped CID 1 as U+0001
        assertThat(page3).containsPattern("r\\p{Cc}? Advanced SQL knowledge and skills transfer\\n\\s*r\\p{Cc}? Business intelligence and analytics");
        String page5 = Independent.run("pdftotext", "-q", "-f", "5", "-l", "5", "-layout", pdf.toString(), "-").output();
        assertThat(page5).contains("\uDA00\uDCB0 Security fundamentals");
        DocumentModel m = model(pdf);
        List<Element> items3 = m.pages().get(2).elements().stream().filter(e -> e.type() == Type.LIST_ITEM).toList();
        assertThat(items3).extracting(Element::text).containsExactly("Database performance and scalability",
                "Advanced SQL knowledge and skills transfer", "Business intelligence and analytics", "DB2 Web Query",
                "Query/400 modernization for better reporting and analysis capabilities", "Database modernization and re-engineering",
                "Data-centric architecture and design", "Extremely large database and overcoming limits to growth", "ISV education and enablement");
        assertThat(items3).extracting(Element::marker).containsOnly("•");
        assertThat(m.pages().get(4).elements().stream().filter(e -> e.type() == Type.LIST_ITEM)).extracting(Element::text)
                .containsExactly("Security fundamentals", "Current state of IBM i security", "DB2 for i security controls");
        assertThat(m.pages()).flatMap(DocumentModel.Page::elements).allSatisfy(e ->
                assertThat(e.text() == null ? "" : e.text()).doesNotContainPattern("[\\p{Cc}&&[^\\n\\t]]"));
    }

    /**
     * The corpus paper's one web link (its footnote's address) is on its footnote, its text the address as printed
     * without the sentence's full stop that the link's rectangle takes in; qpdf's JSON of the file holds the address.
     */
    @Test
    void aFootnotesAddressIsALinkOnTheFootnote() throws Exception {
        Path pdf = corpus("pdf-text/two-column-paper-2p.pdf");
        String uri = "https://github.com/facebookresearch/DPR";
        assertThat(Independent.run("qpdf", "--json", "--json-key=qpdf", pdf.toString()).output()).contains("\"u:" + uri + "\"");
        List<Element> linked = model(pdf).pages().stream().flatMap(p -> p.elements().stream()).filter(e -> e.links() != null).toList();
        assertThat(linked).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.FOOTNOTE);
            assertThat(e.text()).contains(uri + ".");
            assertThat(e.links()).containsExactly(new DocumentModel.Link(uri, uri));
        });
    }

    /**
     * A glyph without a Unicode mapping between a line's words (a math font's "≪" in "k ≪ |C|", which pdftotext reads
     * as the control code U+001C) is a blank there: the line and its paragraph stay whole, with no control code in the
     * text (issue 36; leaving the glyph out cut the line at the hole it left).
     */
    @Test
    void anUnmappedGlyphBetweenWordsKeepsTheirLineWhole() throws Exception {
        Path pdf = corpus("pdf-text/two-column-paper-2p.pdf");
        String text = Independent.run("pdftotext", "-q", "-f", "2", "-l", "2", pdf.toString(), "-").output();
        assertThat(text).contains("where |CF | = k \u001C |C|. For a fixed");
        List<Element> elements = model(pdf).pages().get(1).elements();
        assertThat(elements).filteredOn(e -> e.text() != null && e.text().contains("where |CF | = k")).singleElement()
                .satisfies(e -> assertThat(e.text()).containsPattern("= k +\\|C\\|\\. For a fixed").doesNotContainPattern("[\\p{Cntrl}&&[^\\n\\t]]"));
    }

    /**
     * Notes numbered "1)" in small print at the foot of the page, under the body text, are footnotes with their numbers,
     * not a list (issue 36: a Korean report's and EU reports' notes came out as list items "1. ..."); the same numbers
     * at the body's size, or in small print with body text under them, are still a list.
     */
    @Test
    void notesNumberedWithAParenthesisAtThePagesFootAreFootnotes() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("notes.pdf", PDRectangle.LETTER, cs -> {
            show(cs, font, 11, 72, 700, "The survey covered three regions and their schools over two years.");
            show(cs, font, 11, 72, 680, "Its questions were the following:");
            show(cs, font, 11, 72, 660, "1) How many pupils finished school in each year");
            show(cs, font, 11, 72, 645, "2) How many of them went on to further education");
            show(cs, font, 8, 72, 560, "1) Side note in small print, which the body text under it follows.");
            show(cs, font, 11, 72, 520, "The results are given by region in the tables of the annex that follows.");
            show(cs, font, 8, 72, 120, "1) Source: national statistics office, figures for 2019 and 2020.");
            show(cs, font, 8, 72, 108, "2) Regions as defined before the reform of 2016.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.FOOTNOTE).extracting(Element::text).containsExactly(
                "1) Source: national statistics office, figures for 2019 and 2020.", "2) Regions as defined before the reform of 2016.");
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(Element::text).containsExactly(
                "How many pupils finished school in each year", "How many of them went on to further education",
                "Side note in small print, which the body text under it follows.");
    }

    /**
     * Notes at the page's foot, each starting with its number raised in smaller type and set close one under the other
     * at nearly the body's size (a Google Docs or Word document's footnotes: "¹ 2021 estimate" at 10 pt under 11 pt
     * text), are a footnote each, not one paragraph of all (issue 36: the corpus's Google Docs file read "1 2021 estimate
     * 2 2020 estimate 3 2020 estimate"); a raised reference inside a line of the body stays in its paragraph.
     */
    @Test
    void notesStartingWithARaisedNumberAreAFootnoteEach() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("raised-notes.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 11, 72, 760, "Indonesia had 273 879 750 people and Germany 83 190 556, as the census");
            show(cs, font, 11, 72, 746, "counted them");
            show(cs, font, 6, 140, 750, "1");
            show(cs, font, 11, 144, 746, " in the years the notes give.");
            String[][] notes = {{"1", " 2021 estimate"}, {"2", " 2020 estimate"}, {"3", " 2020 estimate"}};
            float y = 100;
            for (String[] note : notes) {
                // the mark in its own text object, 6 pt and raised; the note's words in the next one
                show(cs, font, 6, 72, y + 3.5f, note[0]);
                show(cs, font, 10, 75.3f, y, note[1]);
                y -= 11.5f;
            }
            // a mark drawn in the same text object as its words
            cs.beginText();
            cs.setFont(font, 6);
            cs.newLineAtOffset(72, y + 3.5f);
            cs.showText("4");
            cs.setFont(font, 10);
            cs.newLineAtOffset(3.3f, -3.5f);
            cs.showText(" 2019 census");
            cs.endText();
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.FOOTNOTE).extracting(e -> squeeze(e.text()))
                .containsExactly("1 2021 estimate", "2 2020 estimate", "3 2020 estimate", "4 2019 census");
        assertThat(elements).filteredOn(e -> squeeze(e.text()).contains("census counted")).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.PARAGRAPH);
            assertThat(squeeze(e.text())).endsWith("the notes give.");
        });
    }

    /** {@code lines} lines of a report's prose about its pillars at {@code size} pt, from 720 pt up the page down, {@code leading} apart. */
    private static void pillarsProse(PDPageContentStream cs, PDFont font, float size, int lines, float leading) throws IOException {
        for (int i = 0; i < lines; i++) show(cs, font, size, 72, 720 - leading * i, "The strategy sets out five pillars, each with objectives the agencies are to meet.");
    }

    /**
     * A figure's numbered lines in small print low on the page ("4.1:  Secure the technical foundation", under a pillar's
     * heading and over the next one, as the corpus's InDesign report sets its strategy's objectives) are no footnotes: a
     * number with a part after its point is no note's mark, and a note has no larger text under it in its column. The
     * page's own note at its foot still is one.
     */
    @Test
    void aFiguresNumberedLinesLowOnThePageAreNoFootnotes() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA), bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("objectives.pdf", PDRectangle.LETTER, cs -> {
            pillarsProse(cs, font, 10, 12, 14);
            show(cs, bold, 13, 72, 280, "4 Invest in a resilient future");
            show(cs, font, 7, 72, 262, "4.1:  Secure the technical foundation of the internet");
            show(cs, font, 7, 72, 252, "4.2:  Reinvigorate federal research and development for cybersecurity");
            show(cs, font, 7, 72, 232, "4 Objectives the strategy numbers by its pillars");
            show(cs, bold, 13, 72, 205, "5 Forge international partnerships");
            show(cs, font, 7, 72, 185, "5.1:  Build coalitions to counter threats to our digital ecosystem");
            show(cs, font, 7, 72, 60, "1 GAO, Cybersecurity: Clarity of Leadership Urgently Needed, GAO-20-629.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.FOOTNOTE).extracting(e -> squeeze(e.text()))
                .containsExactly("1 GAO, Cybersecurity: Clarity of Leadership Urgently Needed, GAO-20-629.");
    }

    /**
     * A number set large beside a heading of two lines, drawn after them (an InDesign report's pillars: "3" at 15 pt by
     * "Shape market forces to drive / security and resilience" at 11 pt) leads the heading, whose lines read in their
     * order: it is no word of the line it stands level with ("3 security and resilience Shape market forces to drive").
     */
    @Test
    void aLargeNumberBesideATwoLineHeadingLeadsIt() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA), bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("pillars.pdf", PDRectangle.LETTER, cs -> {
            pillarsProse(cs, font, 9, 6, 12);
            show(cs, bold, 11, 91.5f, 630, "Shape market forces to drive ");
            show(cs, bold, 11, 91.5f, 619, "security and resilience");
            show(cs, bold, 15, 72, 623.5f, "3");
            for (int i = 0; i < 3; i++) show(cs, font, 9, 72, 595 - 12 * i, "3." + (i + 1) + ": Hold the stewards of our data accountable and shift liability for insecure software.");
        });
        assertThat(model(pdf).pages().getFirst().elements()).filteredOn(e -> e.type() == Type.HEADING).extracting(e -> squeeze(e.text()))
                .containsExactly("3 Shape market forces to drive security and resilience");
    }

    /**
     * Objectives numbered "1.1:", "1.2:" (the InDesign report's pillars) are list items, each with its wrapped line and
     * its number as its marker, where they were paragraphs cut between an item's lines; a heading numbered "2.1:" in
     * larger bold type stays a heading.
     */
    @Test
    void objectivesNumberedWithAColonAreListItems() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA), bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("objectives-list.pdf", PDRectangle.LETTER, cs -> {
            pillarsProse(cs, font, 10, 4, 13);
            show(cs, font, 10, 72, 660, "1.1:  Establish cybersecurity requirements to support national security");
            show(cs, font, 10, 96, 647, "and public safety");
            show(cs, font, 10, 72, 634, "1.2:  Scale public-private collaboration");
            show(cs, font, 10, 72, 621, "1.3:  Integrate federal cybersecurity centers");
            show(cs, bold, 14, 72, 590, "2.1: Disrupt and dismantle threat actors");
            show(cs, font, 10, 72, 570, "The second pillar is about the actors that threaten the nation's systems and its people.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(Element::marker, e -> squeeze(e.text())).containsExactly(
                tuple("1.1:", "Establish cybersecurity requirements to support national security and public safety"),
                tuple("1.2:", "Scale public-private collaboration"), tuple("1.3:", "Integrate federal cybersecurity centers"));
        assertThat(elements).filteredOn(e -> e.type() == Type.HEADING).extracting(Element::text).containsExactly("2.1: Disrupt and dismantle threat actors");
    }

    /**
     * The parts of a syntax diagram drawn in vector shapes (callouts, arrows), set larger than the body and some bold,
     * are the figure's labels, not headings; the heading after the figure's caption is still one, and every word is kept
     * (issue 36: redp5110's page 10, where each part of "CREATE PERMISSION" was an ###### heading).
     */
    @Test
    void theLabelsOfAFigureDrawnInVectorShapesAreNoHeadings() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/redp5110_sampled.pdf");
        List<Element> page = model(pdf).pages().get(9).elements();
        List<String> typed = page.stream().map(e -> e.type() + " " + squeeze(e.text())).toList();
        int intro = typed.indexOf(typed.stream().filter(t -> t.startsWith("PARAGRAPH The SQL CREATE PERMISSION statement")).findFirst().orElseThrow());
        int caption = typed.indexOf("CAPTION Figure 3-1 CREATE PERMISSION SQL statement");
        assertThat(caption).isGreaterThan(intro + 8);
        assertThat(typed.subList(intro + 1, caption)).as("the figure's text").contains("PARAGRAPH ON <table name>", "PARAGRAPH FOR ROWS")
                .noneSatisfy(t -> assertThat(t).startsWith("HEADING"));
        assertThat(typed).contains("HEADING Column mask");
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            // the figure's words are all there: the diagram is read, only not as headings
            String shown = squeeze(String.join(" ", page.stream().map(Element::text).toList()));
            assertThat(shown).contains("CREATE PERMISSION <permission name>", "ENFORCED FOR ALL ACCESS", "WHERE <logic to test: user and/or group and/or column value>");
            assertThat(Pictures.of(doc.getPage(9), false).drawings()).as("the diagram's box").anySatisfy(b -> {
                assertThat(b.y()).isLessThan(140);
                assertThat(b.bottom()).isGreaterThan(390);
            });
        }
    }

    /**
     * A table's last column of symbols ("CSOs" over a "*" in each row), set apart from the rest of its table by a gutter
     * that the page's other column leaves clear, is the table's column, not a column of the page; and two "*" a gap apart
     * are two cells, not a list marker and its text; the header's cell wrapped onto a second line under the first row
     * is one cell (issue 36: the survey annex's "State funded legal aid" and "CSOs" answers read as one column).
     */
    @Test
    void aTablesColumnOfSymbolsIsItsColumn() throws Exception {
        DocumentModel model = model(Path.of("bench/structure/pdf/table_mislabeled_as_picture.pdf"));
        DocumentModel.Table table = tables(model, 1).stream().filter(t -> t.rows().stream().flatMap(List::stream)
                .anyMatch(c -> c.text().equals("Children"))).findFirst().orElseThrow();
        List<String> children = table.rows().stream().filter(r -> r.stream().anyMatch(c -> c.text().equals("Children"))).findFirst().orElseThrow()
                .stream().map(c -> c.text().strip()).toList();
        assertThat(children).containsExactly("yy", "Children", "*", "*");
        // the header's cell wrapped onto a second line is one cell, and the rows start under it
        assertThat(table.rows().getFirst().stream().map(c -> squeeze(c.text())).toList()).containsExactly("", "", "State funded legal aid", "CSOs");
        assertThat(table.rows().get(1).getFirst().text()).isEqualTo("yy");
    }

    /**
     * A web address is an address, however large it is set: no heading (issue 36: redp5110's back cover, where
     * "ibm.com/redbooks" is 12 pt and the body 10); the numbered sections stay headings.
     */
    @Test
    void anAddressSetLargeIsNoHeadingNorALineThatGivesOne() throws Exception {
        DocumentModel model = model(Path.of("bench/structure/pdf/redp5110_sampled.pdf"));
        List<String> back = model.pages().get(17).elements().stream().map(e -> e.type() + " " + squeeze(e.text())).toList();
        assertThat(back).contains("PARAGRAPH ibm.com/redbooks");
        assertThat(model.pages().get(5).elements()).anySatisfy(e -> assertThat(e.type() + " " + e.text()).isEqualTo("HEADING 1.1  Security fundamentals"));

        // a title page's group and authors, set large with their web and mail addresses, are no headings
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("title-page.pdf", PDRectangle.A4, cs -> {
            show(cs, bold, 25, 160, 760, "Shared MIME-info Database");
            show(cs, bold, 17, 130, 720, "X Desktop Group (http://www.freedesktop.org)");
            show(cs, bold, 17, 100, 690, "Fabio Fiorina, Simon Josefsson (help-libtasn1@gnu.org)");
            show(cs, bold, 17, 72, 640, "1. Introduction");
            show(cs, font, 11, 72, 620, "Many programs and desktops use the MIME system to represent the types of files. Frequently,");
            show(cs, font, 11, 72, 606, "it is necessary to work out the correct MIME type for a file. This is generally done by");
            show(cs, font, 11, 72, 592, "examining the file's name or contents, and looking up the correct MIME type in a database.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(e -> e.type() + " " + e.text()).containsExactly("TITLE Shared MIME-info Database",
                "PARAGRAPH X Desktop Group (http://www.freedesktop.org)", "PARAGRAPH Fabio Fiorina, Simon Josefsson (help-libtasn1@gnu.org)",
                "HEADING 1. Introduction", "PARAGRAPH Many programs and desktops use the MIME system to represent the types of files. Frequently,\n"
                        + "it is necessary to work out the correct MIME type for a file. This is generally done by\n"
                        + "examining the file's name or contents, and looking up the correct MIME type in a database.");
    }

    /**
     * Centred lines (a text box's, a cover's) are one paragraph, though each starts where its length puts it; in
     * left-aligned text with no space between paragraphs, an indented first line still starts a paragraph (issue 36:
     * the flowchart's centred question was cut in two where a line started further in).
     */
    @Test
    void centredLinesAreOneParagraphAndAnIndentedLineStartsOne() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[] centred = {"If a caregiver suspects that within one week, a", "fifth of the class (for classes with more than 15",
                "students) or more than three students (for", "classes with 15 or fewer students)", "show the same suggested reportable symptoms"};
        String[] left = {"The first paragraph runs over two lines of text set flush left at the margin and", "ends here.",
                "    The second paragraph starts with an indented first line and runs on over the", "margin like the first one did."};
        Path pdf = onePage("centred.pdf", PDRectangle.A4, cs -> {
            float y = 700;
            for (String line : centred) {
                show(cs, font, 12, 300 - font.getStringWidth(line) / 1000 * 12 / 2, y, line);
                y -= 14;
            }
            y -= 30;
            for (String line : left) {
                show(cs, font, 11, 72, y, line);
                y -= 13;
            }
        });
        List<String> texts = model(pdf).pages().getFirst().elements().stream().map(e -> squeeze(e.text())).toList();
        assertThat(texts).containsExactly(squeeze(String.join(" ", centred)), squeeze(left[0] + " " + left[1]), squeeze(left[2] + " " + left[3]));
    }

    /**
     * A picture the text wraps around (floated at a paragraph's right, its top between two of the paragraph's lines)
     * follows the paragraph, which stays one (issue 36: redp5110's author photo cut "... on the DB2 for i" from "Center
     * of Excellence team ..."; the cover's globe cut a bold line from its last words).
     */
    @Test
    void aPictureTheTextWrapsAroundFollowsItsParagraph() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[] lines = {"The paragraph before the picture runs over several lines of text set", "flush left at the margin, and the picture floats at its right side,",
                "so that the lines beside it are shorter than the ones above it are,", "as a word processor wraps text around a picture placed in the",
                "middle of a paragraph; the lines go on below the picture's foot", "where they reach the right margin again and the paragraph ends."};
        Path pdf = Files.createTempDirectory("wrap").resolve("wrap.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                for (int i = 0; i < lines.length; i++) show(cs, font, 11, 72, 700 - 14 * i, lines[i]);
                java.awt.image.BufferedImage photo = new java.awt.image.BufferedImage(60, 60, java.awt.image.BufferedImage.TYPE_INT_RGB);
                cs.drawImage(LosslessFactory.createFromImage(doc, photo), 430, 640, 80, 50);
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.PARAGRAPH, Type.PICTURE);
        assertThat(squeeze(elements.getFirst().text())).isEqualTo(String.join(" ", lines));
        assertThat(model(Path.of("bench/structure/pdf/redp5110_sampled.pdf")).pages().get(3).elements())
                .anySatisfy(e -> assertThat(squeeze(e.text())).startsWith("Jim Bainbridge is a senior DB2 consultant on the DB2 for i Center of Excellence team"));
    }

    /**
     * A report's cover set over a banner (issue 36: the GAO report, whose title came out in three parts and its first
     * heading as a paragraph): a bold heading whose second line is mostly italic (a work's title set in italic within
     * it) is one heading; icon-sized pictures in the margin beside the title (the banner's dots) set no column of their
     * own, so the title's three lines stay one title; and the banner's lines, which bleed off the page, are a
     * decoration, no figure whose text would be its labels.
     */
    @Test
    void aReportsTitleAndHeadingsOverABannerStayWhole() throws Exception {
        List<Element> page = model(corpus("pdf-text/indesign-2p-linearized-pdf17.pdf")).pages().getFirst().elements();
        assertThat(page).filteredOn(e -> e.type() == Type.TITLE).singleElement().extracting(e -> squeeze(e.text()))
                .isEqualTo("Cybersecurity: Launching and Implementing the National Cybersecurity Strategy");
        assertThat(page).filteredOn(e -> e.type() == Type.HEADING).extracting(e -> squeeze(e.text()))
                .contains("Threats Highlight the Importance of Establishing Leadership in Cybersecurity",
                        "The Administration Needs to Fully Develop and Implement the National Cybersecurity Strategy");
    }

    /**
     * A line mostly in italics inside running text (a work's title: "the 2018 <i>National Cyber Strategy</i> and its
     * 2019 <i>Implementation</i>" over "<i>Plan</i> did not address") that fills the measure and ends no sentence leaves
     * its paragraph whole.
     */
    @Test
    void italicWordsFillingALineStayInTheirParagraph() throws Exception {
        List<Element> page = model(corpus("pdf-text/indesign-2p-linearized-pdf17.pdf")).pages().getFirst().elements();
        assertThat(page).filteredOn(e -> e.text().contains("Coordinating the federal")).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.PARAGRAPH);
            assertThat(squeeze(e.text())).contains("we reported that the 2018 National Cyber Strategy and its 2019 Implementation Plan did not address");
        });
    }

    /**
     * A list item's text hangs right of its marker: a line under that text goes on with the item though its style
     * differs (a bold lead-in line over its explanation), and a line back at the marker's place after hanging lines is
     * the text after the list.
     */
    @Test
    void anItemsHangingLinesAreItsTextAndALineAtItsMarkerIsNot() throws Exception {
        PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("hanging.pdf", PDRectangle.A4, cs -> {
            show(cs, regular, 10, 72, 760, "The office names two challenges.");
            show(cs, regular, 10, 72, 740, "\u2022");
            show(cs, bold, 10, 84, 740, "Timely issuance of the implementation plan.");
            show(cs, regular, 10, 84, 728, "As previously mentioned, the office plans to specify the details of key activities");
            show(cs, regular, 10, 84, 716, "such as performance measures and needed resources.");
            show(cs, regular, 10, 72, 700, "\u2022");
            show(cs, bold, 10, 84, 700, "Vacant director position.");
            show(cs, regular, 10, 84, 688, "The director resigned in February and a replacement has not yet been named, so an");
            show(cs, regular, 10, 84, 676, "acting official carries out the duties of the position in the meantime.");
            show(cs, regular, 10, 72, 664, "According to the strategy, the office will work with federal agencies on a plan.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.PARAGRAPH, Type.LIST_ITEM, Type.LIST_ITEM, Type.PARAGRAPH);
        assertThat(squeeze(elements.get(1).text())).isEqualTo("Timely issuance of the implementation plan. As previously mentioned, the office "
                + "plans to specify the details of key activities such as performance measures and needed resources.");
        assertThat(squeeze(elements.get(2).text())).endsWith("carries out the duties of the position in the meantime.");
        assertThat(elements.get(3).text()).startsWith("According to the strategy");

        List<Element> report = model(corpus("pdf-text/indesign-2p-linearized-pdf17.pdf")).pages().get(1).elements();
        assertThat(report).filteredOn(e -> e.text().startsWith("Vacant National Cyber Director")).singleElement()
                .satisfies(e -> assertThat(e.type()).isEqualTo(Type.LIST_ITEM))
                .satisfies(e -> assertThat(squeeze(e.text())).contains("position. The National Cyber Director resigned"));
        assertThat(report).filteredOn(e -> e.text().startsWith("According to the strategy")).singleElement()
                .satisfies(e -> assertThat(e.type()).isEqualTo(Type.PARAGRAPH));
    }

    /**
     * A block in a monospaced font where the body is not is a code listing (issue 36) when it has a sign of code in it
     * and does not stand inside a sentence: its text keeps its lines, each line's indentation (spaces drawn as glyphs
     * are no ink) and a blank line; its last line is no start of the text under it. A path set in the code font inside a
     * sentence, and prose in a typewriter face, stay paragraphs.
     */
    @Test
    void aMonospacedListingIsCodeWithItsIndentation() throws Exception {
        PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font courier = new PDType1Font(Standard14Fonts.FontName.COURIER);
        float pitch = 10 * 0.6f;
        Path pdf = onePage("listing.pdf", PDRectangle.A4, cs -> {
            show(cs, regular, 11, 72, 760, "The definitions must follow the syntax below:");
            show(cs, courier, 10, 72, 740, "Group ::= SEQUENCE {");
            show(cs, courier, 10, 72, 728, "   id     OBJECT IDENTIFIER,");
            show(cs, courier, 10, 72 + 3 * pitch, 716, "value  Value");
            show(cs, courier, 10, 72, 704, "}");
            show(cs, courier, 10, 72, 680, "END");
            show(cs, regular, 11, 72, 668, "The token must be separate from other elements, as the parser reads it.");
            show(cs, regular, 11, 72, 640, "The files are read from");
            show(cs, courier, 11, 72, 626, "/usr/share/mime/packages/freedesktop.org.xml");
            show(cs, regular, 11, 72, 612, "and the user's own folder, in that order.");
            show(cs, courier, 10, 72, 584, "This memo is set in a typewriter face for a vintage look.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.CODE).singleElement().extracting(Element::text)
                .isEqualTo("Group ::= SEQUENCE {\n   id     OBJECT IDENTIFIER,\n   value  Value\n}\n\nEND");
        assertThat(elements).filteredOn(e -> e.text().startsWith("The token")).singleElement().satisfies(e -> assertThat(e.type()).isEqualTo(Type.PARAGRAPH));
        assertThat(elements).filteredOn(e -> e.text().contains("/usr/share/mime")).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.PARAGRAPH);
            assertThat(squeeze(e.text())).isEqualTo("The files are read from /usr/share/mime/packages/freedesktop.org.xml and the user's own folder, in that order.");
        });
        assertThat(elements).filteredOn(e -> e.text().contains("typewriter")).singleElement().satisfies(e -> assertThat(e.type()).isEqualTo(Type.PARAGRAPH));
        // pdftotext's layout shows the indentation
        assertThat(Independent.run("pdftotext", "-q", "-layout", pdf.toString(), "-").output()).contains("Group ::= SEQUENCE {\n   id", "\n   value");
    }

    /**
     * A table of contents is a table of two columns, each entry's title without its leader of dots and its page number
     * (issue 36; Docling reads one so): the Redpaper's contents page, and a drawn one whose chapter numbers stand apart
     * from their titles and whose long title wraps onto a second line that carries the leader. pdftotext reads each
     * entry on its line with its number.
     */
    @Test
    void aTableOfContentsIsATableOfTitlesAndPageNumbers() throws Exception {
        Path redp = Path.of("bench/structure/pdf/redp5110_sampled.pdf");
        List<Element> contents = model(redp).pages().get(1).elements();
        assertThat(contents).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> {
            assertThat(t.table().grid()).hasSize(43).startsWith(List.of("Notices", "vii"), List.of("Trademarks", "viii"))
                    .contains(List.of("Chapter 1. Securing and protecting IBM DB2 data", "1"), List.of("3.6.8 Demonstrating data access with a view and RCAC", "32"));
        });
        assertThat(Independent.run("pdftotext", "-q", "-layout", "-f", "2", "-l", "2", redp.toString(), "-").output())
                .containsPattern("Notices[ .]+vii").containsPattern("3\\.6\\.8 +Demonstrating data access with a view and RCAC[ .]+32");

        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("contents.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 16, 72, 760, "Contents");
            // the chapters' numbers set apart from their titles, as texinfo sets them
            for (int n = 1; n <= 3; n++) show(cs, font, 10, 72, 744 - 14 * n - (n == 3 ? 14 : 0), String.valueOf(n));
            show(cs, font, 10, 96, 730, "Introduction . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 1");
            show(cs, font, 10, 96, 716, "A chapter whose title is long enough to wrap onto a second line of the");
            show(cs, font, 10, 96, 702, "table of contents . . . . . . . . . . . . . . . . . . . . . . . . . . . . 7");
            show(cs, font, 10, 96, 688, "Results . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 12");
            show(cs, font, 10, 72, 660, "The chapters can be read in any order.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).as(elements.toString()).extracting(Element::type).containsExactly(Type.TITLE, Type.TABLE, Type.PARAGRAPH);
        assertThat(elements.get(1).table().grid()).containsExactly(List.of("1 Introduction", "1"),
                List.of("2 A chapter whose title is long enough to wrap onto a second line of the table of contents", "7"), List.of("3 Results", "12"));
    }

    /**
     * A title that the following pages repeat small as their running header is the first page's title, not a header
     * (issue 36: a specification's "Shared MIME-info Database" at 25 pt over its first page, at 10 pt atop the others,
     * was left out of Markdown as furniture); the small copies stay headers.
     */
    @Test
    void aTitleRepeatedSmallAsTheRunningHeaderIsTheTitle() throws Exception {
        Path pdf = Files.createTempDirectory("title").resolve("title.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
            for (int n = 1; n <= 3; n++) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    if (n == 1) show(cs, bold, 25, 160, 760, "Shared MIME-info Database");
                    else show(cs, font, 10, 420, 800, "Shared MIME-info Database");
                    // a letterhead set tiny under the first page's logo and large atop the others is a header throughout
                    if (n == 1) show(cs, bold, 4, 30, 810, "U.S. GOVERNMENT ACCOUNTABILITY OFFICE");
                    else show(cs, bold, 14, 140, 815, "U.S. Government Accountability Office");
                    show(cs, font, 11, 72, 700, "Section " + n + " of the specification says what applications must do with the database.");
                }
            }
            doc.save(pdf.toFile());
        }
        DocumentModel model = model(pdf);
        assertThat(model.pages().getFirst().elements()).filteredOn(e -> e.text().equals("Shared MIME-info Database")).singleElement()
                .satisfies(e -> assertThat(e.type()).isEqualTo(Type.TITLE));
        for (DocumentModel.Page page : model.pages()) {
            assertThat(page.elements()).filteredOn(e -> e.text().equalsIgnoreCase("U.S. Government Accountability Office")).singleElement()
                    .satisfies(e -> assertThat(e.type()).isEqualTo(Type.PAGE_HEADER));
        }
        for (DocumentModel.Page page : model.pages().subList(1, 3)) {
            assertThat(page.elements()).filteredOn(e -> e.text().equals("Shared MIME-info Database")).singleElement()
                    .satisfies(e -> assertThat(e.type()).isEqualTo(Type.PAGE_HEADER));
        }
        assertThat(Independent.pdftotext(pdf, 1)).contains("Shared MIME-info Database");
    }

    /**
     * A page that sets its lines wide apart (1.8 line spacing) keeps each paragraph whole (issue 36): the gap between
     * the lines of a paragraph is the page's own leading, and only a wider gap, or one under a line that does not wrap,
     * starts a paragraph. The structure set's Arabic report page reads its first paragraph of ten lines as one.
     */
    @Test
    void widelySpacedLinesAreOneParagraph() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[] first = {"The government sets out its programme for the coming years in four strategic goals that", "guide the work of every ministry, from building the capacities of the people to the",
                "growth of a competitive economy, the security of the nation and the stability of its", "political life, each with its own targets and measures of progress, which the",
                "ministries report on every quarter and which the cabinet reviews at the end of each", "year against the budget that parliament approved for them."};
        String[] second = {"The targets were set from the vision for the year ahead, the recommendations of the", "national dialogue and the plans of the ministries and their agencies."};
        Path pdf = onePage("spaced.pdf", PDRectangle.A4, cs -> {
            float y = 760;
            for (String line : first) {
                show(cs, font, 13, 72, y, line);
                y -= 23;
            }
            y -= 8;
            for (String line : second) {
                show(cs, font, 13, 72, y, line);
                y -= 23;
            }
            // lines that do not wrap, as far apart as the lines of a paragraph: apart
            y -= 20;
            show(cs, font, 13, 72, y, "Issued 2 April 2020");
            show(cs, font, 13, 72, y - 24, "Publisher: the research service");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(e -> squeeze(e.text())).containsExactly(String.join(" ", first), String.join(" ", second),
                "Issued 2 April 2020", "Publisher: the research service");

        Path arabic = Path.of("bench/structure/pdf/right_to_left_02.pdf");
        assertThat(model(arabic).pages().getFirst().elements()).filteredOn(e -> e.text().startsWith("وعليه")).singleElement()
                .satisfies(e -> assertThat(e.text().split("\n")).hasSize(10));
        assertThat(Independent.pdftotext(arabic)).contains("وعليه");
    }

    /**
     * A paragraph set with a hanging indent (a reference list's entry, a licence notice under its first line) goes on at
     * its lines' own edge: only a line indented from the line above it too starts a paragraph.
     */
    @Test
    void aHangingIndentKeepsItsParagraphWhole() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("hanging-indent.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 760, "[1] V. Karpukhin, B. Oguz, S. Min, P. Lewis, L. Wu, S. Edunov, D. Chen and W. Yih. Dense");
            show(cs, font, 10, 90, 748, "passage retrieval for open-domain question answering. In Proceedings of the 2020 Con-");
            show(cs, font, 10, 90, 736, "ference on Empirical Methods in Natural Language Processing, pages 6769-6781, 2020.");
            show(cs, font, 10, 90, 724, "Association for Computational Linguistics.");
            show(cs, font, 10, 72, 712, "[2] K. Lee, M. Chang and K. Toutanova. Latent retrieval for weakly supervised open domain");
            show(cs, font, 10, 90, 700, "question answering. In Proceedings of ACL, 2019.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).hasSize(2);
        assertThat(squeeze(elements.getFirst().text())).startsWith("[1] V. Karpukhin").endsWith("Association for Computational Linguistics.");
        assertThat(squeeze(elements.get(1).text())).startsWith("[2] K. Lee").endsWith("Proceedings of ACL, 2019.");
    }

    /**
     * A picture is where it shows: an image drawn partly off the page has the box of its part on the page, and one the
     * clip hides entirely is no picture.
     */
    @Test
    void aPictureIsThePartOfItsImageThatShows() throws Exception {
        Path pdf = Files.createTempDirectory("clip").resolve("clip.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                var image = LosslessFactory.createFromImage(doc, new java.awt.image.BufferedImage(60, 60, java.awt.image.BufferedImage.TYPE_INT_RGB));
                cs.drawImage(image, -20, 700, 60, 60); // a third of it left of the page
                cs.saveGraphicsState();
                cs.addRect(300, 300, 50, 50);
                cs.clip();
                cs.drawImage(image, 400, 500, 60, 60); // outside the clip
                cs.restoreGraphicsState();
            }
            doc.save(pdf.toFile());
            List<Pictures.Picture> pictures = Pictures.of(doc.getPage(0), false).pictures();
            assertThat(pictures).singleElement().satisfies(p -> {
                assertThat(p.box().x()).isEqualTo(0f);
                assertThat(p.box().width()).isEqualTo(40f);
                assertThat(p.box().y()).isEqualTo(PDRectangle.A4.getHeight() - 760);
            });
        }
    }

    /**
     * Three bold lines one after another in one style with no text between them (a cover's points) are text, not
     * three headings; a bold line over text stays a heading (issue 36: redp5110's cover).
     */
    @Test
    void aRunOfHeadingStyledLinesWithNoTextBetweenIsText() throws Exception {
        DocumentModel model = model(Path.of("bench/structure/pdf/redp5110_sampled.pdf"));
        List<String> cover = model.pages().getFirst().elements().stream().map(e -> e.type() + " " + squeeze(e.text())).toList();
        assertThat(cover).contains("PARAGRAPH Implement roles and separation of duties", "PARAGRAPH Leverage row permissions on the database",
                "PARAGRAPH Protect columns by defining column masks");
        assertThat(model.pages().get(1).elements()).anySatisfy(e -> assertThat(e.type() + " " + e.text()).isEqualTo("HEADING Contents"));
    }

    /**
     * A line set as a heading that ends its page, with a heading next (the next slide's title), heads nothing: it is
     * text (a slide's note under its table, "With footnote"). One whose text goes on at the next page's top (a flowing
     * document's page break after a heading) stays a heading (issue 36).
     */
    @Test
    void aHeadingThatEndsItsPageHeadsTheNextPagesTextOrIsText() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA), bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = Files.createTempDirectory("ends").resolve("ends.pdf");
        try (PDDocument doc = new PDDocument()) {
            String[][] pages = {{"Quarterly figures", "With footnote"}, {"Second slide title", "Methods"}, {"", ""}};
            for (int n = 0; n < 3; n++) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    float y = 760;
                    if (n < 2) {
                        show(cs, bold, 24, 72, y, pages[n][0]);
                        y -= 40;
                    }
                    for (int i = 0; i < 10; i++, y -= 14) show(cs, font, 11, 72, y, "Body text of page " + (n + 1) + " goes on over line number " + (i + 1) + " of ten.");
                    if (n < 2) show(cs, bold, 16, 72, y - 20, pages[n][1]);
                }
            }
            doc.save(pdf.toFile());
        }
        DocumentModel model = model(pdf);
        assertThat(model.pages().getFirst().elements().getLast()).satisfies(e -> assertThat(e.type() + " " + e.text()).isEqualTo("PARAGRAPH With footnote"));
        assertThat(model.pages().get(1).elements().getLast()).satisfies(e -> assertThat(e.type() + " " + e.text()).isEqualTo("HEADING Methods"));
    }

    /**
     * A line set above a larger heading (a kicker: "Summer activities" over the title "Swimming in the lake", "Front
     * cover" over a report's name) is text: a heading heads what is smaller than it (issue 36).
     */
    @Test
    void aKickerOverALargerHeadingIsText() throws Exception {
        List<String> page = model(Path.of("bench/structure/pdf/word_sample.docx.pdf")).pages().getFirst().elements().stream()
                .map(e -> e.type() + " " + squeeze(e.text())).toList();
        assertThat(page).startsWith("PARAGRAPH Summer activities", "TITLE Swimming in the lake");
        assertThat(model(Path.of("bench/structure/pdf/redp5110_sampled.pdf")).pages().getFirst().elements().getFirst())
                .satisfies(e -> assertThat(e.type() + " " + e.text()).isEqualTo("PARAGRAPH Front cover"));
    }

    /**
     * A title in display type whose lines are set in sizes a little apart (fitted line by line: 33 and 30 pt) is one
     * heading (issue 36: redp5110's back cover); a subtitle set clearly smaller stays apart.
     */
    @Test
    void aDisplayTitleFittedLineByLineIsOneHeading() throws Exception {
        assertThat(model(Path.of("bench/structure/pdf/redp5110_sampled.pdf")).pages().get(17).elements())
                .anySatisfy(e -> assertThat(e.type() + " " + squeeze(e.text())).isEqualTo("HEADING Row and Column Access Control Support in IBM DB2 for i"));
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD), font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("subtitle.pdf", PDRectangle.A4, cs -> {
            show(cs, bold, 30, 72, 740, "Annual Report");
            show(cs, bold, 22, 72, 712, "The Year in Review");
            for (int i = 0; i < 8; i++) show(cs, font, 11, 72, 670 - 14 * i, "Body text of the report goes on over line number " + (i + 1) + " of eight.");
        });
        assertThat(model(pdf).pages().getFirst().elements()).extracting(e -> e.text()).startsWith("Annual Report", "The Year in Review");
    }

    /**
     * A sentence that starts by naming a table or figure ("Table 3-1 summarizes these special registers ...") is a
     * paragraph of the text; the table's own caption under it ("Table 3-1 Special registers ...") is the caption (issue 36).
     */
    @Test
    void aSentenceThatNamesATableIsNoCaption() throws Exception {
        List<String> typed = model(Path.of("bench/structure/pdf/redp5110_sampled.pdf")).pages().get(10).elements().stream()
                .map(e -> e.type() + " " + squeeze(e.text())).toList();
        assertThat(typed).contains("PARAGRAPH Table 3-1 summarizes these special registers and their values.",
                "CAPTION Table 3-1 Special registers and their corresponding values", "CAPTION Figure 3-5 Special registers and adopted authority");
        assertThat(typed).filteredOn(t -> t.contains("Figure 3-5 shows the difference")).singleElement().asString().startsWith("PARAGRAPH");
    }

    /**
     * A line larger than the body, over list items of its own size and weight (one text box of a slide), leads into
     * the list and is no heading; the slide's title, larger than what follows it, is (issue 36).
     */
    @Test
    void aLineInTheSizeOfTheItemsUnderItIsNoHeading() throws Exception {
        Path pdf = Files.createTempDirectory("leadin").resolve("slides.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (int n = 0; n < 2; n++) {
                PDPage page = new PDPage(new PDRectangle(960, 540));
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    if (n == 0) {
                        show(cs, font, 44, 73, 450, "Second slide title");
                        show(cs, font, 28, 73, 380, "Let us introduce a list");
                        String[] items = {"\u2022  With foo", "\u2022  Bar", "\u2022  And baz things"};
                        for (int r = 0; r < items.length; r++) show(cs, font, 28, 73, 340 - 40 * r, items[r]);
                    } else {
                        for (int r = 0; r < 12; r++) show(cs, font, 18, 73, 450 - 24 * r, "Body text of the notes page, line number " + (r + 1) + " of twelve");
                    }
                }
            }
            doc.save(pdf.toFile());
        }
        List<Element> slide = model(pdf).pages().getFirst().elements();
        assertThat(slide).extracting(e -> e.type() + " " + e.text()).containsExactly("TITLE Second slide title", "PARAGRAPH Let us introduce a list",
                "LIST_ITEM With foo", "LIST_ITEM Bar", "LIST_ITEM And baz things");
        assertThat(Independent.pdftotext(pdf)).contains("Let us introduce a list");
    }

    /**
     * A line that had room for the next line's first word ends its paragraph, whatever the next line starts with:
     * Word's one-line paragraphs with no space between them ("italic", "bold", "underline", each starting lower case)
     * are paragraphs of their own; a line that ends short because its next word would not have fit goes on (issue 36).
     */
    @Test
    void aLineWithRoomForTheNextWordEndsItsParagraph() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        String[] shortLines = {"italic", "bold", "underline and strike-through"};
        String wrapped = "The document shows each style on a paragraph of its own, one under the other, with no space";
        String[] ragged = {"Every line of this paragraph is set ragged right, and this one ends short of the", // 'internationalization' would not fit
                "internationalization of the measure because that long word did not fit in what was left."};
        Path pdf = onePage("fill.pdf", PDRectangle.A4, cs -> {
            float y = 740;
            for (String line : shortLines) {
                show(cs, font, 11, 72, y, line);
                y -= 13;
            }
            show(cs, font, 11, 72, y, wrapped);
            y -= 13;
            show(cs, font, 11, 72, y, "between them and no indent.");
            y -= 26;
            for (String line : ragged) {
                show(cs, font, 11, 72, y, line);
                y -= 13;
            }
        });
        float measure = font.getStringWidth(wrapped) / 1000 * 11;
        assertThat(font.getStringWidth(ragged[0] + " internationalization") / 1000 * 11).as("the long word would not have fit").isGreaterThan(measure);
        List<String> texts = model(pdf).pages().getFirst().elements().stream().map(e -> squeeze(e.text())).toList();
        assertThat(texts).containsExactly("italic", "bold", "underline and strike-through", squeeze(wrapped + " between them and no indent."),
                squeeze(ragged[0] + " " + ragged[1]));
    }

    /**
     * A workbook printed a sheet a page, as LibreOffice Calc exports one: each sheet's name is an outline entry at the
     * top of its first page and printed nowhere, or only as its pages' running header (LibreOffice's default header).
     * Each becomes a heading, first on its page but for the header, and the heading the sheet prints goes one level
     * down, under it.
     */
    @Test
    void sheetsTheOutlineNamesButNoPagePrintsHeadTheirPages() throws Exception {
        Bookmarks sheets = (doc, pages) -> {
            outline(doc, "Revenue 2023", new PDPageXYZDestination(), pages.get(0), (int) PDRectangle.A4.getHeight());
            outline(doc, "Costs_2023", new PDPageXYZDestination(), pages.get(1), (int) PDRectangle.A4.getHeight());
        };
        for (List<String> headers : List.of(List.<String>of(), List.of("Revenue 2023", "Costs_2023"))) {
            DocumentModel model = model(workbook("sheets.pdf", headers, sheets));
            List<Element> first = model.pages().get(0).elements().stream().filter(e -> !e.type().furniture()).toList();
            List<Element> second = model.pages().get(1).elements().stream().filter(e -> !e.type().furniture()).toList();
            assertThat(first.getFirst()).as("headers %s", headers).extracting(Element::type, Element::text, Element::level, Element::page, Element::fontSize)
                    .containsExactly(Type.HEADING, "Revenue 2023", 1, 1, 0f);
            assertThat(first.getFirst().box()).isEqualTo(new DocumentModel.Box(0, 0, 0, 0));
            assertThat(second.getFirst()).extracting(Element::type, Element::text, Element::level).containsExactly(Type.HEADING, "Costs_2023", 1);
            assertThat(first).filteredOn(e -> e.text().equals("Quarterly figures")).extracting(Element::type, Element::level)
                    .containsExactly(tuple(Type.HEADING, 1 + 1));
            assertThat(model.pages().get(0).elements()).filteredOn(e -> e.type().furniture()).extracting(Element::type, Element::text)
                    .containsExactlyElementsOf(headers.isEmpty() ? List.of() : List.of(tuple(Type.PAGE_HEADER, "Revenue 2023")));
            int elements = 2 * (1 + 3 + (headers.isEmpty() ? 0 : 1));
            assertThat(model.pages().stream().flatMap(p -> p.elements().stream()).map(Element::index).toList())
                    .as("reading order counts the new headings").isEqualTo(java.util.stream.IntStream.range(0, elements).boxed().toList());
        }
    }

    /**
     * An outline that names no part of its own: a page range cut from a longer report keeps the report's entries, left
     * pointing at its first page with the reader's view kept ({@code /XYZ null null null}); an outline of headings the
     * pages print but for one worded otherwise. Neither adds a heading.
     */
    @Test
    void anOutlineOfOtherPagesOrOfPrintedHeadingsAddsNoHeading() throws Exception {
        Path stale = workbook("stale.pdf", List.of(), (doc, pages) -> {
            outline(doc, "Impacts on Health Outcomes", new PDPageXYZDestination(), pages.get(0), -1);
            outline(doc, "Impacts on Parenting Practices", new PDPageXYZDestination(), pages.get(0), -1);
        });
        Path printed = workbook("printed.pdf", List.of(), (doc, pages) -> {
            outline(doc, "Quarterly figures", new PDPageXYZDestination(), pages.get(0), (int) PDRectangle.A4.getHeight());
            outline(doc, "Chapter 2: Costs", new PDPageXYZDestination(), pages.get(1), (int) PDRectangle.A4.getHeight());
            outline(doc, "Quarterly figures again", new PDPageXYZDestination(), pages.get(1), (int) PDRectangle.A4.getHeight());
        });
        List<String> plain = texts(model(workbook("plain.pdf", List.of(), (doc, pages) -> { })));
        assertThat(plain).anyMatch(t -> t.endsWith(" Quarterly figures")).anyMatch(t -> t.endsWith(" Figures are in euros."));
        assertThat(texts(model(stale))).isEqualTo(plain);
        assertThat(texts(model(printed))).isEqualTo(plain);
    }

    private static List<String> texts(DocumentModel model) {
        return model.pages().stream().flatMap(p -> p.elements().stream()).map(e -> e.type() + " " + e.level() + " " + e.text()).toList();
    }

    /**
     * A report's segment pages, as the corpus's half-year workbook prints them: every page's running header
     * "3. Analyses by segment", then on two of its three pages the same section heading in bold, "Other information",
     * a line over its table's caption. The heading that recurs heads its text; the header is furniture.
     */
    @Test
    void aBoldHeadingThatRecursOverSomePagesHeadsItsText() throws Exception {
        PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = Files.createTempDirectory("model-").resolve("segments.pdf");
        try (PDDocument doc = new PDDocument()) {
            for (String section : List.of("Other information", "Revenue and results", "Other information")) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    show(cs, regular, 9, 81, 790, "3. Analyses by segment");
                    show(cs, bold, 9, 81, 754, section);
                    show(cs, regular, 8, 81, 731, "In millions of CHF");
                    float y = 700;
                    for (String[] row : new String[][] {{"Zone NA", "12,553", "2,713"}, {"Zone EUR", "9,802", "1,420"}, {"Zone AOA", "8,911", "1,977"}}) {
                        for (int c = 0; c < row.length; c++) show(cs, regular, 8, 81 + 150 * c, y, row[c]);
                        y -= 13;
                    }
                    show(cs, regular, 8, 81, y - 30, "The segments' figures are unaudited and given for the first half of the year.");
                }
            }
            doc.save(pdf.toFile());
        }
        DocumentModel model = model(pdf);
        for (int page : List.of(1, 3)) {
            assertThat(model.pages().get(page - 1).elements()).as("page %d", page).filteredOn(e -> e.text().equals("Other information"))
                    .extracting(Element::type).containsExactly(Type.HEADING);
        }
        assertThat(model.pages().get(1).elements()).filteredOn(e -> e.text().equals("3. Analyses by segment"))
                .extracting(Element::type).containsExactly(Type.PAGE_HEADER);
    }

    /** Adds an entry to a workbook's outline. */
    @FunctionalInterface
    private interface Bookmarks {
        void add(PDDocument doc, List<PDPage> pages) throws IOException;
    }

    /**
     * Two A4 pages, each a sheet as a spreadsheet prints it: a title in 14 pt bold, a small table in 10 pt, a note (the
     * second page's title "Quarterly figures again"), under a running header centred atop each page when
     * {@code headers} names one a page; {@code bookmarks} gives its outline.
     */
    private static Path workbook(String name, List<String> headers, Bookmarks bookmarks) throws IOException {
        Path pdf = Files.createTempDirectory("model-").resolve(name);
        PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        try (PDDocument doc = new PDDocument()) {
            List<PDPage> pages = new ArrayList<>();
            for (String title : List.of("Quarterly figures", "Quarterly figures again")) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                pages.add(page);
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    if (!headers.isEmpty()) {
                        String header = headers.get(pages.size() - 1);
                        show(cs, regular, 10, (PDRectangle.A4.getWidth() - regular.getStringWidth(header) / 100) / 2, 810, header);
                    }
                    show(cs, bold, 14, 72, 760, title);
                    float y = 720;
                    for (String[] row : new String[][] {{"Product", "Units", "Revenue"}, {"Widgets", "120", "5,400"}, {"Gadgets", "75", "3,150"}}) {
                        for (int c = 0; c < row.length; c++) show(cs, regular, 10, 72 + 120 * c, y, row[c]);
                        y -= 14;
                    }
                    show(cs, regular, 10, 72, y - 20, "Figures are in euros.");
                }
            }
            doc.getDocumentCatalog().setDocumentOutline(new PDDocumentOutline());
            bookmarks.add(doc, pages);
            doc.save(pdf.toFile());
        }
        return pdf;
    }

    /** An outline entry {@code title} to {@code page}, shown from {@code top} (points from the page's bottom; -1: null, the reader's view kept). */
    private static void outline(PDDocument doc, String title, PDPageXYZDestination dest, PDPage page, int top) {
        dest.setPage(page);
        dest.setTop(top);
        PDOutlineItem item = new PDOutlineItem();
        item.setTitle(title);
        item.setDestination(dest);
        doc.getDocumentCatalog().getDocumentOutline().addLast(item);
    }

    /**
     * A justified line of a narrow column spaces its words wider than a segment gap ("strong   and   cheap" 1.6 em
     * apart, every space alike): its words stay in their paragraph, not a paragraph each; a row of a table whose three
     * cells stand as far apart keeps its cells.
     */
    @Test
    void aJustifiedLinesWideSpacesKeepItsWordsInTheirParagraph() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        Path pdf = onePage("justified.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 72, 700, "A sparse first stage with a small reranker is a");
            float x = 72;
            for (String w : "strong and cheap baseline for long".split(" ")) {
                show(cs, font, 10, x, 688, w);
                x += font.getStringWidth(w) / 100 + 16;
            }
            show(cs, font, 10, 72, 676, "documents in the collections we studied.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.PARAGRAPH);
            assertThat(squeeze(e.text())).isEqualTo("A sparse first stage with a small reranker is a strong and cheap baseline for long documents in the collections we studied.");
        });
    }

    /** A filled circle of {@code diameter} pt centred on ({@code x}, {@code y}), drawn with four Bézier curves; stroked only when not {@code filled}. */
    private static void dot(PDPageContentStream cs, float x, float y, float diameter, boolean filled) throws IOException {
        float r = diameter / 2, k = 0.5523f * r;
        cs.moveTo(x + r, y);
        cs.curveTo(x + r, y + k, x + k, y + r, x, y + r);
        cs.curveTo(x - k, y + r, x - r, y + k, x - r, y);
        cs.curveTo(x - r, y - k, x - k, y - r, x, y - r);
        cs.curveTo(x + k, y - r, x + r, y - k, x + r, y);
        if (filled) cs.fill();
        else cs.stroke();
    }

    /**
     * A list whose bullets are drawn as paths (Chromium prints a web page's disc and circle markers as curves, no
     * glyph) is a list: its items one each, the hollow circles' items nested under the discs'; a right-to-left list's
     * items, ragged on the left, are of one level (they are indented from the right). A dot of a drawing (one of its
     * kind, or touched by the drawing's other parts) leads no item.
     */
    @Test
    void bulletsDrawnAsPathsLeadTheirItems() throws Exception {
        Path pdf = Files.createTempDirectory("model-").resolve("drawn-bullets.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDType0Font arabic = PDType0Font.load(doc, new File("/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf"));
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, font, 10, 72, 760, "What is in the box");
                String[] items = {"Thermostat unit with display", "Wall plate and four screws", "-R or Rh for power", "-W for heat", "Wire labels", "Quick start card"};
                for (int i = 0; i < items.length; i++) {
                    float y = 740 - 14 * i;
                    boolean nested = items[i].startsWith("-");
                    dot(cs, nested ? 98 : 78, y + 3.5f, 3, !nested);
                    show(cs, font, 10, nested ? 110 : 90, y, items[i].substring(nested ? 1 : 0));
                }
                // a drawing's dot beside a line: a circle touched by a stroke of the drawing
                dot(cs, 78, 620 + 3.5f, 3, true);
                cs.moveTo(60, 623.5f);
                cs.lineTo(76.5f, 623.5f);
                cs.stroke();
                show(cs, font, 10, 90, 620, "Figure 2 shows the wiring.");
                String[] rtl = {"افتتاح قاعة جديدة للقراءة", "إضافة ثلاثة آلاف كتاب", "تنظيم أربعين ورشة"};
                for (int i = 0; i < rtl.length; i++) {
                    float y = 580 - 18 * i, width = arabic.getStringWidth(rtl[i]) / 1000 * 12;
                    show(cs, arabic, 12, 500 - width, y, rtl[i]);
                    dot(cs, 510, y + 4, 3.5f, true);
                }
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM && e.text().codePoints().allMatch(c -> c < 0x600))
                .extracting(e -> squeeze(e.text()), Element::level)
                .containsExactly(tuple("Thermostat unit with display", 1), tuple("Wall plate and four screws", 1), tuple("R or Rh for power", 2),
                        tuple("W for heat", 2), tuple("Wire labels", 1), tuple("Quick start card", 1));
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM && e.text().codePoints().anyMatch(c -> c >= 0x600))
                .hasSize(3).allSatisfy(e -> assertThat(e.level()).isEqualTo(1));
        assertThat(elements).filteredOn(e -> e.text() != null && e.text().contains("Figure 2")).singleElement()
                .satisfies(e -> assertThat(e.type()).isEqualTo(Type.PARAGRAPH));
    }

    /**
     * Stories side by side in a newsletter's columns, each under its headline set larger and bold: both headlines are
     * headings, though they share a line; labels side by side over a line each stay text (a row of captions, a table's
     * heads without rulings). A listing in a typewriter face whose only sign of code is a command's options ("--ssid")
     * is code.
     */
    @Test
    void headlinesSideBySideOverTheirStoriesAreHeadings() throws Exception {
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        PDType1Font body = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        PDType1Font mono = new PDType1Font(Standard14Fonts.FontName.COURIER);
        Path pdf = onePage("newsletter.pdf", PDRectangle.LETTER, cs -> {
            show(cs, bold, 26, 50, 740, "The Riverside Gazette");
            show(cs, bold, 13, 50, 700, "New footbridge opens in May");
            show(cs, bold, 13, 320, 700, "Allotments waiting list shrinks");
            String[] left = {"After two years of planning and eight months of", "construction, the footbridge linking the east bank",
                    "to the market square will open to the public."};
            String[] right = {"Twelve new plots on the former tennis courts have", "cut the waiting list for allotments from three",
                    "years to under one, the society said."};
            for (int i = 0; i < 3; i++) {
                show(cs, body, 10, 50, 680 - 12 * i, left[i]);
                show(cs, body, 10, 320, 680 - 12 * i, right[i]);
            }
            show(cs, bold, 13, 50, 480, "Opening hours");
            show(cs, bold, 13, 320, 480, "Admission");
            show(cs, body, 10, 50, 462, "Daily from nine to five");
            show(cs, body, 10, 320, 462, "Free for residents");
            show(cs, body, 10, 50, 620, "Join the network from a computer with the command-line tool:");
            show(cs, mono, 8.5f, 56, 604, "m7ctl wifi join --ssid HomeNet --password-file secret.txt");
            show(cs, mono, 8.5f, 56, 594, "m7ctl status");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.HEADING).extracting(e -> squeeze(e.text()))
                .containsExactlyInAnyOrder("New footbridge opens in May", "Allotments waiting list shrinks");
        assertThat(elements).filteredOn(e -> e.text() != null && e.text().contains("m7ctl")).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.CODE);
            assertThat(e.text()).contains("secret.txt\nm7ctl status");
        });
    }

    /**
     * A Korean report's paragraph set at 1.6 line spacing, its lines 0.76 em apart, on a page of too few wrapped lines to
     * learn its leading: its two lines are one paragraph (the first ends no sentence and fills the measure); the next
     * paragraph, an em and a half under it, is one of its own.
     */
    @Test
    void aKoreanParagraphSetWideKeepsItsLines() throws Exception {
        Path pdf = cjkPage("korean-spacing.pdf", (cs, cjk) -> {
            show(cs, cjk, 13, 63, 740, "Ⅰ. 추진 배경");
            show(cs, cjk, 10.5f, 63, 712, "지역 중소기업의 디지털 전환 수준은 수도권 대비 낮은 편이며, 전문 인력과 자금 부족이 가장 큰 어려움으로");
            show(cs, cjk, 10.5f, 63, 694.5f, "조사되었다. 이에 지역별 특성을 반영한 맞춤형 지원을 통해 생산성을 높이고자 한다.");
            show(cs, cjk, 10.5f, 63, 663, "3월 중 사업 공고를 내고 4월부터 참여 기업을 선정할 예정이다.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.PARAGRAPH).extracting(e -> squeeze(e.text())).containsExactly(
                "지역 중소기업의 디지털 전환 수준은 수도권 대비 낮은 편이며, 전문 인력과 자금 부족이 가장 큰 어려움으로 조사되었다. 이에 지역별 특성을 반영한 맞춤형 지원을 통해 생산성을 높이고자 한다.",
                "3월 중 사업 공고를 내고 4월부터 참여 기업을 선정할 예정이다.");
    }

    /**
     * A ruled table's cells as the lattice found them on a Chromium-printed page (a Korean report's table, its heads over
     * two head rows): the borders and the heads' fills drawn a little apart left a sliver of cells 2.9 pt high between
     * the head rows. The sliver holds no text and is no row: "Segment" and "Note" span the two head rows, not three
     * with an empty row between.
     */
    @Test
    void aSliverBetweenRulesIsNoRow() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        float[][] boxes = { // left, top, width, height: points from the page's top-left
                {63.52f, 493.73f, 89.44f, 43.87f}, {152.96f, 493.73f, 143.77f, 20.14f}, {296.74f, 493.73f, 144.03f, 20.14f}, {440.77f, 493.73f, 92.25f, 43.87f},
                {152.96f, 513.87f, 61.45f, 2.93f}, {214.41f, 513.87f, 82.33f, 2.93f}, {296.74f, 513.87f, 61.58f, 2.93f}, {358.32f, 513.87f, 82.45f, 2.93f},
                {152.96f, 516.80f, 61.45f, 20.80f}, {214.41f, 516.80f, 82.33f, 20.80f}, {296.74f, 516.80f, 61.58f, 20.80f}, {358.32f, 516.80f, 82.45f, 20.80f},
                {63.52f, 537.60f, 89.44f, 21.73f}, {152.96f, 537.60f, 61.45f, 21.73f}, {214.41f, 537.60f, 82.33f, 21.73f}, {296.74f, 537.60f, 61.58f, 21.73f},
                {358.32f, 537.60f, 82.45f, 21.73f}, {440.77f, 537.60f, 92.25f, 21.73f}};
        String[] texts = {"Segment", "2026", "2027", "Note", "", "", "", "", "Firms", "Budget", "Firms", "Budget", "Diagnosis", "300", "15", "350", "18", "State funded"};
        float height = PDRectangle.A4.getHeight();
        Path pdf = onePage("sliver.pdf", PDRectangle.A4, cs -> {
            for (int i = 0; i < boxes.length; i++) {
                float[] b = boxes[i];
                cs.addRect(b[0], height - b[1] - b[3], b[2], b[3]);
                if (!texts[i].isEmpty()) show(cs, font, 9.5f, b[0] + 4, height - b[1] - b[3] / 2 - 3, texts[i]);
            }
            cs.stroke();
        });
        List<Tabula.CellBox> cells = java.util.Arrays.stream(boxes).map(b -> new Tabula.CellBox(b[1], b[0], b[2], b[3])).toList();
        Tabula.PdfTable ruled = new Tabula.PdfTable(1, 493.73f, 63.52f, 469.5f, 65.6f, List.of(), true, cells);
        DocumentModel model;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            model = DocumentReader.model(doc, List.of(ruled), Set.of(), new ArrayList<>(), p -> { });
        }
        assertThat(model.pages().getFirst().elements()).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> {
            assertThat(t.table().grid()).containsExactly(List.of("Segment", "2026", "", "2027", "", "Note"), List.of("", "Firms", "Budget", "Firms", "Budget", ""),
                    List.of("Diagnosis", "300", "15", "350", "18", "State funded"));
            assertThat(t.table().rows().getFirst().getFirst().rowSpan()).isEqualTo(2);
        });
    }

    /**
     * A heading's number drawn after the text that follows it: LibreOffice draws a Korean heading's "Ⅱ" from a fallback
     * font after the line's ". ", moving back to draw it. The line reads in its order on the page, "Ⅱ. 추진 목표 및
     * 전략", not ". Ⅱ 추진 목표 및 전략" (the evaluation's "Korean order scrambled"); the space glyphs drawn between its
     * words stay its spaces. Printed by LibreOffice from a web page, as a user's document would be.
     */
    @Test
    void aLinesRunsDrawnOutOfOrderReadInTheirPlaces() throws Exception {
        Path dir = Files.createTempDirectory("lo-order");
        Files.writeString(dir.resolve("plan.html"), "<!doctype html><html lang=\"ko\"><head><meta charset=\"utf-8\"><style>"
                + "body{font-family:\"Noto Sans CJK KR\",sans-serif;font-size:10.5pt;line-height:1.6} h2{font-size:13pt}</style></head><body>"
                + "<h1>추진계획</h1><h2>Ⅱ. 추진 목표 및 전략</h2><p>2028년까지 지역 중소기업의 디지털 전환을 지원한다.</p></body></html>");
        Independent.run("soffice", "-env:UserInstallation=" + dir.resolve("profile").toUri(), "--headless", "--convert-to", "pdf:writer_web_pdf_Export",
                "--outdir", dir.toString(), dir.resolve("plan.html").toString());
        assertThat(model(dir.resolve("plan.pdf")).pages()).flatExtracting(DocumentModel.Page::elements)
                .filteredOn(e -> e.type() == Type.HEADING).extracting(e -> squeeze(e.text())).contains("Ⅱ. 추진 목표 및 전략");
    }

    /**
     * A list numbered in lower-case roman numbers ("i." to "iv.", right-aligned as a word processor sets them) is one
     * item a number: "ii." started no item and ran on in the item before.
     */
    @Test
    void itemsNumberedInRomanAreItemsEach() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        Path pdf = onePage("roman.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 11, 72, 720, "The customer shall not, except as permitted by law:");
            String[] numbers = {"i.", "ii.", "iii.", "iv."};
            String[] items = {"copy, modify or translate the software;", "sell, rent or sublicense the software;",
                    "remove any notice of copyright from it; or", "use it to provide a service to third parties."};
            for (int i = 0; i < items.length; i++) {
                float y = 704 - 15 * i;
                show(cs, font, 11, 108 - font.getStringWidth(numbers[i]) / 1000 * 11, y, numbers[i]);
                show(cs, font, 11, 114, y, items[i]);
            }
        });
        assertThat(model(pdf).pages().getFirst().elements()).filteredOn(e -> e.type() == Type.LIST_ITEM)
                .extracting(Element::marker, e -> squeeze(e.text()))
                .containsExactly(tuple("i.", "copy, modify or translate the software;"), tuple("ii.", "sell, rent or sublicense the software;"),
                        tuple("iii.", "remove any notice of copyright from it; or"), tuple("iv.", "use it to provide a service to third parties."));
    }

    /**
     * A chart drawn in vector shapes across both columns of a page parts the columns above it from those below: the
     * page reads column 1 then 2 above the chart, then column 1 then 2 below it (as a picture there parts them), not
     * column 1 from top to bottom first.
     */
    @Test
    void aChartAcrossBothColumnsPartsTheColumnsAboveFromThoseBelow() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        Path pdf = onePage("chart-across.pdf", PDRectangle.A4, cs -> {
            String[][] parts = {{"Above left", "starts the story"}, {"Above right", "goes on with it"}, {"Below left", "takes it further"}, {"Below right", "ends the story"}};
            float[][] at = {{57, 760}, {307, 760}, {57, 420}, {307, 420}};
            for (int p = 0; p < 4; p++) {
                for (int l = 0; l < 6; l++) {
                    show(cs, font, 10, at[p][0], at[p][1] - 12 * l, (l == 0 ? parts[p][0] + " " + parts[p][1] : "and this line of the column " + parts[p][1]) + " in line " + (l + 1));
                }
            }
            // twelve bars side by side on an axis, from the left column's edge to the right column's
            for (int i = 0; i < 12; i++) {
                cs.addRect(60 + 40 * i, 500, 40, 20 + 10 * i);
                cs.fill();
            }
            cs.addRect(57, 498, 482, 2);
            cs.fill();
        });
        List<String> starts = model(pdf).pages().getFirst().elements().stream().filter(e -> e.type() == Type.PARAGRAPH)
                .map(e -> start(e.text(), 2)).toList();
        assertThat(starts).containsExactly("Above left", "Above right", "Below left", "Below right");
    }

    /**
     * A table without rules whose last column is prose ("Restart the unit; contact support if it persists"), each row one
     * line, with a short heading right under it that stands across its first two columns only: the table keeps its
     * three columns and the heading is a heading under it (the heading had joined the table's region, closing the
     * gutter between the first two columns, and the table lost its last column to a heading and paragraphs).
     */
    @Test
    void aShortHeadingUnderATableLeavesTheTableItsColumns() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("codes.pdf", PDRectangle.A4, cs -> {
            show(cs, font, 10, 63, 760, "The display shows a code when something needs your attention, and what to do about it.");
            String[][] rows = {{"Code", "Meaning", "What to do"}, {"E1", "No power on the C wire", "Check the common wire at both ends"},
                    {"E2", "Temperature sensor fault", "Restart the unit; contact support if it persists"},
                    {"E4", "Wi-Fi password rejected", "Join the network again with the correct password"},
                    {"E7", "Firmware update failed", "Leave the unit on; it retries within one hour"}};
            for (int r = 0; r < rows.length; r++) {
                float y = 730 - 20 * r;
                show(cs, r == 0 ? bold : font, 10, 69, y, rows[r][0]);
                show(cs, r == 0 ? bold : font, 10, 114, y, rows[r][1]);
                show(cs, r == 0 ? bold : font, 10, 262, y, rows[r][2]);
            }
            show(cs, bold, 14, 63, 610, "4. Specifications");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid().getFirst())
                .containsExactly("Code", "Meaning", "What to do"));
        assertThat(elements.getLast()).satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.HEADING);
            assertThat(e.text()).isEqualTo("4. Specifications");
        });
    }

    /**
     * A Korean report's items numbered in circles ("①", "②") are items each, not one paragraph; a note after them that
     * starts with its reference mark ("※") is a paragraph of its own, not the last item's second line.
     */
    @Test
    void itemsNumberedInCirclesAreItemsAndANoteStandsApart() throws Exception {
        Path pdf = cjkPage("circled.pdf", (cs, cjk) -> {
            show(cs, cjk, 11.5f, 63, 760, "가. 직무 역량 강화");
            show(cs, cjk, 11, 77, 740, "① 디지털 분야 훈련 과정을 연 2만 명 규모로 확대");
            show(cs, cjk, 11, 77, 722, "② 기업 맞춤형 현장 실습 프로그램 운영");
            show(cs, cjk, 11, 63, 704, "※ 세부 일정은 관계 부처 협의를 거쳐 확정");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.LIST_ITEM).extracting(Element::marker, e -> squeeze(e.text()))
                .containsExactly(tuple("가.", "직무 역량 강화"), tuple("①", "디지털 분야 훈련 과정을 연 2만 명 규모로 확대"), tuple("②", "기업 맞춤형 현장 실습 프로그램 운영"));
        assertThat(elements.getLast()).satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.PARAGRAPH);
            assertThat(squeeze(e.text())).isEqualTo("※ 세부 일정은 관계 부처 협의를 거쳐 확정");
        });
    }

    /**
     * A Korean table's cells of four or five short words ("연소득 5천만 원 이하") are no running text: the table keeps its
     * last column of figures, set apart by a wide gap, and the heading above it (set a tenth larger than its cells) and
     * the one under it stay headings outside it.
     */
    @Test
    void aKoreanTablesCellsOfSeveralWordsKeepItsColumns() throws Exception {
        Path pdf = cjkPage("korean-table.pdf", (cs, cjk) -> {
            show(cs, cjk, 11.5f, 63, 760, "다. 지원 규모");
            String[][] rows = {{"사업명", "지원 대상", "지원 내용", "예산(억원)"}, {"청년 월세 지원", "중위소득 80% 이하", "월 20만 원, 12개월", "2,150"},
                    {"보증금 대출", "연소득 5천만 원 이하", "금리 1%대, 최대 1억 원", "3,400"}, {"주거 상담", "청년 누구나", "계약 및 법률 상담", "45"}};
            for (int r = 0; r < rows.length; r++) {
                float y = 734 - 22 * r;
                show(cs, cjk, 10, 82, y, rows[r][0]);
                show(cs, cjk, 10, 175, y, rows[r][1]);
                show(cs, cjk, 10, 300, y, rows[r][2]);
                show(cs, cjk, 10, 475, y, rows[r][3]);
            }
            show(cs, cjk, 13, 63, 630, "3. 향후 계획");
            show(cs, cjk, 11, 77, 606, "관계 부처 협의를 거쳐 상반기 중 세부 시행 지침을 마련하고 하반기부터 시범 사업을 실시");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.HEADING, Type.TABLE, Type.HEADING, Type.PARAGRAPH);
        assertThat(elements.get(1).table().grid()).extracting(row -> row.stream().map(DocumentModelTest::squeeze).toList()).containsExactly(
                List.of("사업명", "지원 대상", "지원 내용", "예산(억원)"), List.of("청년 월세 지원", "중위소득 80% 이하", "월 20만 원, 12개월", "2,150"),
                List.of("보증금 대출", "연소득 5천만 원 이하", "금리 1%대, 최대 1억 원", "3,400"), List.of("주거 상담", "청년 누구나", "계약 및 법률 상담", "45"));
    }

    /**
     * An invoice's address, three short lines right above its items' head row of words ("Description | Quantity | …")
     * over rows of figures, is a paragraph, not three group heads of the table.
     */
    @Test
    void anAddressOverAnInvoicesItemsIsNoPartOfTheirTable() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        // as Chromium prints an invoice: the address at 1.4 line spacing, the items' amounts set right
        Path pdf = onePage("invoice.pdf", PDRectangle.A4, cs -> {
            show(cs, bold, 11, 63, 654, "Bill to");
            show(cs, font, 10, 63, 629, "Alder & Finch Engineering");
            show(cs, font, 10, 63, 615.5f, "Unit 7, Riverside Park");
            show(cs, font, 10, 63, 601.5f, "Leeds LS10 1AB");
            String[][] rows = {{"Description", "Quantity", "Unit price", "Amount"}, {"Stainless hinge, 80 mm", "120", "4.20", "504.00"},
                    {"Gas spring, 300 N", "40", "11.75", "470.00"}, {"Cable gland M20, pack of 10", "15", "6.90", "103.50"},
                    {"Delivery", "1", "25.00", "25.00"}, {"Subtotal", "", "", "1,102.50"}, {"VAT 20%", "", "", "220.50"}};
            float[] rights = {0, 362.5f, 451.8f, 529.3f};
            for (int r = 0; r < rows.length; r++) {
                float y = 574.5f - 20.2f * r;
                PDType1Font f = r == 0 ? bold : font;
                show(cs, f, 10, 67, y, rows[r][0]);
                for (int c = 1; c < 4; c++) show(cs, f, 10, rights[c] - f.getStringWidth(rows[r][c]) / 1000 * 10, y, rows[r][c]);
            }
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.PARAGRAPH).singleElement().satisfies(e ->
                assertThat(squeeze(e.text())).isEqualTo("Alder & Finch Engineering Unit 7, Riverside Park Leeds LS10 1AB"));
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).singleElement().satisfies(t -> assertThat(t.table().grid().getFirst())
                .containsExactly("Description", "Quantity", "Unit price", "Amount"));
    }

    /**
     * A Chinese paragraph whose first line is indented two ems keeps its last character or two on the line under it
     * ("…就近借" over "阅。"), though the lines do not overlap across; its lines flow without a space between them.
     */
    @Test
    void aChineseParagraphKeepsItsLastCharactersUnderItsIndentedFirstLine() throws Exception {
        Path pdf = cjkPage("chinese.pdf", (cs, cjk) -> {
            show(cs, cjk, 11, 90, 760, "以市级图书馆为中心，在街道和社区设立分馆和服务点，实行通借通还，方便群众就近借");
            show(cs, cjk, 11, 68, 744, "阅。");
            show(cs, cjk, 11, 90, 722, "市级图书馆每周开放时间不少于72小时，节假日正常开放；有条件的地方可设立24小时自");
            show(cs, cjk, 11, 68, 706, "助图书馆。");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(e -> DocumentModel.flowed(e.text())).containsExactly(
                "以市级图书馆为中心，在街道和社区设立分馆和服务点，实行通借通还，方便群众就近借阅。",
                "市级图书馆每周开放时间不少于72小时，节假日正常开放；有条件的地方可设立24小时自助图书馆。");
    }

    /**
     * Korean numbers its items with the letters "가.", "나.", "다." and bullets them with "ㅇ": items each; a line that
     * starts with "다." under a full line that ends inside a word ("…설명하였" over "다. 이에 …") goes on with it.
     */
    @Test
    void itemsNumberedInHangulAreItemsButAWordWrappedBeforeItsLastSyllableIsNot() throws Exception {
        Path pdf = cjkPage("hangul-items.pdf", (cs, cjk) -> {
            show(cs, cjk, 11, 77, 760, "가. 주민센터 또는 온라인으로 자격 확인 신청");
            show(cs, cjk, 11, 77, 743, "나. 자격 확인서 발급 후 협약 은행에 대출 신청");
            show(cs, cjk, 11, 77, 718, "ㅇ 관계 부처 협의를 거쳐 상반기 중 세부 시행 지침을 마련");
            show(cs, cjk, 11, 77, 701, "ㅇ 하반기부터 시범 사업을 실시하고 성과를 점검");
            show(cs, cjk, 11, 63, 670, "위원회는 지난해 지역별 지원 실적과 참여 기업의 만족도를 종합하여 그 결과를 설명하였");
            show(cs, cjk, 11, 63, 654, "다. 이에 따라 올해는 지원 대상을 넓히기로 하였다.");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type, Element::marker).containsExactly(tuple(Type.LIST_ITEM, "가."), tuple(Type.LIST_ITEM, "나."),
                tuple(Type.LIST_ITEM, "ㅇ"), tuple(Type.LIST_ITEM, "ㅇ"), tuple(Type.PARAGRAPH, null));
        assertThat(squeeze(elements.getLast().text())).endsWith("설명하였 다. 이에 따라 올해는 지원 대상을 넓히기로 하였다.");
    }

    /**
     * A paragraph cut by a column break mid-sentence goes on at the top of the next column: the page's text reads it
     * as one paragraph ({@link DocumentModel#joint}); a paragraph there that starts a sentence after one that ended
     * stays apart.
     */
    @Test
    void aParagraphCutByTheColumnBreakGoesOnInTheNextColumn() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String[] left = {"When the last overnight service between the two", "capitals was withdrawn a decade ago, few people",
                "expected to see it again. Airlines were cheap and", "the carriages were old.", "The operators say the change began with business",
                "travellers who wanted to arrive rested for a meeting", "without paying for a hotel. Families followed,"};
        String[] right = {"drawn by the chance to sleep through most of a long", "journey with children.", "Building the carriages was the hard part. Only",
                "two factories in Europe still make sleeping cars, and", "orders placed three years ago are only now arriving."};
        Path pdf = onePage("columns.pdf", PDRectangle.A4, cs -> {
            float y = 760;
            for (int i = 0; i < left.length; i++) {
                if (i == 4) y -= 6; // the space between paragraphs
                show(cs, font, 10, 63, y, left[i]);
                y -= 13;
            }
            y = 760;
            for (int i = 0; i < right.length; i++) {
                if (i == 2) y -= 6;
                show(cs, font, 10, 310, y, right[i]);
                y -= 13;
            }
        });
        DocumentModel model = model(pdf);
        List<Element> elements = model.pages().getFirst().elements();
        assertThat(elements).extracting(e -> start(e.text(), 3)).containsExactly("When the last", "The operators say", "drawn by the", "Building the carriages");
        assertThat(DocumentModel.joint(elements.get(1), elements.get(2))).isEqualTo(" ");
        assertThat(DocumentModel.joint(elements.get(2), elements.get(3))).isNull();
        assertThat(squeeze(model.pageText(1, false))).contains("without paying for a hotel. Families followed, drawn by the chance to sleep");
        assertThat(model.pageText(1, false)).contains("journey with children.\n\nBuilding the carriages");
    }

    /**
     * A magazine's standfirst (two sentences in italics under the headline) and a pull quote (a sentence in quotation
     * marks, set large in italics) are paragraphs; italic headings of one phrase ("Step 1. Fit the bracket", "What
     * comes next?") stay headings.
     */
    @Test
    void aStandfirstAndAPullQuoteAreNoHeadings() throws Exception {
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        PDType1Font italic = new PDType1Font(Standard14Fonts.FontName.TIMES_ITALIC);
        PDType1Font roman = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String body = "Sleeping cars were withdrawn a decade ago and few people expected to see them again on this route.";
        Path pdf = onePage("magazine.pdf", PDRectangle.A4, cs -> {
            show(cs, bold, 24, 57, 760, "The quiet return of the night train");
            show(cs, italic, 12, 57, 736, "Sleeper services are coming back. Are travellers ready to trade speed for a bed?");
            for (int i = 0; i < 3; i++) show(cs, roman, 10, 57, 710 - 12 * i, body);
            show(cs, italic, 13, 57, 660, "Step 1. Fit the bracket");
            for (int i = 0; i < 3; i++) show(cs, roman, 10, 57, 640 - 12 * i, body);
            show(cs, italic, 15, 90, 590, "\"We sell sleep, not seats. The journey is part of the holiday.\"");
            for (int i = 0; i < 3; i++) show(cs, roman, 10, 57, 560 - 12 * i, body);
            show(cs, italic, 13, 57, 510, "What comes next?");
            for (int i = 0; i < 3; i++) show(cs, roman, 10, 57, 490 - 12 * i, body);
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type, e -> start(e.text(), 2)).containsExactly(tuple(Type.TITLE, "The quiet"),
                tuple(Type.PARAGRAPH, "Sleeper services"), tuple(Type.PARAGRAPH, "Sleeping cars"), tuple(Type.HEADING, "Step 1."),
                tuple(Type.PARAGRAPH, "Sleeping cars"), tuple(Type.PARAGRAPH, "\"We sell"), tuple(Type.PARAGRAPH, "Sleeping cars"),
                tuple(Type.HEADING, "What comes"), tuple(Type.PARAGRAPH, "Sleeping cars"));
    }

    /**
     * A flyer printed by Chromium, which embeds its CJK font as Type 3 (each glyph drawn in paths): the boxes drawn
     * around its parts and the banner behind its title are panels, not figures whose labels the text would be, and the
     * glyphs are text, not shapes of a drawing; the boxes' headings side by side, over a paragraph and over a list,
     * are headings.
     */
    @Test
    void aFlyersBoxesFrameTheirHeadingsAndText() throws Exception {
        Path pdf = printed("flyer", "<!doctype html><html lang=\"ko\"><head><meta charset=\"utf-8\"><style>"
                + "body{font-family:\"Noto Sans CJK KR\",sans-serif;font-size:11pt;line-height:1.5}"
                + ".top{background:#1d4e89;color:#fff;padding:18pt;border-radius:8pt} h1{font-size:30pt;margin:0}"
                + ".grid{display:grid;grid-template-columns:1fr 1fr;gap:14pt;margin-top:16pt}"
                + ".box{border:1.5pt solid #1d4e89;border-radius:6pt;padding:10pt} h2{font-size:15pt;margin:0 0 6pt}</style></head><body>"
                + "<div class=\"top\"><p>2026 우리 동네 건강 프로젝트</p><h1>걷기만 해도<br>포인트가 쌓여요!</h1></div><div class=\"grid\">"
                + "<div class=\"box\"><h2>참여 대상</h2><p>구에 살거나 일하는 만 19세 이상 주민이면 누구나 참여할 수 있습니다.</p></div>"
                + "<div class=\"box\"><h2>참여 방법</h2><ul><li>앱에서 회원 가입</li><li>하루 8천 보 이상 걷기</li></ul></div></div></body></html>");
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.TITLE).extracting(e -> squeeze(e.text())).containsExactly("걷기만 해도 포인트가 쌓여요!");
        assertThat(elements).filteredOn(e -> e.type() == Type.HEADING).extracting(e -> squeeze(e.text())).containsExactlyInAnyOrder("참여 대상", "참여 방법");
    }

    /**
     * A résumé printed by Chromium: its sidebar, its text on a tinted box with a rule under each heading, is read as a
     * whole before the main column beside it, whose short lines (a job's title, its employer, its dates) are no rows
     * with the sidebar's lines (they were read line by line across both), nor a table's whose cells wrap (a job's
     * bulleted line is no group's head); the headings level across the two ("SKILLS", "EXPERIENCE") stay headings.
     */
    @Test
    void aSidebarOnATintIsReadAsAWholeBesideTheMainColumn() throws Exception {
        String job = "<h3>%s</h3><div class=\"meta\"><span>%s</span> <span>%s</span></div><ul><li>%s</li></ul>";
        Path pdf = printed("cv", "<!doctype html><html><head><meta charset=\"utf-8\"><style>"
                + "body{font-family:\"Liberation Sans\",sans-serif;font-size:9.5pt;line-height:1.4} .wrap{display:flex;gap:18pt}"
                + ".side{width:150pt;background:#f1f3f6;padding:10pt} .main{flex:1} h1{font-size:22pt;margin:0}"
                + "h2{font-size:11pt;text-transform:uppercase;border-bottom:1pt solid #999;margin:12pt 0 6pt} h3{font-size:10pt;margin:8pt 0 0}"
                + ".meta{display:flex;justify-content:space-between;font-style:italic} .side p{margin:0 0 4pt}</style></head><body>"
                + "<h1>Maria Kowalski</h1><div class=\"wrap\"><div class=\"side\"><h2>Contact</h2><p>maria.kowalski@example.com</p>"
                + "<p>+48 600 123 456</p><p>Krakow, Poland</p><h2>Skills</h2><ul><li>Python, SQL, Scala</li><li>Apache Spark and Kafka</li>"
                + "<li>Airflow and dbt</li></ul><h2>Languages</h2><p>Polish (native)</p><p>English (fluent)</p></div><div class=\"main\">"
                + "<h2>Profile</h2><p>Data engineer with nine years of experience building batch and streaming pipelines for retail and"
                + " logistics companies.</p><h2>Experience</h2>"
                + job.formatted("Senior Data Engineer", "Northwind Logistics, Krakow", "2021 - present", "Led the move of 140 nightly jobs to Airflow.")
                + job.formatted("Data Engineer", "Baltic Retail Group, Gdansk", "2017 - 2021", "Built the sales data warehouse.")
                + job.formatted("Junior Developer", "Amber Software, Gdansk", "2015 - 2017", "Wrote reports in SQL.")
                + "</div></div></body></html>");
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).noneMatch(e -> e.type() == Type.TABLE);
        List<String> texts = elements.stream().map(e -> squeeze(e.text())).toList();
        assertThat(String.join(" ", texts.subList(1, texts.indexOf("PROFILE")))).isEqualTo("CONTACT maria.kowalski@example.com +48 600 123 456"
                + " Krakow, Poland SKILLS Python, SQL, Scala Apache Spark and Kafka Airflow and dbt LANGUAGES Polish (native) English (fluent)");
        assertThat(elements).filteredOn(e -> e.type() == Type.HEADING).extracting(e -> squeeze(e.text())).contains("SKILLS", "EXPERIENCE");
    }

    /**
     * An invoice's head: the seller's address beside the invoice's number and dates ("Invoice date: 12 March 2026") is
     * two blocks side by side, read one after the other, not a table of three rows; the "Bill to" under them after a
     * gap follows both.
     */
    @Test
    void anAddressBesideLabelledValuesIsTwoBlocks() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("invoice-head.pdf", PDRectangle.A4, cs -> {
            show(cs, bold, 20, 63, 759, "Invoice");
            String[] address = {"Northwind Components Ltd", "14 Harbour Road", "Bristol BS1 4QA"};
            String[] values = {"Invoice number: INV-2026-0418", "Invoice date: 12 March 2026", "Due date: 11 April 2026"};
            for (int i = 0; i < 3; i++) {
                show(cs, font, 10, 63, 720.5f - 13.9f * i, address[i]);
                show(cs, font, 10, 321.6f, 720.5f - 13.9f * i, values[i]);
            }
            show(cs, bold, 11, 63, 653, "Bill to");
            show(cs, font, 10, 63, 629, "Alder & Finch Engineering");
            show(cs, font, 10, 63, 615, "Leeds LS10 1AB");
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).noneMatch(e -> e.type() == Type.TABLE);
        assertThat(elements).extracting(e -> squeeze(e.text())).containsExactly("Invoice", "Northwind Components Ltd 14 Harbour Road Bristol BS1 4QA",
                "Invoice number: INV-2026-0418 Invoice date: 12 March 2026 Due date: 11 April 2026", "Bill to",
                "Alder & Finch Engineering Leeds LS10 1AB");
    }

    /**
     * A box drawn around text is a panel, not a figure; a frame drawn around a chart (its bars inside) is the figure's
     * own and stays a drawing, so the chart's labels stay labels ({@link Pictures}).
     */
    @Test
    void aFrameAroundAChartIsAFigureAndABoxAroundTextIsAPanel() throws Exception {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        Path pdf = onePage("frames.pdf", PDRectangle.A4, cs -> {
            cs.addRect(100, 600, 400, 150); // a box around a note
            cs.stroke();
            show(cs, font, 10, 110, 730, "Note: the figures below are provisional and will be revised.");
            float[][] sides = {{100, 250, 500, 250}, {500, 250, 500, 550}, {500, 550, 100, 550}, {100, 550, 100, 250}};
            for (float[] side : sides) { // a frame around a chart, side by side
                cs.moveTo(side[0], side[1]);
                cs.lineTo(side[2], side[3]);
                cs.stroke();
            }
            for (int i = 0; i < 10; i++) { // the chart's bars and its axis
                cs.addRect(140 + 34 * i, 300, 20, 20 + 15 * i);
                cs.fill();
            }
            cs.moveTo(130, 300);
            cs.lineTo(480, 300);
            cs.stroke();
        });
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            Pictures.Found found = Pictures.of(doc.getPage(0), false);
            assertThat(found.panels()).singleElement().satisfies(b -> assertThat(b.y()).isCloseTo(842 - 750, org.assertj.core.data.Offset.offset(2f)));
            assertThat(found.drawings()).anySatisfy(b -> assertThat(b.height()).isCloseTo(300, org.assertj.core.data.Offset.offset(2f)));
        }
    }

    /**
     * One line's words set justified across {@code width} points from ({@code x}, {@code y}), as TeX sets them: every
     * space stretched alike, a space after a sentence's stop three times as much (its natural width a third wider).
     * Returns the widest space, points.
     */
    private static float justified(PDPageContentStream cs, PDFont font, float size, float x, float y, float width, String line) throws IOException {
        String[] words = line.split(" ");
        float ink = 0, natural = 0, stretches = 0;
        for (String w : words) ink += font.getStringWidth(w) / 1000 * size;
        for (int i = 0; i + 1 < words.length; i++) {
            boolean stop = words[i].matches(".*[.!?]");
            natural += (stop ? 0.33f : 0.25f) * size;
            stretches += stop ? 3 : 1;
        }
        float stretch = (width - ink - natural) / stretches, at = x, widest = 0;
        for (int i = 0; i < words.length; i++) {
            show(cs, font, size, at, y, words[i]);
            if (i + 1 == words.length) break;
            boolean stop = words[i].matches(".*[.!?]");
            float gap = (stop ? 0.33f : 0.25f) * size + (stop ? 3 : 1) * stretch;
            widest = Math.max(widest, gap);
            at += font.getStringWidth(words[i]) / 1000 * size + gap;
        }
        return widest;
    }

    /**
     * A loose justified line of a narrow column whose space after a sentence's stop TeX stretched past the segment gap
     * ("widely used.      However, it is": a paper's abstract) is one line of its paragraph, and so is a line whose
     * bold heading runs into its text after a wide space; the gutter to the column beside them, which no line crosses,
     * still parts the columns.
     */
    @Test
    void aSentenceSpaceThatJustificationStretchedIsNoGutter() throws Exception {
        PDType1Font roman = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.TIMES_BOLD);
        String[] left = {"Irregular text is widely used. However, it is", "considerably difficult to recognize because of its",
                "various shapes and distorted patterns. In this paper,", "we thus propose a multi-object rectified attention",
                "network for general scene text recognition."};
        String[] right = {"Scene text recognition is an essential process in", "computer vision tasks. Many practical applications",
                "such as traffic sign reading, product recognition,", "and image searching benefit from the rich semantic",
                "information of scene text."};
        float[] widest = new float[1];
        Path pdf = onePage("stretched.pdf", PDRectangle.LETTER, cs -> {
            for (int i = 0; i < left.length; i++) {
                float y = 700 - 13.5f * i;
                if (i == 0) widest[0] = justified(cs, roman, 11, 62, y, 224, left[i]);
                else if (i < left.length - 1) justified(cs, roman, 11, 50, y, 236, left[i]);
                else show(cs, roman, 11, 50, y, left[i]);
                if (i < right.length - 1) justified(cs, roman, 11, 309, y, 236, right[i]);
                else show(cs, roman, 11, 309, y, right[i]);
            }
            // a heading run into its paragraph's first line after a quad
            show(cs, bold, 11, 50, 600, "Key Challenges");
            show(cs, roman, 11, 50 + bold.getStringWidth("Key Challenges") / 1000 * 11 + 12.5f, 600, "To construct an effective attack,");
            justified(cs, roman, 11, 50, 586.5f, 236, "the attacker faces two key challenges that we describe");
            show(cs, roman, 11, 50, 573, "in the sections that follow.");
        });
        assertThat(widest[0]).as("the stretched sentence space is wider than a segment gap").isGreaterThan(PageReader.SEGMENT_GAP * 11);
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(e -> squeeze(e.text())).containsExactly(String.join(" ", left), String.join(" ", right),
                "Key Challenges To construct an effective attack, the attacker faces two key challenges that we describe in the sections that follow.");
    }

    /**
     * A paper's abstract in the left column beside a grid of photographs in the right one, over which the columns of
     * its text start: the abstract reads as one paragraph before the right column (each photograph a band of its own,
     * its lines were read as lone lines and the paragraph cut where the columns began).
     */
    @Test
    void anAbstractBesideAGridOfPhotographsIsOneParagraph() throws Exception {
        PDType1Font roman = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String[] abstractLines = {"Irregular text is widely used, but it is difficult", "to recognize because of its various shapes and",
                "distorted patterns. In this paper, we propose a", "rectified attention network for general scene text",
                "recognition. The network consists of a rectification", "network and an attention-based sequence recognition",
                "network. The rectification network is designed for", "rectifying images that contain irregular text, and",
                "it decreases the difficulty of recognition for the", "recognition network that reads the rectified text.",
                "It is trained in a weak supervision way, thus", "requiring only images and corresponding text labels,",
                "and it reads both regular and irregular scene text", "with the accuracy of the best methods known today."};
        String[] introduction = {"Scene text recognition is an essential process in", "computer vision tasks. Many practical applications",
                "such as traffic sign reading, product recognition,", "and image searching benefit from the rich semantic", "information of scene text."};
        String[] keywords = {"Keywords: scene text recognition, optical character", "recognition, deep learning, attention networks,",
                "rectification of irregular text, curved and slanted", "text, weak supervision of the networks by text", "labels alone."};
        Path pdf = Files.createTempDirectory("photographs").resolve("abstract.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                for (int i = 0; i < abstractLines.length; i++) show(cs, roman, 11, 50, 500 - 13.5f * i, abstractLines[i]);
                for (int row = 0; row < 3; row++) {
                    for (int col = 0; col < 3; col++) {
                        // nine photographs, each of its own
                        java.awt.image.BufferedImage photo = new java.awt.image.BufferedImage(64, 48, java.awt.image.BufferedImage.TYPE_INT_RGB);
                        for (int px = 0; px < 64; px++) for (int py = 0; py < 48; py++) photo.setRGB(px, py, (px * 4) << 16 | (py * 5) << 8 | (row * 3 + col) * 25);
                        cs.drawImage(LosslessFactory.createFromImage(doc, photo), 316 + 77 * col, 470 - 44 * row, 71, 43);
                    }
                }
                show(cs, roman, 10, 309, 360, "Figure 1. Examples of regular and irregular scene text.");
                for (int i = 0; i < introduction.length; i++) show(cs, roman, 11, 309, 330 - 13.5f * i, introduction[i]);
                for (int i = 0; i < keywords.length; i++) show(cs, roman, 11, 50, 270 - 13.5f * i, keywords[i]);
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.PICTURE).hasSize(9);
        List<Element> text = elements.stream().filter(e -> e.type() != Type.PICTURE).toList();
        assertThat(text).extracting(e -> squeeze(e.text())).containsExactly(String.join(" ", abstractLines), String.join(" ", keywords),
                "Figure 1. Examples of regular and irregular scene text.", String.join(" ", introduction));
    }

    /**
     * A paper's grid of authors (two a row, each a centred block of name, affiliation and address) is a table, and the
     * two columns of text under it are not its rows: the left column's "ABSTRACT" beside the right column's first
     * line, set further below the grid than any of its rows below another, starts the text (the line was taken into
     * the table as a row and lost from its paragraph).
     */
    @Test
    void theTextUnderAGridOfAuthorsIsNoRowOfIt() throws Exception {
        PDType1Font roman = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.TIMES_BOLD);
        String[][] authors = {{"Dietrich Seggern", "Vice Chair, Association", "Callas Software", "Berlin, Germany", "d.seggern@example.com"},
                {"Klaas Posselt", "Member, Association", "Prepress Consulting", "Berlin, Germany", "k.posselt@example.com"},
                {"Tamir Hassan", "Member, Association", "Round-Trip Solutions", "Vienna, Austria", "tamir@example.com"},
                {"Thomas Zellmann", "Managing Director", "Foxit Europe", "Berlin, Germany", "t.zellmann@example.com"}};
        String[] left = {"PDF has long been established as the de facto format", "for the exchange of print-oriented documents and is",
                "known for its robust visual presentation on many systems."};
        String[] right = {"even many participants who do not work directly with", "the format are not familiar with its additional features,",
                "which have grown over the past few years."};
        Path pdf = onePage("authors.pdf", PDRectangle.LETTER, cs -> {
            for (int a = 0; a < authors.length; a++) {
                float centre = a % 2 == 0 ? 185 : 430, y = 670 - (a / 2) * 70;
                for (String line : authors[a]) {
                    float size = line == authors[a][0] ? 12 : 10;
                    show(cs, roman, size, centre - roman.getStringWidth(line) / 1000 * size / 2, y, line);
                    y -= 12;
                }
            }
            show(cs, bold, 11, 54, 520, "ABSTRACT");
            show(cs, roman, 9, 318, 520, right[0]);
            for (int i = 0; i < left.length; i++) show(cs, roman, 9, 54, 506 - 11 * i, left[i]);
            for (int i = 1; i < right.length; i++) show(cs, roman, 9, 318, 520 - 11 * i, right[i]);
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.TABLE, Type.HEADING, Type.PARAGRAPH, Type.PARAGRAPH);
        assertThat(elements.getFirst().table().rows()).hasSize(10).allSatisfy(row -> assertThat(row).hasSize(2));
        assertThat(elements.getLast().text()).satisfies(t -> assertThat(squeeze(t)).isEqualTo(String.join(" ", right)));
    }

    /** A brochure's items marked with a full block "█" are list items, their wrapped lines with them. */
    @Test
    void itemsMarkedWithBlocksAreItems() throws Exception {
        Path pdf = Files.createTempDirectory("blocks").resolve("blocks.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType0Font font = PDType0Font.load(doc, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, font, 9.5f, 72, 700, "PDF/UA enables the following for every reader of a document:");
                show(cs, font, 9.5f, 72, 680, "█ Access to content in a structured, logical reading order");
                show(cs, font, 9.5f, 83, 668, "complete with applicable semantics");
                show(cs, font, 9.5f, 72, 656, "█ Text reuse (copy and paste, automated content extraction)");
                show(cs, font, 9.5f, 72, 644, "█ Enhanced search results");
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).containsExactly(Type.PARAGRAPH, Type.LIST_ITEM, Type.LIST_ITEM, Type.LIST_ITEM);
        assertThat(squeeze(elements.get(1).text())).isEqualTo("Access to content in a structured, logical reading order complete with applicable semantics");
    }

    /**
     * The lines of running text under a displayed equation whose terms stand apart like cells are no rows of a table,
     * though TeX sets a prime after each line's words on a baseline of its own ("Further, i" | "′" | "is obtained
     * from"): the prime is its line's, not a band of its own whose gap in the line looked like a gutter between two
     * cells (the lines were taken into the equation's "table", their text twice over).
     */
    @Test
    void linesCutByAPrimeUnderAnEquationAreNoRowsOfIt() throws Exception {
        PDType1Font roman = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        PDType0Font[] symbols = new PDType0Font[1];
        Path pdf = Files.createTempDirectory("prime").resolve("prime.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            symbols[0] = PDType0Font.load(doc, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                show(cs, roman, 11, 50, 520, "image. The pixel value of the rectified image is then");
                String[][] equation = {{"i = offset", "(1,i,j)", "(3)"}, {"j = offset", "(2,i,j)", "(4)"}, {"k = offset", "(3,i,j)", "(5)"}};
                for (int r = 0; r < equation.length; r++) {
                    show(cs, roman, 11, 136, 500 - 20 * r, equation[r][0]);
                    show(cs, roman, 8, 190, 497 - 20 * r, equation[r][1]);
                    show(cs, roman, 11, 274, 500 - 20 * r, equation[r][2]);
                }
                String[][] lines = {{"where I is the input image. Further, i", "is obtained from"}, {"the first channel of the offset maps, whereas j", "is from"},
                        {"the second channel of the maps, and both of", "are real"}};
                for (int l = 0; l < lines.length; l++) {
                    float y = 430 - 13.5f * l, end = 50 + roman.getStringWidth(lines[l][0]) / 1000 * 11;
                    // TeX sets the prime after the line's words, on a baseline of its own
                    show(cs, roman, 11, 50, y, lines[l][0]);
                    show(cs, roman, 11, end + 5.5f, y, lines[l][1]);
                    show(cs, symbols[0], 6, end, y + 6.8f, "′");
                }
            }
            doc.save(pdf.toFile());
        }
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).filteredOn(e -> e.type() == Type.TABLE).allSatisfy(t -> assertThat(t.text()).doesNotContain("where I is", "first channel"));
        assertThat(elements).extracting(e -> squeeze(e.text())).anySatisfy(t -> assertThat(t).contains("where I is the input image"));
    }

    /**
     * Words of a caption highlighted by boxes drawn behind them (a paper's "completion c" and "adversarial comment σ",
     * two boxes on each of two lines) make rulings a lattice table is found in, but no table: their words read in
     * their lines (the boxes' words were a table, cut out of the caption).
     */
    @Test
    void wordsHighlightedInACaptionAreNoTable() throws Exception {
        PDType1Font roman = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String[][] lines = {{"Figure 1: the engine completes the code in its", "completion c", "based on the input", "prefix p and its suffix s."},
                {"On the right, the attack inserts an", "adversarial comment", "above the", "completion line, and the engine"}};
        Path pdf = onePage("highlights.pdf", PDRectangle.LETTER, cs -> {
            for (int l = 0; l < lines.length; l++) {
                float y = 600 - 14 * l, x = 54;
                for (int w = 0; w < lines[l].length; w++) {
                    float width = roman.getStringWidth(lines[l][w]) / 1000 * 10;
                    if (w == 1 || w == 2) {
                        cs.setNonStrokingColor(new java.awt.Color(255, 230, 150));
                        cs.addRect(x - 1, y - 3, width + 2, 13);
                        cs.fill();
                        cs.setNonStrokingColor(java.awt.Color.BLACK);
                    }
                    show(cs, roman, 10, x, y, lines[l][w]);
                    x += width + 2.5f;
                }
            }
        });
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            List<Tabula.PdfTable> ruled = DocumentReader.tables(Lattice.tables(doc, Set.of()).tables(), doc);
            assertThat(ruled).as("the boxes make a lattice table").isNotEmpty();
            List<Element> elements = DocumentReader.model(doc, ruled, Set.of(), new ArrayList<>(), page -> { }).pages().getFirst().elements();
            assertThat(elements).extracting(Element::type).doesNotContain(Type.TABLE);
            assertThat(elements).extracting(e -> squeeze(e.text())).containsExactly(
                    Arrays.stream(lines).map(l -> String.join(" ", l)).collect(java.util.stream.Collectors.joining(" ")));
        }
    }

    /**
     * A slide whose logo stands at its top left, its text in the right-hand part, and a sidebar at the left of its foot
     * beside a note: the slide's text reads before the sidebar. (The logo is no start of the sidebar's column 700
     * points below it; taken into the columns at the foot, the text was read after the sidebar.)
     */
    @Test
    void aSlidesTextReadsBeforeTheSidebarAtItsFoot() throws Exception {
        PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
        Path pdf = onePage("slide.pdf", new PDRectangle(1800, 1080), cs -> {
            show(cs, bold, 16, 67, 915, "www.example.org");
            show(cs, bold, 80, 280, 800, "Advantages of tagged files");
            show(cs, regular, 50, 280, 700, "Files conform to the laws on access");
            show(cs, regular, 50, 280, 610, "Their content can be reused in other formats");
            show(cs, regular, 50, 280, 520, "Screen readers follow their reading order");
            show(cs, bold, 16, 38, 180, "Klaas Posselt,");
            show(cs, bold, 16, 38, 160, "Member of the");
            show(cs, bold, 16, 38, 140, "PDF Association");
            show(cs, regular, 30, 280, 150, "More info: the guide to tagged files in a nutshell, on our site");
        });
        List<String> texts = model(pdf).pages().getFirst().elements().stream().map(e -> squeeze(e.text())).toList();
        assertThat(texts.indexOf("Screen readers follow their reading order")).isNotNegative()
                .isLessThan(texts.indexOf("Klaas Posselt, Member of the PDF Association"));
    }

    /**
     * A paper's table set across both columns at a page's top, its gap between two columns on the page's gutter, is one
     * table of all its columns before the columns' text (it was cut in two, each half read with its column's text).
     */
    @Test
    void aTableAcrossBothColumnsOfAPageIsOneTable() throws Exception {
        PDType1Font roman = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
        String[][] rows = {{"CWE", "Language", "Top-25 CWE Rank", "Avg LoC", "Max LoC"}, {"020: Input Validation", "Python", "#6", "16", "22"},
                {"022: Path Traversal", "Python", "#8", "14", "28"}, {"077: Command Injection", "Ruby", "#16", "9", "19"},
                {"078: OS Command Injection", "Python", "#5", "15", "30"}, {"079: Cross-site Scripting", "JavaScript", "#2", "19", "27"},
                {"089: SQL Injection", "Python", "#3", "19", "32"}, {"090: LDAP Injection", "Python", "–", "23", "33"},
                {"131: Miscalculation of Buffer Size", "C/C++", "–", "22", "35"}, {"193: Off-by-one Error", "C/C++", "–", "26", "54"},
                {"326: Weak Encryption", "Go", "–", "34", "75"}, {"327: Faulty Cryptographic Algorithm", "Python", "–", "14", "34"},
                {"416: Use After Free", "C/C++", "#4", "18", "22"}, {"476: NULL Pointer Dereference", "C/C++", "#12", "22", "68"},
                {"502: Deserialization of Untrusted Data", "JavaScript", "#15", "14", "18"}, {"787: Out-of-bounds Write", "C/C++", "#1", "21", "52"}};
        // the first column set flush left, the others centred, as LaTeX's tabular sets "lcccc"
        float[] columns = {106, 287, 361, 434, 488};
        String[] left = {"the n top-performing candidate attack strings from a given", "pool of strings. On a high level, this function estimates how",
                "often each attack string causes the malicious completion", "engine to generate vulnerable code for a given dataset, and",
                "finally returns only the candidates that lead to the highest", "ratio of insecure completions among all of them."};
        String[] right = {"Then, given the number of tokens to be mutated, in Line 4,", "we randomly sample without replacement a set of",
                "position indices in the string to mutate. In Line 6, for each", "position index we mutate the token by replacing it with",
                "a token sampled uniformly at random from the vocabulary.", "Finally, we convert the tokens back to a string."};
        Path pdf = onePage("wide-table.pdf", PDRectangle.LETTER, cs -> {
            show(cs, roman, 10, 73, 715, "TABLE 1: Overview of the weaknesses targeted in this paper and the size of their datasets.");
            for (int r = 0; r < rows.length; r++) {
                for (int c = 0; c < columns.length; c++) {
                    float width = roman.getStringWidth(rows[r][c]) / 1000 * 9;
                    show(cs, roman, 9, c == 0 ? columns[c] : columns[c] - width / 2, 690 - 11.5f * r, rows[r][c]);
                }
            }
            // booktabs: rules over the head, under it and under the last row
            for (float y : new float[] {701, 686, 686 - 11.5f * (rows.length - 1)}) {
                cs.moveTo(100, y);
                cs.lineTo(530, y);
            }
            cs.stroke();
            // the columns' text runs on down the page, three times over
            for (int i = 0; i < 3 * left.length; i++) {
                show(cs, roman, 10, 54, 470 - 11.2f * i, left[i % left.length]);
                show(cs, roman, 10, 315, 470 - 11.2f * i, right[i % right.length]);
            }
        });
        List<Element> elements = model(pdf).pages().getFirst().elements();
        assertThat(elements).extracting(Element::type).startsWith(Type.CAPTION, Type.TABLE).containsOnlyOnce(Type.TABLE);
        assertThat(elements.get(1).table().grid()).containsExactly(Arrays.stream(rows).map(List::of).toArray(List[]::new));
        assertThat(squeeze(elements.get(2).text())).startsWith(String.join(" ", left));
    }
}
