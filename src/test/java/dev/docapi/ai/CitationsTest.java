package dev.docapi.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.document.DocumentModel.Box;
import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Type;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class CitationsTest {
    private static Element paragraph(int index, int page, String text, float y) {
        return new Element(index, Type.PARAGRAPH, null, null, null, text, page, new Box(72, y, 200, 20), 10, false, null, null, null, null);
    }

    private final Citations citations = new Citations(List.of(
            paragraph(0, 1, "Invoice 2024-117", 72),
            paragraph(1, 1, "Total due:", 100),
            paragraph(2, 1, "1,240.00 EUR", 120),
            paragraph(3, 2, "Total due: see page 1", 72)));

    @Test
    void aCitedIdWhoseElementHoldsTheWordsIsThatElement() {
        ObjectNode s = citations.source("e2", "1,240.00", "1240", 1, 2);
        assertThat(s.path("element").asString()).isEqualTo("e2");
        assertThat(s.path("box").path("y").asDouble()).isEqualTo(120);
        assertThat(s.path("text").asString()).isEqualTo("1,240.00 EUR");
    }

    @Test
    void aWrongIdIsCorrectedByTheWordsAndTheCitedPageIsPreferred() {
        assertThat(citations.source("[e0]", "Total due", null, 2, 2).path("element").asString()).isEqualTo("e3");
        assertThat(citations.source("e42", "Total due", null, null, 2).path("element").asString()).isEqualTo("e1");
    }

    @Test
    void aQuoteOverALabelAndItsValueGetsBothBoxes() {
        ObjectNode s = citations.source(null, "Total due: 1,240.00", null, 1, 2);
        assertThat(s.path("element").asString()).isEqualTo("e1");
        assertThat(s.path("box").path("y").asDouble()).isEqualTo(100);
        assertThat(s.path("box").path("height").asDouble()).isEqualTo(40);
        assertThat(s.path("text").asString()).isEqualTo("Total due:\n1,240.00 EUR");
    }

    @Test
    void wordsNoElementHoldsGetNoBox() {
        ObjectNode s = citations.source("e1", "Paid in full", "Paid", 2, 2);
        assertThat(s.has("box")).isFalse();
        assertThat(s.has("element")).isFalse();
        assertThat(s.path("page").asInt()).isEqualTo(2);
        assertThat(s.path("quote").asString()).isEqualTo("Paid in full");
        assertThat(citations.source(null, "Paid in full", null, 7, 2).has("page")).as("a page the document lacks").isFalse();
        assertThat(new Citations(List.of()).source("e1", "Total due", null, 1, 1).has("box")).as("no model (an image)").isFalse();
    }

    @Test
    void theValueLocatesASourceWhoseQuoteIsNotFoundWhenOneElementHoldsIt() {
        assertThat(citations.source(null, "Invoice number 2024/117", "2024-117", null, 2).path("element").asString()).isEqualTo("e0");
        assertThat(citations.source(null, "Amount: 1", "1", 1, 2).has("box")).as("'1' is in several elements").isFalse();
        assertThat(citations.source(null, "Total on page 2", "see page", 1, 2).path("element").asString()).as("not on the page named").isEqualTo("e3");
        assertThat(Citations.withoutIds("[e12] Total: [e13] 5")).isEqualTo("Total: 5");
    }
}
