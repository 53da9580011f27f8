package dev.docapi.operations.generate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableCell;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;
import org.junit.jupiter.api.Test;

/**
 * generate (issue 28 item 3): one invoice written as a .docx (made here with POI, its tags split across runs as Word
 * splits typed text) and as .html, filled with the same data and printed; the PDFs read back with pdftotext and
 * PDFBox, the filled .docx with POI.
 */
class GenerateTest extends ApiTestBase {
    private static final String HTML_TEMPLATE = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><style>td { padding: 2px 8px; }</style></head><body>
            <h1>Invoice for {{customer}}</h1>
            {{image logo width=120}}
            <table>
            {{#items}}<tr><td>{{name}}</td><td>{{qty}}</td><td>{{number price "0.00"}}</td></tr>{{/items}}
            </table>
            <p>Total: {{number total "#,##0.00"}}</p>
            {{^paid}}<p>Payment due by {{date due "d MMMM yyyy"}}</p>{{/paid}}
            </body></html>
            """;

    @Test
    void anInvoiceTemplateInDocxAndHtmlPrintsEveryItemTheTotalAndTheLogo() throws Exception {
        String key = newKey();
        String logo = uploadId(key, corpus("images/DA-1p.png"));
        Map<String, Object> data = invoice(3, logo);
        String docx = upload(key, docxTemplate(), "invoice.docx").get("id").asString();
        String html = upload(key, write("invoice.html", HTML_TEMPLATE), "invoice.html").get("id").asString();
        for (String template : List.of(docx, html)) {
            Path pdf = downloadOutput(run(key, "generate", Map.of("file", template, "data", data)), 0);
            assertThat(pdf.getFileName().toString()).isEqualTo("invoice.pdf");
            String text = Independent.pdftotext(pdf);
            assertThat(text).contains("Invoice for Smith & <Sons>", "Item 001", "Item 002", "Item 003", "Total: 60.00",
                    "Payment due by 5 December 2026");
            assertThat(text).doesNotContain("{{");
            try (PDDocument doc = Independent.pdfbox(pdf)) {
                long images = 0;
                for (var name : doc.getPage(0).getResources().getXObjectNames()) {
                    if (doc.getPage(0).getResources().getXObject(name) instanceof PDImageXObject) images++;
                }
                assertThat(images).as("the logo on page 1 of the " + (template.equals(docx) ? "docx" : "html") + " invoice").isEqualTo(1);
            }
        }

        // to: docx, read back with POI: the loop row repeated once per item, values escaped into valid XML
        Path filled = downloadOutput(run(key, "generate", Map.of("file", docx, "data", data, "to", "docx")), 0);
        try (InputStream in = Files.newInputStream(filled); XWPFDocument doc = new XWPFDocument(in)) {
            XWPFTable table = doc.getTables().getFirst();
            assertThat(table.getRows()).hasSize(4);
            assertThat(table.getRow(3).getTableCells().stream().map(XWPFTableCell::getText).toList())
                    .containsExactly("Item 003", "3", "10.00");
            assertThat(doc.getParagraphs().stream().map(XWPFParagraph::getText).toList())
                    .contains("Invoice for Smith & <Sons>", "Total: 60.00", "Payment due by 5 December 2026")
                    .noneMatch(p -> p.contains("{{"));
            assertThat(doc.getAllPictures()).hasSize(1);
        }

        // an .odt template (src/test/resources, LibreOffice's save of the bench's invoice) is read as LibreOffice's .docx of it
        Path odt = Path.of(getClass().getResource("/generate/invoice.odt").toURI());
        String odtId = upload(key, odt, "invoice.odt").get("id").asString();
        Path fromOdt = downloadOutput(run(key, "generate", Map.of("file", odtId, "data", data, "to", "docx")), 0);
        try (InputStream in = Files.newInputStream(fromOdt); XWPFDocument doc = new XWPFDocument(in)) {
            assertThat(doc.getTables().getFirst().getRows()).hasSize(4);
            assertThat(doc.getTables().getFirst().getRow(2).getCell(0).getText()).isEqualTo("Item 002");
            assertThat(doc.getParagraphs().stream().map(XWPFParagraph::getText).toList()).contains("Invoice for Smith & <Sons>", "Total: 60.00");
        }
    }

    @Test
    void twoHundredRowsSpanPages() throws Exception {
        String key = newKey();
        String docx = upload(key, docxTemplate(), "long.docx").get("id").asString();
        Map<String, Object> data = invoice(200, uploadId(key, corpus("images/DA-1p.png")));
        data.put("paid", true);
        Path pdf = downloadOutput(run(key, "generate", Map.of("file", docx, "data", data)), 0);
        String text = Independent.pdftotext(pdf);
        for (int i = 1; i <= 200; i++) assertThat(text).contains("Item %03d".formatted(i));
        assertThat(text).contains("Total: 201,000.00", "Paid, thank you").doesNotContain("Payment due");
        try (PDDocument doc = Independent.pdfbox(pdf)) {
            assertThat(doc.getNumberOfPages()).isGreaterThan(2);
        }
    }

    @Test
    void aMissingValueATemplateErrorAndAnotherAccountsImageAreRefusedBeforeAnyJob() throws Exception {
        String key = newKey();
        String logo = uploadId(key, corpus("images/DA-1p.png"));
        String docx = upload(key, docxTemplate(), "invoice.docx").get("id").asString();
        String html = upload(key, write("invoice.html", HTML_TEMPLATE), "invoice.html").get("id").asString();
        Map<String, Object> noCustomer = invoice(3, logo);
        noCustomer.remove("customer");

        Response r = post(key, "/generate", Map.of("file", docx, "data", noCustomer));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().at("/error/message").asString()).contains("'customer'", "paragraph 1", "Invoice for {{customer}}");
        r = post(key, "/generate", Map.of("file", html, "data", noCustomer));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().at("/error/message").asString()).contains("'customer'", "line 3");

        Map<String, Object> noPrice = invoice(3, logo);
        @SuppressWarnings("unchecked") var items = (List<Map<String, Object>>) noPrice.get("items");
        items.get(1).remove("price");
        r = post(key, "/generate", Map.of("file", html, "data", noPrice));
        assertThat(r.body().at("/error/message").asString()).contains("'price'", "line 6");

        String broken = upload(key, write("broken.html", "<p>\n{{#items}}<b>{{name}}</b>\n"), "broken.html").get("id").asString();
        r = post(key, "/generate", Map.of("file", broken, "data", invoice(1, logo)));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().at("/error/message").asString()).contains("line 3", "{{/");

        // values are looked up in the data's maps only: no method of a Java object is reachable
        String probe = upload(key, write("probe.html", "<p>{{customer.class.name}}</p>"), "probe.html").get("id").asString();
        r = post(key, "/generate", Map.of("file", probe, "data", invoice(1, logo)));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().at("/error/message").asString()).contains("no value", "line 1");

        String other = uploadId(newKey(), corpus("images/DA-1p.png"));
        r = post(key, "/generate", Map.of("file", docx, "data", invoice(3, other)));
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.code()).isEqualTo("file_not_found");
    }

    /** An invoice of {@code n} items: item i costs i × 10.00 at quantity 1 (so 3 items total 60.00). */
    private static Map<String, Object> invoice(int n, String logoFileId) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("name", "Item %03d".formatted(i));
            item.put("qty", i == 3 ? 3 : 1);
            item.put("price", i == 3 ? 10 : i * 10);
            items.add(item);
        }
        double total = items.stream().mapToDouble(m -> ((Number) m.get("qty")).doubleValue() * ((Number) m.get("price")).doubleValue()).sum();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("customer", "Smith & <Sons>");
        data.put("logo", Map.of("file", logoFileId));
        data.put("items", items);
        data.put("total", total);
        data.put("paid", false);
        data.put("due", "2026-12-05");
        return data;
    }

    /** The invoice as Word writes it: tags split across runs, the loop in a table row, block sections in paragraphs. */
    private static Path docxTemplate() throws Exception {
        try (XWPFDocument d = new XWPFDocument()) {
            XWPFParagraph title = d.createParagraph();
            title.createRun().setText("Invoice for {{cust");
            var bold = title.createRun();
            bold.setBold(true);
            bold.setText("omer}");
            title.createRun().setText("}");
            d.createParagraph().createRun().setText("{{image logo}}");
            XWPFTable table = d.createTable(2, 3);
            List<String> header = List.of("Item", "Qty", "Price");
            for (int c = 0; c < 3; c++) table.getRow(0).getCell(c).setText(header.get(c));
            XWPFTableRow row = table.getRow(1);
            XWPFParagraph first = row.getCell(0).getParagraphs().getFirst();
            first.createRun().setText("{{#it");
            first.createRun().setText("ems}}{{name}}");
            row.getCell(1).setText("{{qty}}");
            XWPFParagraph last = row.getCell(2).getParagraphs().getFirst();
            last.createRun().setText("{{number price \u201C0.00\u201D}}{{/");
            last.createRun().setText("items}}");
            for (String text : List.of("Total: {{number total \"#,##0.00\"}}", "{{^paid}}", "Payment due by {{date due \"d MMMM yyyy\"}}",
                    "{{/paid}}", "{{#paid}}Paid, thank you{{/paid}}")) {
                d.createParagraph().createRun().setText(text);
            }
            Path p = Files.createTempFile(DATA_DIR, "template-", ".docx");
            try (OutputStream out = Files.newOutputStream(p)) {
                d.write(out);
            }
            return p;
        }
    }

    private static Path write(String name, String text) throws Exception {
        Path p = Files.createTempDirectory(DATA_DIR, "template-").resolve(name);
        Files.writeString(p, text);
        return p;
    }
}
