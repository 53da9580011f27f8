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
                11, false, null, null, null);
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
}
