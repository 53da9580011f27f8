package dev.docapi.document;

import static dev.docapi.support.ApiTestBase.corpus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Type;
import dev.docapi.engines.tabula.Tabula;
import dev.docapi.operations.pagenumbers.PopplerWords;
import dev.docapi.support.Independent;
import dev.docapi.support.TablePdf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
     * Tabula's child JVM is asked only about the pages that paint at least four straight segments of curve-free paths
     * (a ruled cell's two horizontal and two vertical rulings): Word's ruled tables and a drawn box are asked about,
     * Word's text pages, a circle (curves and a line) and a triangle (three segments) are not.
     */
    @Test
    void onlyPagesThatDrawEnoughLinesAreAskedForRuledTables() throws Exception {
        try (PDDocument doc = Loader.loadPDF(Path.of("bench/structure/pdf/word_tables.docx.pdf").toFile())) {
            assertThat(Rulings.pages(doc)).containsExactly(1, 2);
        }
        try (PDDocument doc = Loader.loadPDF(Path.of("bench/structure/pdf/lorem_ipsum.docx.pdf").toFile())) {
            assertThat(Rulings.pages(doc)).isEmpty();
        }
        try (PDDocument doc = new PDDocument()) {
            TablePdf.ruledTable(doc, "Maple Leafs", "13");
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
            assertThat(Rulings.pages(doc)).containsExactly(1, 3);
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
        Path pdf = Files.createTempDirectory("sheet").resolve("sheet.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                float y = 800;
                String[][] lines = {{"280", "Sheet1"}, {"120", "Number of freshwater ducks per year"}, {"120", "Year", "190", "Freshwater Ducks"},
                        {"160", "2019", "255", "120"}, {"160", "2020", "255", "135"}, {"160", "2021", "255", "150"}};
                for (String[] line : lines) {
                    for (int k = 0; k < line.length; k += 2) {
                        show(cs, font, 10, Float.parseFloat(line[k]), y, line[k + 1]);
                    }
                    y -= line == lines[0] ? 30 : 14;
                }
            }
            doc.save(pdf.toFile());
        }
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
                    {roman, "The permission is enabled when it is created, unless it says otherwise."}};
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
        // the italic sentence and the bold monospace syntax stay text, in the order pdftotext reads them
        assertThat(elements).filteredOn(e -> e.text().contains("Note that the nut")).singleElement().extracting(Element::type).isEqualTo(Type.PARAGRAPH);
        assertThat(elements).filteredOn(e -> e.text().contains("CREATE PERMISSION")).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.PARAGRAPH);
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
}
