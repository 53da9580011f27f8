package dev.docapi.operations.convert.frompdf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentModel.Cell;
import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * Merged cells in Markdown and HTML (issue 36): HTML keeps each merged cell once with its rowspan and colspan;
 * Markdown, whose tables have no spans, repeats a merged label or value in every position it covers (as pandas'
 * read_html and Docling fill a span), but not a title across the whole row or a long text. Read back by independent
 * parsers: commonmark-java (GitHub tables) and jsoup.
 */
class MarkupTablesTest {
    private static final String PROSE = "Figures for the whole region, as reported by each office at the end of the year.";

    /**
     * Region (2 rows) | Q1 | Q2 over "North" | 10 | 12 and "South" (row head over 2 rows) | 7 | 9, "West" | 3 | 4,
     * then a section row across all 4 columns, then prose over 3 columns.
     */
    private static DocumentModel model() {
        List<List<Cell>> rows = List.of(
                List.of(new Cell("Region", 2, 1), new Cell("Office", 1, 1), new Cell("Quarter", 1, 2)),
                List.of(new Cell("Name", 1, 1), new Cell("Q1", 1, 1), new Cell("Q2", 1, 1)),
                List.of(new Cell("North", 2, 1), new Cell("Oslo", 1, 1), new Cell("10", 1, 1), new Cell("12", 1, 1)),
                List.of(new Cell("Bergen", 1, 1), new Cell("7", 1, 1), new Cell("9", 1, 1)),
                List.of(new Cell("Totals by region", 1, 4)),
                List.of(new Cell("Note", 1, 1), new Cell(PROSE, 1, 3)));
        Element table = new Element(0, Type.TABLE, null, null, null, "", 1, new DocumentModel.Box(72, 72, 400, 200), 0, false,
                new DocumentModel.Table(4, true, rows), null, null, null);
        return new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, List.of(table))), List.of());
    }

    @Test
    void markdownRepeatsAMergedLabelInEveryPositionItCovers() {
        String md = new MarkdownWriter().write(model(), Map.of());
        Node doc = Parser.builder().extensions(List.of(TablesExtension.create())).build().parse(md);
        List<List<String>> rows = new ArrayList<>();
        for (Node n = doc.getFirstChild(); n != null; n = n.getNext()) if (n instanceof TableBlock t) collect(t, rows);
        assertThat(rows).as(md).containsExactly(
                List.of("Region", "Office", "Quarter", "Quarter"),
                List.of("Region", "Name", "Q1", "Q2"),
                List.of("North", "Oslo", "10", "12"),
                List.of("North", "Bergen", "7", "9"),
                List.of("Totals by region", "", "", ""),
                List.of("Note", PROSE, "", ""));
    }

    @Test
    void htmlKeepsEachMergedCellOnceWithItsSpans() {
        Document html = Jsoup.parse(new HtmlWriter("doc").write(model(), Map.of()));
        assertThat(html.select("thead th").eachText()).containsExactly("Region", "Office", "Quarter");
        assertThat(html.select("th:containsOwn(Region)").attr("rowspan")).isEqualTo("2");
        assertThat(html.select("th:containsOwn(Quarter)").attr("colspan")).isEqualTo("2");
        assertThat(html.select("td:containsOwn(North)").attr("rowspan")).isEqualTo("2");
        assertThat(html.select("td:containsOwn(Totals by region)").attr("colspan")).isEqualTo("4");
        assertThat(html.select("tbody tr").stream().map(tr -> tr.select("td").size()).toList()).containsExactly(3, 4, 3, 1, 2);
        assertThat(html.select("td:containsOwn(North)")).hasSize(1);
    }

    /**
     * Links in a table's cells: each cell takes the links its text holds, in order (two cells with the same word each
     * get their own); in Markdown a {@code |} or parenthesis of an address is percent-encoded so the row stays whole,
     * in HTML the address is the href as it is.
     */
    @Test
    void aTablesCellsKeepTheirLinks() {
        List<List<Cell>> rows = List.of(List.of(new Cell("Name", 1, 1), new Cell("Source", 1, 1)),
                List.of(new Cell("Oslo", 1, 1), new Cell("City site", 1, 1)), List.of(new Cell("Bergen", 1, 1), new Cell("City site", 1, 1)));
        List<DocumentModel.Link> links = List.of(new DocumentModel.Link("site", "https://oslo.example/a|b"),
                new DocumentModel.Link("site", "https://bergen.example/(c)"));
        Element table = new Element(0, Type.TABLE, null, null, null, "", 1, new DocumentModel.Box(72, 72, 400, 200), 0, false,
                new DocumentModel.Table(2, true, rows), null, null, links);
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, List.of(table))), List.of());
        assertThat(new MarkdownWriter().write(model, Map.of())).contains("| Oslo | City [site](https://oslo.example/a%7Cb) |\n",
                "| Bergen | City [site](https://bergen.example/%28c%29) |\n");
        assertThat(tables(new MarkdownWriter().write(model, Map.of())).getFirst()).containsExactly(
                List.of("Name", "Source"), List.of("Oslo", "City site"), List.of("Bergen", "City site"));
        Document html = Jsoup.parse(new HtmlWriter("doc").write(model, Map.of()));
        assertThat(html.select("td a").stream().map(a -> a.text() + " " + a.attr("href")).toList())
                .containsExactly("site https://oslo.example/a|b", "site https://bergen.example/(c)");
    }

    /**
     * A table cut by a page break (its rows at the foot of page 1, the rest, under the header repeated, at the top of
     * page 2, the same columns at the same edges) is one table in Markdown, its header once; HTML keeps each page's
     * piece in its page's section. A table of other columns on the next page, or one further down it, stays apart.
     */
    @Test
    void aTableCutByAPageBreakIsOneTableInMarkdown() {
        List<Cell> header = List.of(new Cell("Region", 1, 1), new Cell("Units", 1, 1));
        Element foot = tableAt(1, 600, List.of(header, List.of(new Cell("North", 1, 1), new Cell("1200", 1, 1))));
        Element top = tableAt(2, 72, List.of(header, List.of(new Cell("South", 1, 1), new Cell("950", 1, 1))));
        String md = new MarkdownWriter().write(twoPages(foot, top), Map.of());
        assertThat(tables(md)).as(md).containsExactly(List.of(List.of("Region", "Units"), List.of("North", "1200"), List.of("South", "950")));
        assertThat(Jsoup.parse(new HtmlWriter("doc").write(twoPages(foot, top), Map.of())).select("table")).hasSize(2);

        Element lower = tableAt(2, 400, List.of(header, List.of(new Cell("South", 1, 1), new Cell("950", 1, 1))));
        assertThat(tables(new MarkdownWriter().write(twoPages(foot, lower), Map.of()))).hasSize(2);
        Element three = new Element(1, Type.TABLE, null, null, null, "", 2, new DocumentModel.Box(72, 72, 400, 100), 0, false,
                new DocumentModel.Table(3, true, List.of(List.of(new Cell("A", 1, 1), new Cell("B", 1, 1), new Cell("C", 1, 1)))), null, null, null);
        assertThat(tables(new MarkdownWriter().write(twoPages(foot, three), Map.of()))).hasSize(2);
    }

    private static Element tableAt(int page, float y, List<List<Cell>> rows) {
        return new Element(page - 1, Type.TABLE, null, null, null, "", page, new DocumentModel.Box(72, y, 400, 100), 0, false,
                new DocumentModel.Table(2, true, rows), null, null, null);
    }

    private static DocumentModel twoPages(Element first, Element second) {
        return new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, List.of(first)),
                new DocumentModel.Page(2, 612, 792, false, List.of(second))), List.of());
    }

    /** The Markdown's tables as commonmark-java reads them, each its rows of cells. */
    private static List<List<List<String>>> tables(String md) {
        Node doc = Parser.builder().extensions(List.of(TablesExtension.create())).build().parse(md);
        List<List<List<String>>> out = new ArrayList<>();
        for (Node n = doc.getFirstChild(); n != null; n = n.getNext()) {
            if (!(n instanceof TableBlock t)) continue;
            List<List<String>> rows = new ArrayList<>();
            collect(t, rows);
            out.add(rows);
        }
        return out;
    }

    /** Each row's cells' text, in order. */
    private static void collect(Node node, List<List<String>> rows) {
        for (Node n = node.getFirstChild(); n != null; n = n.getNext()) {
            if (n instanceof TableRow row) {
                List<String> cells = new ArrayList<>();
                for (Node c = row.getFirstChild(); c != null; c = c.getNext()) if (c instanceof TableCell cell) cells.add(text(cell));
                rows.add(cells);
            } else {
                collect(n, rows);
            }
        }
    }

    private static String text(Node node) {
        StringBuilder sb = new StringBuilder();
        for (Node n = node.getFirstChild(); n != null; n = n.getNext()) sb.append(n instanceof Text t ? t.getLiteral() : text(n));
        return sb.toString();
    }
}
