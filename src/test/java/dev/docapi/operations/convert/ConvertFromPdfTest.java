package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.operations.extracttext.Cer;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.imageio.ImageIO;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFNotes;
import org.apache.poi.xslf.usermodel.XSLFPictureShape;
import org.apache.poi.xslf.usermodel.XSLFShape;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFTextShape;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /convert} from a PDF to jpg (ZIP of page images), pptx (a slide per page, text in the notes), xlsx
 * (tables as cells) and docx (flowing paragraphs, headings, tables, OCR for scans). Outputs are re-opened with
 * independent readers: ImageIO, Apache POI, pdftotext, PDFBox.
 */
@Heavy
class ConvertFromPdfTest extends ApiTestBase {

    private Path convert(String key, Path input, String to, String expectedExt) throws Exception {
        JsonNode job = run(key, "convert", Map.of("file", uploadId(key, input), "to", to));
        String name = input.getFileName().toString();
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo(name.substring(0, name.lastIndexOf('.')) + "." + expectedExt);
        return downloadOutput(job, 0);
    }

    private static int pages(Path pdf) throws Exception {
        try (PDDocument doc = Independent.pdfbox(pdf)) {
            return doc.getNumberOfPages();
        }
    }

    private static String words(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    @ParameterizedTest
    @ValueSource(strings = {"pdf-text/two-column-paper-2p.pdf", "pdf-text/pdflatex-4-pages-objstm.pdf"})
    void jpgIsAZipOfOneDecodableImagePerPage(String file) throws Exception {
        Path pdf = corpus(file);
        Path zip = convert(newKey(), pdf, "jpg", "zip");
        String base = pdf.getFileName().toString().replace(".pdf", "");
        List<String> names = new ArrayList<>();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                names.add(entry.getName());
                try (InputStream is = z.getInputStream(entry)) {
                    BufferedImage img = ImageIO.read(is);
                    assertThat(img).as(entry.getName()).isNotNull();
                    // 150 dpi: a Letter/A4 page is about 1240-1275 px wide
                    assertThat(img.getWidth()).as(entry.getName()).isBetween(1100, 1400);
                }
            }
        }
        assertThat(names).hasSize(pages(pdf));
        assertThat(names.getFirst()).isEqualTo(base + "-page-001.jpg");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pdf-text/two-column-paper-2p.pdf", "pdf-text/pdflatex-4-pages-objstm.pdf"})
    void pptxHasASlidePerPageWithThePictureAndTheTextInTheNotes(String file) throws Exception {
        Path pdf = corpus(file);
        Path pptx = convert(newKey(), pdf, "pptx", "pptx");
        int pages = pages(pdf);
        try (XMLSlideShow ppt = new XMLSlideShow(Files.newInputStream(pptx))) {
            assertThat(ppt.getSlides()).hasSize(pages);
            try (PDDocument doc = Independent.pdfbox(pdf)) {
                float w = doc.getPage(0).getCropBox().getWidth(), h = doc.getPage(0).getCropBox().getHeight();
                assertThat(ppt.getPageSize().getWidth() / ppt.getPageSize().getHeight()).isCloseTo(w / h, org.assertj.core.data.Offset.offset(0.01));
            }
            for (int i = 0; i < pages; i++) {
                XSLFSlide slide = ppt.getSlides().get(i);
                assertThat(slide.getShapes()).anyMatch(s -> s instanceof XSLFPictureShape);
                XSLFNotes notes = slide.getNotes();
                assertThat(notes).as("notes of slide %d", i + 1).isNotNull();
                StringBuilder text = new StringBuilder();
                for (XSLFShape s : notes.getShapes()) if (s instanceof XSLFTextShape t) text.append(t.getText()).append(' ');
                // the notes hold the page's text as an independent reader sees it
                String pageText = words(Independent.pdftotext(pdf, i + 1, i + 1));
                String firstWords = String.join(" ", List.of(pageText.split(" ")).subList(0, 5));
                assertThat(words(text.toString())).contains(firstWords);
            }
        }
    }

    /** A PDF with a real table, made through the API from a spreadsheet whose values we know. */
    private Path tablePdf(String key, String source) throws Exception {
        JsonNode job = run(key, "convert", Map.of("file", uploadId(key, corpus(source)), "to", "pdf"));
        return downloadOutput(job, 0);
    }

    private static List<String> row(Row r) {
        List<String> out = new ArrayList<>();
        if (r == null) return out;
        for (Cell c : r) out.add(c.getCellType() == CellType.NUMERIC ? "#" + c.getNumericCellValue() : c.getStringCellValue());
        return out;
    }

    @Test
    void xlsxHasTheTablesAsRealCellsWithNumbers() throws Exception {
        String key = newKey();
        Path pdf = tablePdf(key, "office/stanley-cups.xlsx");
        Path xlsx = convert(key, pdf, "xlsx", "xlsx");
        try (XSSFWorkbook book = new XSSFWorkbook(Files.newInputStream(xlsx))) {
            assertThat(book.getNumberOfSheets()).isPositive();
            List<List<String>> rows = new ArrayList<>();
            for (Sheet s : book) {
                assertThat(s.getSheetName()).startsWith("Page ");
                for (Row r : s) rows.add(row(r));
            }
            // Maple Leafs | TOR | 13 as three cells, 13 numeric; same for the Blues (1) and the Flyers (2)
            assertThat(rows).anyMatch(r -> r.containsAll(List.of("Maple Leafs", "TOR", "#13.0")));
            assertThat(rows).anyMatch(r -> r.containsAll(List.of("Blues", "STL", "#1.0")));
            assertThat(rows).anyMatch(r -> r.containsAll(List.of("Flyers", "PHI", "#2.0")));
        }
    }

    /**
     * Issue 14: a page Tabula cannot read (here a content stream whose Flate data is damaged after a readable one) is
     * named in {@code output.note}, and the tables of the other pages are still there.
     */
    @Test
    void aPageTabulaCannotReadIsNamedInTheNote() throws Exception {
        String key = newKey();
        Path pdf = tablePdf(key, "office/stanley-cups.xlsx");
        int tablePages = pages(pdf);
        Path withUnreadable = Files.createTempFile("unreadable-page-", ".pdf");
        try (PDDocument doc = Independent.pdfbox(pdf)) {
            PDPage page = new PDPage();
            page.setResources(new PDResources());
            page.getResources().put(COSName.getPDFName("F1"), new PDType1Font(Standard14Fonts.FontName.HELVETICA));
            COSStream text = doc.getDocument().createCOSStream();
            try (OutputStream os = text.createOutputStream()) {
                os.write("BT /F1 12 Tf 72 700 Td (A page with a damaged second content stream) Tj ET".getBytes(StandardCharsets.US_ASCII));
            }
            COSStream damaged = doc.getDocument().createCOSStream();
            try (OutputStream os = damaged.createRawOutputStream()) {
                os.write(new byte[] {0x78, (byte) 0x9c, 'n', 'o', 't', ' ', 'f', 'l', 'a', 't', 'e'});
            }
            damaged.setItem(COSName.FILTER, COSName.FLATE_DECODE);
            COSArray contents = new COSArray();
            contents.add(text);
            contents.add(damaged);
            page.getCOSObject().setItem(COSName.CONTENTS, contents);
            doc.addPage(page);
            doc.save(withUnreadable.toFile());
        }
        JsonNode job = run(key, "convert", Map.of("file", uploadId(key, withUnreadable), "to", "xlsx"));
        int unreadable = tablePages + 1;
        assertThat(job.at("/output/note").asString())
                .isEqualTo("Tables could not be detected on page " + unreadable + " (its content stream could not be read).");
        try (XSSFWorkbook book = new XSSFWorkbook(Files.newInputStream(downloadOutput(job, 0)))) {
            List<List<String>> rows = new ArrayList<>();
            for (Sheet s : book) for (Row r : s) rows.add(row(r));
            assertThat(rows).anyMatch(r -> r.containsAll(List.of("Maple Leafs", "TOR", "#13.0")));
        }
    }

    @Test
    void docxHasRealTablesWithTheSourceCells() throws Exception {
        String key = newKey();
        Path pdf = tablePdf(key, "office/docx-tables.docx");
        Path docx = convert(key, pdf, "docx", "docx");
        try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(docx))) {
            assertThat(doc.getTables()).isNotEmpty();
            List<String> cells = new ArrayList<>();
            for (XWPFTable t : doc.getTables()) t.getRows().forEach(r -> r.getTableCells().forEach(c -> cells.add(c.getText().strip())));
            assertThat(cells).contains("Header Col 1", "Header Col 2", "Lorem ipsum");
            // the table's text is in the table, not repeated as loose paragraphs
            assertThat(doc.getParagraphs()).noneMatch(p -> p.getText().strip().equals("Header Col 1 Header Col 2"));
        }
    }

    @Test
    void docxOfAPaperFlowsInParagraphsWithHeadings() throws Exception {
        Path pdf = corpus("pdf-text/two-column-paper-2p.pdf");
        Path docx = convert(newKey(), pdf, "docx", "docx");
        String source = Independent.pdftotext(pdf);
        long pdfLines = source.lines().filter(l -> !l.isBlank()).count();
        try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(docx))) {
            List<XWPFParagraph> paras = doc.getParagraphs().stream().filter(p -> !p.getText().isBlank()).toList();
            // flowing text: far fewer paragraphs than the PDF has lines
            assertThat(paras.size()).as("paragraphs vs %d pdftotext lines", pdfLines).isLessThan((int) (pdfLines / 3));
            List<String> headings = paras.stream().filter(p -> p.getStyle() != null && p.getStyle().startsWith("Heading")).map(XWPFParagraph::getText).toList();
            assertThat(headings).anyMatch(h -> h.contains("Dense Passage Retrieval"));
            assertThat(headings).anyMatch(h -> h.contains("Introduction"));
            String text = words(doc.getParagraphs().stream().map(XWPFParagraph::getText).reduce("", (a, b) -> a + " " + b));
            // a sentence that wraps over lines in the PDF is one run of text here, de-hyphenated
            assertThat(text).contains("Open-domain question answering relies on efficient passage retrieval to select candidate contexts");
            assertThat(text).contains("implemented using dense representations alone, where embeddings are learned");
            // page break before page 2
            assertThat(paras).anyMatch(XWPFParagraph::isPageBreak);
        }
    }

    @Test
    void docxOfAMultiPageDocumentKeepsAllItsText() throws Exception {
        Path pdf = corpus("pdf-text/pdflatex-4-pages-objstm.pdf");
        Path docx = convert(newKey(), pdf, "docx", "docx");
        try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(docx))) {
            String text = words(doc.getParagraphs().stream().map(XWPFParagraph::getText).reduce("", (a, b) -> a + " " + b));
            for (int p = 1; p <= pages(pdf); p++) {
                String[] w = words(Independent.pdftotext(pdf, p, p)).split(" ");
                assertThat(text).as("page %d", p).contains(String.join(" ", List.of(w).subList(w.length - 6, w.length - 1)));
            }
            assertThat(doc.getParagraphs().stream().filter(XWPFParagraph::isPageBreak).count()).isEqualTo(pages(pdf) - 1);
        }
    }

    @Test
    void aScanIsOcrdBeforeBecomingADocx() throws Exception {
        Path pdf = corpus("pdf-scanned/english-skewed-brochure.pdf");
        assertThat(words(Independent.pdftotext(pdf))).as("the scan has no text layer").isEmpty();
        Path docx = convert(scanKey(), pdf, "docx", "docx");
        try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(docx))) {
            String text = words(doc.getParagraphs().stream().map(XWPFParagraph::getText).reduce("", (a, b) -> a + " " + b));
            assertThat(text).contains("LinnSequencer");
            // the scan itself is not repeated as a picture
            assertThat(doc.getAllPictures()).isEmpty();
        }
    }

    /** A form's value is on its label's paragraph ("First Name: Alice"), as in Markdown. */
    @Test
    void docxPutsAFormsValueBesideItsLabel() throws Exception {
        Path docx = convert(newKey(), corpus("pdf-text/libreoffice-form.pdf"), "docx", "docx");
        try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(docx))) {
            List<String> paras = doc.getParagraphs().stream().map(p -> p.getText().strip()).filter(t -> !t.isEmpty()).toList();
            assertThat(paras).containsSubsequence("First Name: Alice", "Last Name", "☐ Female", "☐ Male");
        }
    }

    private static String docxText(Path docx) throws Exception {
        try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(docx))) {
            return doc.getParagraphs().stream().map(XWPFParagraph::getText).reduce("", (a, b) -> a + "\n" + b);
        }
    }

    @Test
    void anArabicScanBecomesADocxInLogicalOrder() throws Exception {
        Path docx = convert(newKey(), corpus("pdf-scanned/arabic-paragraph-capr12-imageonly.pdf"), "docx", "docx");
        String truth = Files.readString(corpus("pdf-scanned/arabic-paragraph-capr12.truth.txt"));
        // Tesseract's text layer is in logical order; PDFBox's own bidi turned it around (CER 0.78 before issue 12)
        assertThat(Cer.of(docxText(docx), truth)).isLessThanOrEqualTo(0.005);
    }

    @Test
    void arabicOfALibreOfficePdfIsInLogicalOrderInDocxAndExtractText() throws Exception {
        String key = newKey();
        List<String> lines = List.of("مرحبا بالعالم", "The word سلام means peace", "حبيبي habibi", "قال لا للحرب 2024");
        Path source = Files.createTempDirectory("arabic-office").resolve("arabic.docx");
        try (XWPFDocument doc = new XWPFDocument()) {
            for (String line : lines) doc.createParagraph().createRun().setText(line);
            try (var os = Files.newOutputStream(source)) {
                doc.write(os);
            }
        }
        Path pdf = convert(key, source, "pdf", "pdf");
        assertThat(Independent.pdftotext(pdf)).as("LibreOffice wrote the Arabic as text").contains("habibi");

        Path docxFile = convert(key, pdf, "docx", "docx");
        try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(docxFile))) {
            XWPFParagraph arabic = doc.getParagraphs().stream().filter(p -> p.getText().startsWith("مرحبا")).findFirst().orElseThrow();
            assertThat(arabic.getCTP().getPPr().isSetBidi()).as("a right-to-left paragraph").isTrue();
        }
        String docx = words(docxText(docxFile));
        String extracted = run(key, "extract-text", Map.of("file", uploadId(key, pdf))).at("/output/text").asString();
        for (String line : lines) {
            assertThat(docx).contains(line);
            assertThat(extracted.lines().map(String::strip).toList()).contains(line);
        }
    }

    @Test
    void rotatedPagesBecomeDocxTextWithWholeWords() throws Exception {
        String key = newKey();
        String single = words(docxText(convert(key, corpus("pdf-text/rotated-page-90.pdf"), "docx", "docx")));
        assertThat(single).contains("Hello World Test Text", "Second line of text here", "Rotated page fixture");
        // pages with /Rotate 0, 90, 180 and 270
        String twenty = words(docxText(convert(key, corpus("pdf-text/rotated-pages-20p.pdf"), "docx", "docx")));
        for (int p = 1; p <= 20; p++) assertThat(twenty).containsPattern("Original page " + p + "\\b");
    }

    @Test
    void docxKeepsTheDocumentsPictures() throws Exception {
        String key = newKey();
        Path pdf = tablePdf(key, "office/contains-pictures.docx");
        Path docx = convert(key, pdf, "docx", "docx");
        try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(docx))) {
            assertThat(doc.getAllPictures()).isNotEmpty();
            for (var pic : doc.getAllPictures()) {
                assertThat(ImageIO.read(new java.io.ByteArrayInputStream(pic.getData()))).isNotNull();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pdf-text/pdflatex-4-pages-objstm.pdf", "pdf-text/two-column-paper-2p.pdf"})
    void runningTextIsNotATableButATextSheet(String file) throws Exception {
        Path pdf = corpus(file);
        Path xlsx = convert(newKey(), pdf, "xlsx", "xlsx");
        try (XSSFWorkbook book = new XSSFWorkbook(Files.newInputStream(xlsx))) {
            assertThat(book.getNumberOfSheets()).isEqualTo(1);
            Sheet sheet = book.getSheet("Text");
            assertThat(sheet).isNotNull();
            StringBuilder text = new StringBuilder();
            for (Row r : sheet) text.append(r.getCell(0).getStringCellValue()).append(' ');
            String[] w = words(Independent.pdftotext(pdf, 1, 1)).split(" ");
            assertThat(words(text.toString())).contains(String.join(" ", List.of(w).subList(0, 8)));
        }
    }

    @Test
    void aScanIsOcrdBeforeBecomingAnXlsx() throws Exception {
        Path xlsx = convert(scanKey(), corpus("pdf-scanned/english-skewed-brochure.pdf"), "xlsx", "xlsx");
        try (XSSFWorkbook book = new XSSFWorkbook(Files.newInputStream(xlsx))) {
            StringBuilder text = new StringBuilder();
            for (Sheet s : book) for (Row r : s) for (Cell c : r) if (c.getCellType() == CellType.STRING) text.append(c.getStringCellValue()).append(' ');
            assertThat(text.toString()).contains("LinnSequencer");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"docx", "xlsx", "pptx", "jpg"})
    void aPdfWithOwnerRestrictionsOnlyConverts(String to) throws Exception {
        String key = newKey();
        JsonNode job = run(key, "convert", Map.of("file", uploadId(key, corpus("pdf-broken/owner-password-copy-protected.pdf")), "to", to));
        assertThat(job.at("/status").asString()).isEqualTo("succeeded");
        Path out = downloadOutput(job, 0);
        if (to.equals("docx")) {
            try (XWPFDocument doc = new XWPFDocument(Files.newInputStream(out))) {
                assertThat(doc.getParagraphs().stream().map(XWPFParagraph::getText).reduce("", String::concat)).contains("LayoutParser");
            }
        }
    }

    @Test
    void anEncryptedPdfIsRefusedBeforeAnyJob() {
        String key = newKey();
        Response r = post(key, "/convert", Map.of("file", uploadId(key, corpus("pdf-broken/encrypted-aes256-R6-user-view.pdf")), "to", "docx"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    @Test
    void aBookBecomesJpgsWithProgressPerPage() throws Exception {
        String key = newKey();
        Path pdf = corpus("pdf-text/geotopo-117p-linearized-links.pdf");
        Response r = post(key, "/convert", Map.of("file", uploadId(key, pdf), "to", "jpg", "wait", 0));
        assertThat(r.status()).isEqualTo(202);
        String id = r.body().get("id").asString();
        JsonNode job = r.body();
        int maxDone = 0;
        for (int i = 0; i < 6000 && !job.get("status").asString().matches("succeeded|failed"); i++) {
            Thread.sleep(100);
            job = get(key, "/jobs/" + id).body();
            if (job.at("/progress/unit").asString("").equals("pages")) {
                assertThat(job.at("/progress/total").asInt()).isEqualTo(117);
                maxDone = Math.max(maxDone, job.at("/progress/done").asInt());
            }
        }
        assertThat(job.get("status").asString()).isEqualTo("succeeded");
        assertThat(maxDone).as("pages done seen while running").isBetween(1, 117);
        try (ZipFile z = new ZipFile(downloadOutput(job, 0).toFile())) {
            assertThat(z.size()).isEqualTo(117);
            assertThat(z.getEntry("geotopo-117p-linearized-links-page-117.jpg")).isNotNull();
        }
    }
}
