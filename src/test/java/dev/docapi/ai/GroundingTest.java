package dev.docapi.ai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class GroundingTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> PAGES = List.of(
            "INVOICE No. 2024-117\nDate: March 5, 2024\nBill to: Jane\u00a0Doe\n",
            "Total due: 1,234.50 EUR\nPaid: “yes”\nItems: bolts, nuts");

    private static ObjectNode data(String json) {
        return (ObjectNode) JSON.readTree(json);
    }

    @Test
    void valuesBackedByAQuoteInTheDocumentStay() {
        ObjectNode d = data("{\"number\":\"2024-117\",\"date\":\"2024-03-05\",\"name\":\"Jane Doe\",\"total\":1234.5,\"items\":[\"bolts\",\"nuts\"]}");
        List<String> removed = new Grounding(PAGES).check(d, List.of(
                new Grounding.Source("number", "INVOICE No. 2024-117", 1),
                new Grounding.Source("date", "Date: March 5, 2024", 1),
                new Grounding.Source("name", "Bill to: Jane Doe", 1),
                new Grounding.Source("total", "Total due: 1,234.50 EUR", 2),
                new Grounding.Source("items", "Items: bolts, nuts", 2)));
        assertThat(removed).isEmpty();
        assertThat(d.get("total").asDouble()).isEqualTo(1234.5);
    }

    @Test
    void quotesAcrossLineBreaksAndTypographicMarksAreFound() {
        ObjectNode d = data("{\"name\":\"Jane Doe\",\"paid\":\"yes\"}");
        List<String> removed = new Grounding(PAGES).check(d, List.of(
                new Grounding.Source("name", "2024 Bill to: Jane Doe", 1),
                new Grounding.Source("paid", "Paid: \"yes\"", 2)));
        assertThat(removed).isEmpty();
    }

    @Test
    void inventedQuotesWrongValuesAndMissingSourcesBecomeNull() {
        ObjectNode d = data("{\"customer\":\"ACME\",\"total\":1234.0,\"date\":\"2024-05-03\",\"vat\":\"19%\",\"items\":[\"bolts\",\"washers\"]}");
        List<String> removed = new Grounding(PAGES).check(d, List.of(
                new Grounding.Source("customer", "Customer: ACME", 1),
                new Grounding.Source("total", "Total due: 1,234.50 EUR", 2),
                new Grounding.Source("date", "Date: March 5, 2024", 1),
                new Grounding.Source("items[0]", "bolts", 2),
                new Grounding.Source("items[1]", "washers", 2)));
        assertThat(removed).containsExactly("customer", "total", "date", "vat", "items[1]");
        assertThat(d.get("customer").isNull()).isTrue();
        assertThat(d.get("vat").isNull()).isTrue();
        assertThat(d.get("items")).hasSize(1);
    }

    @Test
    void fieldTypesAreReadFromText() {
        assertThat(Conform.field(JSON.readTree("\"1.234,50\""), "number").asDouble()).isEqualTo(1234.5);
        assertThat(Conform.field(JSON.readTree("\"1,234.50 EUR\""), "number").asDouble()).isEqualTo(1234.5);
        assertThat(Conform.field(JSON.readTree("\"3,5\""), "number").asDouble()).isEqualTo(3.5);
        assertThat(Conform.field(JSON.readTree("\"1 or 2\""), "number")).isNull();
        assertThat(Conform.field(JSON.readTree("\"12\""), "integer").asInt()).isEqualTo(12);
        assertThat(Conform.field(JSON.readTree("12.5"), "integer")).isNull();
        assertThat(Conform.field(JSON.readTree("\"2024-02-30\""), "date")).isNull();
        assertThat(Conform.field(JSON.readTree("\"yes\""), "boolean").asBoolean()).isTrue();
        assertThat(Conform.field(JSON.readTree("\"a\""), "list").size()).isEqualTo(1);
    }
}
