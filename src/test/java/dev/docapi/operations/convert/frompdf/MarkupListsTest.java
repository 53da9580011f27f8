package dev.docapi.operations.convert.frompdf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.commonmark.node.BulletList;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.parser.Parser;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * Lists in Markdown and HTML keep each item's own kind and number, nested as the model nests them (issue 36): a
 * questionnaire's bulleted answers, then question "24." with its answers nested under it, then a bullet. Read back by
 * independent parsers: commonmark-java and jsoup.
 */
class MarkupListsTest {

    private static Element item(int index, int level, String marker, String text) {
        return new Element(index, Type.LIST_ITEM, level, 1, marker, text, 1, new DocumentModel.Box(72, 72 + 14 * index, 300, 12),
                11, false, null, null, null, null);
    }

    private static DocumentModel model() {
        List<Element> elements = List.of(item(0, 1, "•", "Not applicable"), item(1, 1, "24.", "Do the staff lawyers coordinate?"),
                item(2, 2, "•", "Yes, at the national level"), item(3, 2, "•", "No"), item(4, 1, "25.", "Are there specialized units?"),
                item(5, 2, "☒", "Yes"));
        return new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, elements)), List.of());
    }

    @Test
    void markdownKeepsEachItemsNumberAndNesting() {
        String md = new MarkdownWriter().write(model(), Map.of());
        Node doc = Parser.builder().build().parse(md);
        List<String> lists = new ArrayList<>();
        collect(doc, 0, lists);
        assertThat(lists).as(md).containsExactly("0 bullet", "0 ordered 24", "1 bullet", "1 bullet");
        assertThat(md).contains("24. Do the staff lawyers coordinate?\n    - Yes, at the national level\n    - No\n25. Are there specialized units?\n    - [x] Yes\n");
    }

    @Test
    void htmlNestsEachItemsListUnderItsParent() {
        Document html = Jsoup.parse(new HtmlWriter("doc").write(model(), Map.of()));
        assertThat(html.select("section > ul > li").stream().map(org.jsoup.nodes.Element::ownText).toList()).containsExactly("Not applicable");
        assertThat(html.select("section > ol").attr("start")).isEqualTo("24");
        assertThat(html.select("section > ol > li").stream().map(org.jsoup.nodes.Element::ownText).toList()).containsExactly("Do the staff lawyers coordinate?", "Are there specialized units?");
        assertThat(html.select("section > ol > li > ul > li").eachText()).containsExactly("Yes, at the national level", "No", "Yes");
        assertThat(html.select("section > ol > li > ul > li > input[checked]")).hasSize(1);
    }

    /** Items numbered "1.1:" (a report's objectives) keep their numbers before their text: no list's own count. */
    @Test
    void itemsNumberedWithAColonKeepTheirNumbers() {
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false,
                List.of(item(0, 1, "1.1:", "Establish cybersecurity requirements"), item(1, 1, "1.2:", "Scale public-private collaboration")))), List.of());
        assertThat(new MarkdownWriter().write(model, Map.of()).strip()).isEqualTo("- 1.1: Establish cybersecurity requirements\n- 1.2: Scale public-private collaboration");
    }

    /** A list that goes on over a page break is one list in Markdown, its nesting kept (issue 36). */
    @Test
    void aListOverAPageBreakStaysOneListInMarkdown() {
        List<Element> first = List.of(item(0, 1, "•", "List item 1"), item(1, 2, "•", "List item 1.1"));
        List<Element> second = List.of(new Element(2, Type.PAGE_HEADER, null, null, null, "Report", 2, new DocumentModel.Box(72, 20, 100, 10),
                9, false, null, null, null, null), new Element(3, Type.LIST_ITEM, 3, 1, "•", "List item 1.1.1", 2, new DocumentModel.Box(144, 72, 200, 12),
                11, false, null, null, null, null), new Element(4, Type.LIST_ITEM, 1, 1, "•", "List item 3", 2, new DocumentModel.Box(72, 90, 200, 12),
                11, false, null, null, null, null));
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, first),
                new DocumentModel.Page(2, 612, 792, false, second)), List.of());
        String md = new MarkdownWriter().write(model, Map.of());
        assertThat(md.strip()).isEqualTo("- List item 1\n  - List item 1.1\n    - List item 1.1.1\n- List item 3");
        List<String> lists = new ArrayList<>();
        collect(Parser.builder().build().parse(md), 0, lists);
        assertThat(lists).containsExactly("0 bullet", "1 bullet", "2 bullet");
    }

    /** Each list as "depth kind [start]", depth counted in lists around it, in document order. */
    private static void collect(Node node, int depth, List<String> out) {
        for (Node n = node.getFirstChild(); n != null; n = n.getNext()) {
            int d = depth;
            if (n instanceof BulletList) out.add(depth + " bullet");
            if (n instanceof OrderedList o) out.add(depth + " ordered " + o.getMarkerStartNumber());
            if (n instanceof BulletList || n instanceof OrderedList) d++;
            collect(n, n instanceof ListItem ? depth : d, out);
        }
    }

    /** Items numbered "①", "②" (a Korean report's numbers set in a circle) keep their numbers before their text, as printed. */
    @Test
    void itemsNumberedInCirclesKeepTheirNumbers() {
        List<Element> elements = List.of(item(0, 1, "①", "디지털 분야 훈련 과정 확대"), item(1, 1, "②", "기업 맞춤형 현장 실습 운영"));
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, elements)), List.of());
        assertThat(new MarkdownWriter().write(model, Map.of())).contains("- ① 디지털 분야 훈련 과정 확대\n- ② 기업 맞춤형 현장 실습 운영");
        Document html = Jsoup.parse(new HtmlWriter("doc").write(model, Map.of()));
        assertThat(html.select("section > ul > li").eachText()).containsExactly("① 디지털 분야 훈련 과정 확대", "② 기업 맞춤형 현장 실습 운영");
    }

    /**
     * Items lettered or numbered in roman ("a.", "(ii)", "가.") keep their markers before their text: Markdown's lists
     * count only in figures, and a contract's clauses are cited by their letters.
     */
    @Test
    void itemsLetteredKeepTheirLetters() {
        List<Element> elements = List.of(item(0, 1, "a.", "\"Software\" means the programs supplied"), item(1, 2, "(ii)", "sell or rent the software"),
                item(2, 1, "가.", "주민센터에 자격 확인 신청"), item(3, 1, "3.", "Fees"));
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, elements)), List.of());
        assertThat(new MarkdownWriter().write(model, Map.of())).contains("- a. \"Software\" means the programs supplied\n")
                .contains("- (ii) sell or rent the software\n").contains("- 가. 주민센터에 자격 확인 신청").doesNotContain("3. 3.");
        Document html = Jsoup.parse(new HtmlWriter("doc").write(model, Map.of()));
        assertThat(html.select("li").stream().map(org.jsoup.nodes.Element::ownText).toList())
                .contains("a. \"Software\" means the programs supplied", "(ii) sell or rent the software");
    }

    /**
     * A paragraph cut by a page break mid-sentence is one paragraph in Markdown (pages are no containers there); in
     * HTML each page's section keeps its part. A paragraph on the next page that starts in upper case is its own.
     */
    @Test
    void aParagraphCutByAPageBreakIsOneParagraphInMarkdown() {
        Element end = new Element(0, Type.PARAGRAPH, null, null, null, "The operators hope that governments will cut\ntrack charges", 1,
                new DocumentModel.Box(72, 700, 450, 26), 10, false, null, null, null, null);
        Element rest = new Element(1, Type.PARAGRAPH, null, null, null, "for night trains, which pay more than freight.", 2,
                new DocumentModel.Box(72, 72, 300, 12), 10, false, null, null, null, null);
        Element next = new Element(2, Type.PARAGRAPH, null, null, null, "Whether the revival lasts is open.", 2,
                new DocumentModel.Box(72, 92, 200, 12), 10, false, null, null, null, null);
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, List.of(end)),
                new DocumentModel.Page(2, 612, 792, false, List.of(rest, next))), List.of());
        assertThat(new MarkdownWriter().write(model, Map.of())).contains(
                "The operators hope that governments will cut track charges for night trains, which pay more than freight.\n\nWhether the revival");
        Document html = Jsoup.parse(new HtmlWriter("doc").write(model, Map.of()));
        assertThat(html.select("p").eachText()).containsExactly("The operators hope that governments will cut track charges",
                "for night trains, which pay more than freight.", "Whether the revival lasts is open.");
    }
}
