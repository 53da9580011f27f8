package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import dev.docapi.support.Words;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.imageio.ImageIO;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.text.TextContentRenderer;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /convert} from a PDF {@code to: "md"} and {@code "html"} (additions, issue 28). Outputs are read back by
 * independent parsers — commonmark-java with GitHub tables for Markdown, jsoup for HTML — and their words compared with
 * pdftotext's.
 */
@Heavy
class ConvertToMarkupTest extends ApiTestBase {
    private static final Parser MARKDOWN = Parser.builder().extensions(List.of(TablesExtension.create())).build();

    /** The text of a Markdown node: its Text literals, joined. */
    private static String literal(Node node) {
        StringBuilder sb = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text text) {
                sb.append(text.getLiteral());
            }
        });
        return sb.toString().strip();
    }

    private JsonNode convert(String key, Path pdf, Map<String, Object> options) {
        Map<String, Object> body = new java.util.HashMap<>(options);
        body.put("file", uploadId(key, pdf));
        JsonNode job = run(key, "convert", body);
        assertThat(job.at("/status").asString()).as(job.toString()).isEqualTo("succeeded");
        return job;
    }

    /** Markdown of the two-column paper: headings as # lines in reading order, and every word of the PDF. */
    @Test
    void theTwoColumnPaperBecomesMarkdownWithItsHeadingsInOrder() throws Exception {
        Path pdf = corpus("pdf-text/two-column-paper-2p.pdf");
        JsonNode job = convert(newKey(), pdf, Map.of("to", "md"));
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("two-column-paper-2p.md");
        String md = Files.readString(downloadOutput(job, 0));
        Node doc = MARKDOWN.parse(md);
        List<String> headings = new ArrayList<>();
        doc.accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                headings.add(literal(heading));
            }
        });
        assertThat(headings).anyMatch(h -> h.contains("Dense Passage Retrieval"));
        // the paper's sections, column by column: where each heading stands in pdftotext's reading of the PDF
        String source = Independent.pdftotext(pdf).replaceAll("\\s+", " ");
        List<String> sections = headings.stream().filter(h -> h.matches("\\d(\\.\\d)? .*")).toList();
        assertThat(sections).as("numbered section headings in %s", headings).hasSizeGreaterThanOrEqualTo(3);
        assertThat(sections.getFirst()).contains("Introduction");
        List<Integer> at = sections.stream().map(h -> source.indexOf(h.replaceAll("\\s+", " "))).toList();
        assertThat(at).as("%s found in the PDF's text, in order", sections).doesNotContain(-1).isSorted();
        // the section text around a column break reads on: a sentence from the end of the first column
        assertThat(md.replaceAll("\\s+", " ")).contains("Open-domain question answering relies on efficient passage retrieval to select candidate contexts");
    }

    /**
     * A workbook printed to PDF by the service (LibreOffice Calc bookmarks each sheet by its name and prints the name
     * nowhere): its Markdown heads each sheet's tables with the sheet's name, in sheet order, each heading above the
     * words of its sheet's first page.
     */
    @Test
    void aWorkbooksSheetsHeadTheirTables() throws Exception {
        String key = newKey();
        JsonNode printed = run(key, "convert", Map.of("file", uploadId(key, corpus("office/half-year-analyses-by-segment.xlsx")), "to", "pdf"));
        Path pdf = downloadOutput(printed, 0);
        List<String> sheets = new ArrayList<>();
        List<Integer> firstPages = new ArrayList<>();
        try (var doc = Independent.pdfbox(pdf)) {
            for (var item : doc.getDocumentCatalog().getDocumentOutline().children()) {
                sheets.add(item.getTitle());
                firstPages.add(doc.getPages().indexOf(item.findDestinationPage(doc)) + 1);
            }
        }
        assertThat(sheets).as("the workbook's sheets, bookmarked").hasSizeGreaterThanOrEqualTo(2);
        String source = Independent.pdftotext(pdf);
        assertThat(sheets).as("sheet names the pages do not print").noneMatch(source::contains);
        String md = Files.readString(downloadOutput(convert(key, pdf, Map.of("to", "md", "images", false)), 0));
        List<String> headings = new ArrayList<>();
        MARKDOWN.parse(md).accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                if (heading.getLevel() == 2) headings.add(literal(heading));
            }
        });
        assertThat(headings).as("level-2 headings of %s", md).containsSubsequence(sheets);
        List<List<String>> lines = List.of(source.split("\f")).stream()
                .map(p -> p.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()).toList();
        for (int i = 0; i < sheets.size(); i++) {
            // the first line of the sheet's first page that no other page prints and the Markdown holds as printed
            List<String> page = lines.get(firstPages.get(i) - 1);
            String first = page.stream().filter(l -> lines.stream().filter(p -> p.contains(l)).count() == 1 && md.contains(l)).findFirst().orElseThrow();
            int heading = md.indexOf("## " + sheets.get(i));
            assertThat(md.indexOf(first, heading)).as("'%s' of page %d after the heading '%s'", first, firstPages.get(i), sheets.get(i))
                    .isGreaterThan(heading).isLessThan(i + 1 < sheets.size() ? md.indexOf("## " + sheets.get(i + 1)) : md.length());
        }
    }

    static Stream<String> bornDigital() throws IOException {
        try (Stream<Path> files = Files.list(corpus("pdf-text"))) {
            return files.map(p -> "pdf-text/" + p.getFileName()).filter(n -> n.endsWith(".pdf")).sorted().toList().stream();
        }
    }

    /**
     * Issue 28: the words of the output, markup removed, match the input's with similarity ≥ 0.98, both ways, on every
     * born-digital corpus PDF. The input's words are read by two independent readers, pdftotext and PDFBox's own
     * stripper, and the one that agrees better counts: each misreads some documents (pdftotext spaces formulas
     * otherwise, "S 1" for "S1", and gives only 0.943 of the math book's words; PDFBox's plain stripper splits the words
     * of rotated pages and reverses Arabic; it does not read form values), each with the form's text values as qpdf reads
     * them (a value whose appearance is a picture is still the field's). A document of under 50 words may differ by
     * one word (a checkbox's glyph). Markdown leaves out running headers, footers and page numbers (issue 36): the
     * words it keeps are compared with the PDF's words less each page's running first and last lines.
     */
    @ParameterizedTest
    @MethodSource("bornDigital")
    void markdownKeepsTheWordsOfEveryBornDigitalPdf(String file) throws Exception {
        Path pdf = corpus(file);
        JsonNode job = convert(newKey(), pdf, Map.of("to", "md", "images", false));
        assertThat(job.at("/output/files/0/name").asString()).endsWith(".md");
        String md = Files.readString(downloadOutput(job, 0));
        var text = TextContentRenderer.builder().extensions(List.of(TablesExtension.create())).build();
        List<String> words = Words.of(text.render(linksAsText(MARKDOWN.parse(md))));
        // a merged cell's words count once where the Markdown is checked for words not in the PDF
        List<String> once = Words.of(text.render(linksAsText(MARKDOWN.parse(withoutSpanCopies(md)))));
        // a form's text values are the PDF's words too, where their appearance draws no text (qpdf reads the AcroForm)
        String values = formValues(pdf);
        List<List<String>> readers = List.of(Words.of(Independent.pdftotext(pdf) + values), Words.of(Independent.pdfboxText(pdf) + values));
        // Markdown leaves running headers, footers and page numbers out: the PDF's words without them
        List<String> pages = List.of(Independent.pdftotext(pdf).split("\f", -1));
        List<List<String>> body = List.of(Words.of(withoutRunningLines(pages)), Words.of(withoutRunningLines(Independent.pdfboxPages(pdf))));
        assertSimilar(body.stream().map(r -> new Pair(r, words)).toList(), "the PDF's words in the Markdown; missing e.g. %s");
        assertSimilar(readers.stream().map(r -> new Pair(once, r)).toList(), "the Markdown's words in the PDF; not in it e.g. %s");
    }

    private record Pair(List<String> expected, List<String> actual) {
    }

    /** The parsed Markdown with each link replaced by its text: a link's address is markup, not the page's words. */
    private static Node linksAsText(Node doc) {
        List<org.commonmark.node.Link> links = new ArrayList<>();
        doc.accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.Link link) {
                links.add(link);
            }
        });
        for (org.commonmark.node.Link link : links) {
            for (Node child = link.getFirstChild(); child != null; ) {
                Node next = child.getNext();
                link.insertBefore(child);
                child = next;
            }
            link.unlink();
        }
        return doc;
    }

    /**
     * The Markdown with each merged cell's copies blanked: Markdown repeats a merged cell's text in every position it
     * covers (GitHub tables have no spans), so a cell equal to the one on its left or the one above it is a copy, and
     * its words count once.
     */
    static String withoutSpanCopies(String md) {
        List<String> out = new ArrayList<>();
        String[] above = null;
        for (String line : md.split("\n", -1)) {
            if (!line.startsWith("|")) {
                above = null;
                out.add(line);
                continue;
            }
            if (line.matches("\\|(\\s*:?-+:?\\s*\\|)+")) { // the delimiter row
                out.add(line);
                continue;
            }
            String[] cells = line.split("(?<!\\\\)\\|", -1), kept = cells.clone();
            for (int i = 1; i < cells.length - 1; i++) {
                String c = cells[i].strip();
                boolean left = i > 1 && cells[i - 1].strip().equals(c), up = above != null && i < above.length && above[i].strip().equals(c);
                if (!c.isEmpty() && (left || up)) kept[i] = " ";
            }
            above = cells;
            out.add(String.join("|", kept));
        }
        return String.join("\n", out);
    }

    /** The text values of the PDF's form fields as qpdf's JSON gives them ({@code "u:…"}), a line each. */
    private static String formValues(Path pdf) throws Exception {
        String json = Independent.run("qpdf", "--json", "--json-key=acroform", pdf.toString()).output();
        JsonNode form = JSON.readTree(json.substring(json.indexOf('{'))).path("acroform"); // after any warning qpdf prints
        StringBuilder out = new StringBuilder();
        for (JsonNode f : form.path("fields")) {
            String v = f.path("value").asString("");
            if (v.startsWith("u:")) out.append('\n').append(v.substring(2));
        }
        return out.toString();
    }

    /**
     * The pages' text without their running lines: a page's first or last line that is a number alone, or whose text
     * (digits aside) is also the first or last line of another page. Pages with only one line keep it.
     */
    static String withoutRunningLines(List<String> pages) {
        java.util.function.Function<String, String> key = l -> l.toLowerCase(java.util.Locale.ROOT).replaceAll("\\d+", "#").replaceAll("\\s+", " ").strip();
        List<List<String>> lines = pages.stream().map(p -> p.lines().filter(l -> !l.isBlank()).toList()).toList();
        java.util.Map<String, Integer> firsts = new java.util.HashMap<>(), lasts = new java.util.HashMap<>();
        for (List<String> l : lines) {
            if (l.size() < 2) continue;
            firsts.merge(key.apply(l.getFirst()), 1, Integer::sum);
            lasts.merge(key.apply(l.getLast()), 1, Integer::sum);
        }
        StringBuilder out = new StringBuilder();
        for (List<String> l : lines) {
            int from = 0, to = l.size();
            if (l.size() >= 2) {
                String first = key.apply(l.getFirst()), last = key.apply(l.getLast());
                if (first.matches("[#\\s–-]+") || firsts.get(first) >= 2) from = 1;
                if (last.matches("[#\\s–-]+") || lasts.get(last) >= 2) to = l.size() - 1;
            }
            for (String line : l.subList(from, Math.max(from, to))) out.append(line).append('\n');
        }
        return out.toString();
    }

    /** The best of the pairs' shares is ≥ 0.98 (or, under 50 words, at most one word is missing). */
    private static void assertSimilar(List<Pair> pairs, String message) {
        Pair best = pairs.stream().max(java.util.Comparator.comparingDouble(p -> Words.share(p.expected(), p.actual()))).orElseThrow();
        List<String> missing = Words.missing(best.expected(), best.actual(), 40);
        if (best.expected().size() < 50 && missing.size() <= 1) return;
        assertThat(Words.share(best.expected(), best.actual())).as(message, missing).isGreaterThanOrEqualTo(0.98);
    }

    /** A ruled table (a Word table printed to PDF) becomes a Markdown table with its cells, and an HTML table. */
    @Test
    void aTableBecomesAMarkdownTableAndAnHtmlTable() throws Exception {
        String key = newKey();
        Path pdf = downloadOutput(run(key, "convert", Map.of("file", uploadId(key, corpus("office/docx-tables.docx")), "to", "pdf")), 0);
        String md = Files.readString(downloadOutput(convert(key, pdf, Map.of("to", "md")), 0));
        List<String> cells = new ArrayList<>();
        MARKDOWN.parse(md).accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.CustomNode node) {
                if (node instanceof TableCell) cells.add(literal(node));
                visitChildren(node);
            }

            @Override
            public void visit(org.commonmark.node.CustomBlock block) {
                if (block instanceof TableBlock) cells.add("<table>");
                visitChildren(block);
            }
        });
        assertThat(cells).contains("<table>", "Header Col 1", "Header Col 2", "Lorem ipsum");

        Document html = Jsoup.parse(downloadOutput(convert(key, pdf, Map.of("to", "html")), 0).toFile(), "UTF-8");
        assertThat(html.select("table th").eachText()).contains("Header Col 1", "Header Col 2");
        assertThat(html.select("table td").eachText()).contains("Lorem ipsum");
    }

    /**
     * A filled form's values read beside their labels, one paragraph each ("label: value", "☑ label"), in the page's
     * order, in Markdown and HTML; PDFBox's form says which boxes are checked.
     */
    @Test
    void aFormsValuesReadBesideTheirLabels() throws Exception {
        String key = newKey();
        Path pdf = corpus("pdf-text/libreoffice-form.pdf");
        String md = Files.readString(downloadOutput(convert(key, pdf, Map.of("to", "md", "images", false)), 0));
        List<String> paragraphs = List.of(md.split("\n\n")).stream().map(String::strip).toList();
        boolean agreed;
        try (var doc = Independent.pdfbox(pdf)) {
            agreed = ((org.apache.pdfbox.pdmodel.interactive.form.PDCheckBox) doc.getDocumentCatalog().getAcroForm(null).getField("gdpr")).isChecked();
        }
        assertThat(paragraphs).containsSubsequence("First Name: Alice", "Last Name", "Gender:", (agreed ? "☑" : "☐") + " Agree to privacy policy");
        Document html = Jsoup.parse(downloadOutput(convert(key, pdf, Map.of("to", "html", "images", false)), 0).toFile(), "UTF-8");
        assertThat(html.select("p").eachText()).contains("First Name: Alice", "☐ Female", "☐ Male");
    }

    /** Arabic reads in logical order in HTML, its paragraph marked right-to-left; the Latin word beside it kept. */
    @Test
    void arabicIsInLogicalOrderInHtml() throws Exception {
        JsonNode job = convert(newKey(), corpus("pdf-text/arabic-habibi.pdf"), Map.of("to", "html"));
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("arabic-habibi.html");
        Document html = Jsoup.parse(downloadOutput(job, 0).toFile(), "UTF-8");
        var rtl = html.select("[dir=rtl]");
        assertThat(rtl.eachText()).anyMatch(t -> t.contains("حَبيبي"));
        assertThat(html.body().text()).contains("habibi");
        assertThat(html.select("section#page-1")).hasSize(1);
    }

    /**
     * A right-to-left table (the structure set's Farsi form, its tables inside a frame around the page) reads from its
     * right column: in HTML its first cell is the label on the right and the table is marked right-to-left; in Word the
     * table is laid out right to left (bidiVisual) with the label in its first cell.
     */
    @Test
    void aRightToLeftTableReadsFromItsRightInHtmlAndWord() throws Exception {
        String key = newKey();
        Path pdf = Path.of("bench/structure/pdf/right_to_left_03.pdf");
        Document html = Jsoup.parse(downloadOutput(convert(key, pdf, Map.of("to", "html", "images", false)), 0).toFile(), "UTF-8");
        assertThat(html.select("table[dir=rtl] tr").stream().map(tr -> tr.select("th, td").eachText()).toList())
                .contains(List.of("تاريخ ارائه مدارک", "1403/09/19"), List.of("تاريخ پذيرش", "1403/10/04"));
        Path docx = downloadOutput(convert(key, pdf, Map.of("to", "docx")), 0);
        try (var word = new org.apache.poi.xwpf.usermodel.XWPFDocument(Files.newInputStream(docx))) {
            assertThat(word.getTables()).anySatisfy(t -> {
                assertThat(t.getCTTbl().getTblPr().isSetBidiVisual()).isTrue();
                assertThat(t.getRow(0).getCell(0).getText()).isEqualTo("تاريخ ارائه مدارک");
                assertThat(t.getRow(0).getCell(1).getText()).isEqualTo("1403/09/19");
            });
        }
    }

    /**
     * A listing set in a monospaced font keeps its lines and indentation (issue 36): a fenced code block in Markdown
     * (read back by commonmark-java), {@code <pre><code>} in HTML (jsoup), Courier New lines in Word (POI), as pdftotext's
     * layout shows the page: "return a + b;" indented under "function add(a, b) {". The sentence around it stays prose.
     */
    @Test
    void aCodeListingKeepsItsLinesAndIndentation() throws Exception {
        Path pdf = Path.of("bench/structure/pdf/code_and_formula.pdf");
        assertThat(Independent.run("pdftotext", "-q", "-layout", pdf.toString(), "-").output()).contains("function add (a , b ) {\n    return a + b ;\n}");
        String listing = "function add(a, b) {\n    return a + b;\n}\nconsole.log(add(3, 5));";
        String key = newKey();
        String md = Files.readString(downloadOutput(convert(key, pdf, Map.of("to", "md", "images", false)), 0));
        List<String> blocks = new ArrayList<>();
        Parser.builder().build().parse(md).accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.FencedCodeBlock block) {
                blocks.add(block.getLiteral());
            }
        });
        assertThat(blocks).as(md).containsExactly(listing + "\n");
        Document html = Jsoup.parse(downloadOutput(convert(key, pdf, Map.of("to", "html", "images", false)), 0).toFile(), "UTF-8");
        assertThat(html.select("pre > code").eachText()).hasSize(1);
        assertThat(html.select("pre > code").first().wholeText()).isEqualTo(listing);
        assertThat(html.select("p").eachText()).anySatisfy(p -> assertThat(p).startsWith("Lorem ipsum"));
        Path docx = downloadOutput(convert(key, pdf, Map.of("to", "docx")), 0);
        try (var word = new org.apache.poi.xwpf.usermodel.XWPFDocument(Files.newInputStream(docx))) {
            assertThat(word.getParagraphs()).filteredOn(p -> p.getText().startsWith("function add")).singleElement().satisfies(p -> {
                assertThat(p.getText()).isEqualTo(listing);
                assertThat(p.getRuns()).allSatisfy(r -> assertThat(r.getFontFamily()).isEqualTo("Courier New"));
            });
        }
    }

    /** Pictures go in a ZIP beside the text, linked and decodable; {@code images: false} gives the text alone. */
    @Test
    void picturesGoInAZipLinkedFromTheText() throws Exception {
        String key = newKey();
        Path pdf = downloadOutput(run(key, "convert", Map.of("file", uploadId(key, corpus("office/contains-pictures.docx")), "to", "pdf")), 0);
        JsonNode job = convert(key, pdf, Map.of("to", "md"));
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("contains-pictures.zip");
        try (ZipFile zip = new ZipFile(downloadOutput(job, 0).toFile())) {
            ZipEntry text = zip.getEntry("contains-pictures.md");
            assertThat(text).isNotNull();
            String md = new String(zip.getInputStream(text).readAllBytes(), StandardCharsets.UTF_8);
            List<String> links = new ArrayList<>();
            MARKDOWN.parse(md).accept(new AbstractVisitor() {
                @Override
                public void visit(Image image) {
                    links.add(image.getDestination());
                }
            });
            assertThat(links).isNotEmpty();
            for (String link : links) {
                ZipEntry picture = zip.getEntry(link);
                assertThat(picture).as(link).isNotNull();
                assertThat(ImageIO.read(zip.getInputStream(picture))).as(link).isNotNull();
            }
            assertThat(zip.size()).isEqualTo(links.size() + 1);
        }
        JsonNode without = convert(key, pdf, Map.of("to", "md", "images", false));
        assertThat(without.at("/output/files/0/name").asString()).isEqualTo("contains-pictures.md");
        assertThat(Files.readString(downloadOutput(without, 0))).doesNotContain("](images/");
    }

    /** A scan reads through OCR (the scan itself is not repeated as a picture). */
    @Test
    void aScanIsOcrd() throws Exception {
        // the API's longest wait: OCR and the table detector's child JVM took past the default 60 s on a loaded machine
        JsonNode job = convert(scanKey(), corpus("pdf-scanned/english-skewed-brochure.pdf"), Map.of("to", "html", "wait", 300));
        Document html = Jsoup.parse(downloadOutput(job, 0).toFile(), "UTF-8");
        assertThat(html.body().text()).contains("LinnSequencer");
        assertThat(html.select("img")).isEmpty();
        // its bullets, which OCR reads as "e" or "©", are list items, never headings (issue 36)
        assertThat(html.select("li").eachText()).anyMatch(t -> t.startsWith("Ultra-fast"));
        assertThat(html.select("h1, h2, h3, h4, h5, h6").eachText()).noneMatch(t -> t.contains("Ultra-fast") || t.contains("TRANSPOSED"));
    }

    /** A rectangle drawn around the whole page (a border) is not a table: its text stays paragraphs (issue 36). */
    @Test
    void aFrameAroundThePageIsNotATable() throws Exception {
        Path pdf = Files.createTempDirectory("frame").resolve("framed.pdf");
        List<String> paragraphs = List.of("The committee met on Tuesday to review the budget for the coming year and its plans.",
                "All members agreed that the library should open on Sundays from the first of March onwards.");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage();
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.addRect(36, 36, page.getMediaBox().getWidth() - 72, page.getMediaBox().getHeight() - 72);
                cs.addRect(40, 40, page.getMediaBox().getWidth() - 80, page.getMediaBox().getHeight() - 80);
                cs.stroke();
                cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 11);
                for (int i = 0; i < paragraphs.size(); i++) {
                    cs.beginText();
                    cs.newLineAtOffset(72, 700 - i * 40);
                    cs.showText(paragraphs.get(i));
                    cs.endText();
                }
            }
            doc.save(pdf.toFile());
        }
        Node md = MARKDOWN.parse(Files.readString(downloadOutput(convert(newKey(), pdf, Map.of("to", "md")), 0)));
        List<String> paras = new ArrayList<>();
        md.accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.Paragraph paragraph) {
                paras.add(literal(paragraph));
            }

            @Override
            public void visit(org.commonmark.node.CustomBlock block) {
                paras.add("table");
            }
        });
        assertThat(paras).containsExactlyElementsOf(paragraphs);
    }

    /** Text of the PDF that looks like markup stays text in both outputs: escaped, never a tag, link or emphasis. */
    @Test
    void textThatLooksLikeMarkupStaysText() throws Exception {
        List<String> lines = List.of("<script>alert(1)</script> & <b>bold</b>", "*not emphasis* and [not a link](http://example.com)",
                "# not a heading", "> not a quote | not a cell");
        Path pdf = Files.createTempDirectory("markup").resolve("markup.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage();
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 11);
                for (int i = 0; i < lines.size(); i++) {
                    cs.beginText();
                    cs.newLineAtOffset(72, 700 - i * 40);
                    cs.showText(lines.get(i));
                    cs.endText();
                }
            }
            doc.save(pdf.toFile());
        }
        String key = newKey();
        Node md = MARKDOWN.parse(Files.readString(downloadOutput(convert(key, pdf, Map.of("to", "md")), 0)));
        List<String> kinds = new ArrayList<>();
        md.accept(new AbstractVisitor() {
            @Override
            protected void visitChildren(Node parent) {
                for (Node n = parent.getFirstChild(); n != null; n = n.getNext()) {
                    kinds.add(n.getClass().getSimpleName());
                    n.accept(this);
                }
            }
        });
        assertThat(kinds).doesNotContain("HtmlInline", "HtmlBlock", "Emphasis", "Link", "Heading", "BlockQuote", "TableBlock");
        String text = TextContentRenderer.builder().build().render(md);
        for (String line : lines) assertThat(text).contains(line);

        Document html = Jsoup.parse(downloadOutput(convert(key, pdf, Map.of("to", "html")), 0).toFile(), "UTF-8");
        assertThat(html.select("script, b, a")).isEmpty();
        for (String line : lines) assertThat(html.body().text()).contains(line);
    }

    /**
     * A table's cells read as the page's text in Markdown (issue 36): escaped only where Markdown would read them
     * otherwise, so an identifier keeps its underscores and a lone asterisk stays as it stands ("FUNCTION_ID",
     * "*JOBCTL"), while what would make emphasis, a link, a tag or a new cell is escaped; each cell parses back to its text.
     */
    @Test
    void aTablesCellsAreEscapedOnlyWhereMarkdownWouldReadThemOtherwise() throws Exception {
        String[][] cells = {{"Name", "Value"}, {"FUNCTION_ID", "*JOBCTL"}, {"USRPRF=*OWNER", "x * y"},
                {"*not emphasis*", "[not a link](x)"}, {"<b>not a tag</b>", "a | b"}};
        Path pdf = Files.createTempDirectory("cells").resolve("cells.pdf");
        try (PDDocument doc = new PDDocument()) {
            dev.docapi.support.TablePdf.ruledTable(doc, cells);
            doc.save(pdf.toFile());
        }
        String md = Files.readString(downloadOutput(convert(newKey(), pdf, Map.of("to", "md")), 0));
        assertThat(md).contains("| FUNCTION_ID | *JOBCTL |", "| USRPRF=*OWNER | x * y |");
        List<String> parsed = new ArrayList<>(), kinds = new ArrayList<>();
        MARKDOWN.parse(md).accept(new AbstractVisitor() {
            @Override
            protected void visitChildren(Node parent) {
                for (Node n = parent.getFirstChild(); n != null; n = n.getNext()) {
                    kinds.add(n.getClass().getSimpleName());
                    if (n instanceof TableCell) parsed.add(literal(n));
                    n.accept(this);
                }
            }
        });
        assertThat(kinds).contains("TableBlock").doesNotContain("Emphasis", "StrongEmphasis", "Link", "HtmlInline", "Code");
        assertThat(parsed).containsExactlyElementsOf(Stream.of(cells).flatMap(Stream::of).toList());
    }

    /**
     * Lines that start with a ballot box are a task list: "☒ Design" is {@code - [x] Design} in Markdown and a
     * checked, disabled checkbox in HTML, "☐" an empty one; pdftotext reads the boxes as printed.
     */
    @Test
    void ballotBoxLinesAreATaskList() throws Exception {
        Path pdf = Files.createTempDirectory("tasks").resolve("tasks.pdf");
        try (var doc = new org.apache.pdfbox.pdmodel.PDDocument()) {
            var page = new org.apache.pdfbox.pdmodel.PDPage();
            doc.addPage(page);
            var font = org.apache.pdfbox.pdmodel.font.PDType0Font.load(doc, new java.io.File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
            try (var cs = new org.apache.pdfbox.pdmodel.PDPageContentStream(doc, page)) {
                String[] lines = {"Tasks before release:", "\u2612 Design", "\u2612 Implementation", "\u2610 Documentation of the task"};
                for (int i = 0; i < lines.length; i++) {
                    cs.beginText();
                    cs.setFont(font, 11);
                    cs.newLineAtOffset(72, 700 - 16 * i);
                    cs.showText(lines[i]);
                    cs.endText();
                }
            }
            doc.save(pdf.toFile());
        }
        assertThat(Independent.pdftotext(pdf)).contains("\u2612 Design", "\u2610 Documentation");
        String key = newKey();
        String md = Files.readString(downloadOutput(convert(key, pdf, Map.of("to", "md", "images", false)), 0));
        assertThat(md).contains("Tasks before release:\n\n- [x] Design\n- [x] Implementation\n- [ ] Documentation of the task\n");
        Document html = Jsoup.parse(downloadOutput(convert(key, pdf, Map.of("to", "html", "images", false)), 0).toFile(), "UTF-8");
        assertThat(html.select("ul > li").eachText()).containsExactly("Design", "Implementation", "Documentation of the task");
        assertThat(html.select("ul > li > input[type=checkbox][disabled]")).hasSize(3);
        assertThat(html.select("ul > li > input[checked]")).hasSize(2);
    }

    /**
     * A PDF's hyperlinks are links in Markdown, HTML, Word and the document model (issue 36): a word linked in a
     * sentence ({@code [manual](…)}, its address's parentheses kept), an address printed over two lines with a link on
     * each line as one link to the whole address (in Markdown its text the address, whole again), a link's full stop left out; a
     * {@code javascript:} link is no link anywhere. Read back by commonmark-java, jsoup and POI; the annotations are
     * checked in the file by qpdf's JSON first.
     */
    @Test
    void hyperlinksAreLinksInEveryOutput() throws Exception {
        String manual = "https://example.org/manual?topic=(links)";
        String address = "https://example.org/very/long/path.html";
        Path pdf = Files.createTempDirectory("links").resolve("links.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage();
            doc.addPage(page);
            var font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            String[] lines = {"Read the manual for the details.", "The whole guide is at https://example.org/very/", "long/path.html. Thank you."};
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.setFont(font, 11);
                for (int i = 0; i < lines.length; i++) {
                    cs.beginText();
                    cs.newLineAtOffset(72, 700 - 14 * i);
                    cs.showText(lines[i]);
                    cs.endText();
                }
            }
            // each link's rectangle over its words, as a word processor draws it (a little wide: the full stop is in)
            java.util.function.BiFunction<Float, String[], float[]> over = (y, around) -> {
                try {
                    float x = 72 + font.getStringWidth(around[0]) / 1000 * 11;
                    return new float[] {x, y - 3, x + font.getStringWidth(around[1]) / 1000 * 11 + 2, y + 10};
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            };
            link(page, over.apply(700f, new String[] {"Read the ", "manual"}), manual);
            link(page, over.apply(700f, new String[] {"Read the manual for the ", "details"}), "javascript:alert(1)");
            link(page, over.apply(686f, new String[] {"The whole guide is at ", "https://example.org/very/"}), address);
            link(page, over.apply(672f, new String[] {"", "long/path.html"}), address);
            doc.save(pdf.toFile());
        }
        assertThat(Independent.run("qpdf", "--json", "--json-key=qpdf", pdf.toString()).output())
                .contains(address, "javascript:alert(1)", manual);
        String key = newKey();

        String md = Files.readString(downloadOutput(convert(key, pdf, Map.of("to", "md", "images", false)), 0));
        Map<String, String> mdLinks = new java.util.LinkedHashMap<>();
        MARKDOWN.parse(md).accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.Link link) {
                mdLinks.put(literal(link), link.getDestination());
            }
        });
        assertThat(mdLinks).containsExactly(Map.entry("manual", manual.replace("(", "%28").replace(")", "%29")), Map.entry(address, address));
        assertThat(md).contains("[manual](").contains("[" + address + "](" + address + "). Thank you.").contains("for the details.").doesNotContain("javascript");

        Document html = Jsoup.parse(downloadOutput(convert(key, pdf, Map.of("to", "html", "images", false)), 0).toFile(), "UTF-8");
        assertThat(html.select("a").stream().map(a -> a.text() + " → " + a.attr("href")).toList())
                .containsExactly("manual → " + manual, "https://example.org/very/ long/path.html → " + address);

        Path docx = downloadOutput(convert(key, pdf, Map.of("to", "docx")), 0);
        try (var word = new org.apache.poi.xwpf.usermodel.XWPFDocument(Files.newInputStream(docx))) {
            List<String> links = new ArrayList<>();
            for (var para : word.getParagraphs()) {
                for (var run : para.getRuns()) {
                    if (run instanceof org.apache.poi.xwpf.usermodel.XWPFHyperlinkRun h) links.add(h.text() + " → " + h.getHyperlink(word).getURL());
                }
            }
            assertThat(links).containsExactly("manual → " + manual, "https://example.org/very/ long/path.html → " + address);
        }

        JsonNode model = JSON.readTree(downloadOutput(convert(key, pdf, Map.of("to", "json")), 0).toFile());
        List<String> modelLinks = new ArrayList<>();
        for (JsonNode e : model.at("/pages/0/elements")) for (JsonNode l : e.path("links")) modelLinks.add(l.get("text").asString() + " → " + l.get("uri").asString());
        assertThat(modelLinks).containsExactly("manual → " + manual, "https://example.org/very/\nlong/path.html → " + address);
    }

    /**
     * Links in a ruled table's cells stay in their cells: a link in Markdown's cell (commonmark-java), an {@code <a>}
     * in HTML's {@code <td>} (jsoup), a hyperlink run in the Word table's cell (POI), each to its own address.
     */
    @Test
    void aTablesLinksStayInTheirCells() throws Exception {
        String[][] cells = {{"City", "Site"}, {"Oslo", "oslo.example"}, {"Bergen", "bergen.example"}};
        Path pdf = Files.createTempDirectory("table-links").resolve("table-links.pdf");
        try (PDDocument doc = new PDDocument()) {
            dev.docapi.support.TablePdf.ruledTable(doc, cells);
            var font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (int r = 1; r < cells.length; r++) {
                // the cell's text as TablePdf sets it: 6 pt into the cell, its baseline 8 pt above the row's foot
                float x = 72 + 150 + 6, y = 700 - (r + 1) * 24 + 8;
                link(doc.getPage(0), new float[] {x, y - 3, x + font.getStringWidth(cells[r][1]) / 1000 * 11, y + 10}, "https://" + cells[r][1] + "/");
            }
            doc.save(pdf.toFile());
        }
        String key = newKey();
        String md = Files.readString(downloadOutput(convert(key, pdf, Map.of("to", "md", "images", false)), 0));
        List<String> mdLinks = new ArrayList<>();
        MARKDOWN.parse(md).accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.CustomNode node) {
                if (node instanceof TableCell) {
                    node.accept(new AbstractVisitor() {
                        @Override
                        public void visit(org.commonmark.node.Link link) {
                            mdLinks.add(literal(link) + " → " + link.getDestination());
                        }
                    });
                }
                visitChildren(node);
            }
        });
        assertThat(mdLinks).containsExactly("oslo.example → https://oslo.example/", "bergen.example → https://bergen.example/");

        Document html = Jsoup.parse(downloadOutput(convert(key, pdf, Map.of("to", "html", "images", false)), 0).toFile(), "UTF-8");
        assertThat(html.select("td > a").stream().map(a -> a.text() + " → " + a.attr("href")).toList())
                .containsExactly("oslo.example → https://oslo.example/", "bergen.example → https://bergen.example/");

        Path docx = downloadOutput(convert(key, pdf, Map.of("to", "docx")), 0);
        try (var word = new org.apache.poi.xwpf.usermodel.XWPFDocument(Files.newInputStream(docx))) {
            assertThat(word.getTables()).singleElement().satisfies(t -> {
                for (int r = 1; r < cells.length; r++) {
                    var runs = t.getRow(r).getCell(1).getParagraphs().getFirst().getRuns();
                    assertThat(runs).singleElement().isInstanceOfSatisfying(org.apache.poi.xwpf.usermodel.XWPFHyperlinkRun.class,
                            h -> assertThat(h.text() + " → " + h.getHyperlink(word).getURL()).endsWith("example → https://" + h.text() + "/"));
                }
                assertThat(t.getRow(1).getCell(0).getText()).isEqualTo("Oslo");
            });
        }
    }

    /** A link annotation over {@code rect} (x0, y0, x1, y1 in points from the page's bottom-left) opening {@code uri}. */
    private static void link(PDPage page, float[] rect, String uri) throws IOException {
        var link = new org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink();
        link.setRectangle(new org.apache.pdfbox.pdmodel.common.PDRectangle(rect[0], rect[1], rect[2] - rect[0], rect[3] - rect[1]));
        var action = new org.apache.pdfbox.pdmodel.interactive.action.PDActionURI();
        action.setURI(uri);
        link.setAction(action);
        page.getAnnotations().add(link);
    }
}
