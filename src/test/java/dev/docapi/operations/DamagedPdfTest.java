package dev.docapi.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import dev.docapi.support.Words;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A PDF cut short to 60 % of its bytes (made here from a corpus file): qpdf and poppler cannot open it, PDFBox reads
 * its first pages. Every PDF operation succeeds on it through the repair chain (issue 16), each output opens in qpdf
 * and PDFBox (or is the ZIP or text it should be), no message shows a server path, and compress never answers with
 * fewer pages or words than PDFBox reads in the damaged input.
 */
class DamagedPdfTest extends ApiTestBase {

    /** One request: a label, the operation, its body, and the pages its PDF output should have (-1: a ZIP or text). */
    private record Call(String label, String operation, Map<String, Object> body, int pages) {
    }

    @Test
    void everyPdfOperationSucceedsOnATruncatedCopy() throws Exception {
        Path source = corpus("pdf-text/two-column-paper-2p.pdf");
        byte[] all = Files.readAllBytes(source);
        Path cut = Files.createTempDirectory(DATA_DIR, "cut-").resolve("cut-short.pdf");
        Files.write(cut, Arrays.copyOf(all, all.length * 6 / 10));
        assertThat(Independent.run("qpdf", "--show-npages", cut.toString()).exit()).as("qpdf cannot open it").isEqualTo(2);

        String key = newKey();
        JsonNode file = upload(key, cut);
        int pages = file.get("pages").asInt();
        assertThat(pages).as("PDFBox reads pages of it (remove-pages needs two)").isGreaterThanOrEqualTo(2);
        String id = file.get("id").asString();
        List<Call> calls = List.of(
                new Call("rotate", "rotate", Map.of("file", id, "angle", 90), pages),
                new Call("split", "split", Map.of("file", id, "every", 1), -1),
                new Call("organize", "organize", Map.of("file", id, "pages", List.of(1)), 1),
                new Call("remove-pages", "remove-pages", Map.of("file", id, "pages", List.of(1)), pages - 1),
                new Call("protect", "protect", Map.of("file", id, "password", "pw"), pages),
                new Call("unlock", "unlock", Map.of("file", id), pages),
                new Call("merge", "merge", Map.of("files", List.of(id, id)), 2 * pages),
                new Call("page-numbers", "page-numbers", Map.of("file", id), pages),
                new Call("watermark", "watermark", Map.of("file", id, "text", "DRAFT"), pages),
                new Call("compress level", "compress", Map.of("file", id, "level", "ebook"), pages),
                new Call("compress target", "compress", Map.of("file", id, "target_mb", 0.05), pages),
                new Call("ocr", "ocr", Map.of("file", id), pages),
                new Call("compare", "compare", Map.of("files", List.of(id, id)), -1),
                new Call("extract-text", "extract-text", Map.of("file", id, "ocr", "never"), -1),
                new Call("extract-text auto", "extract-text", Map.of("file", id, "ocr", "auto"), -1),
                new Call("convert jpg", "convert", Map.of("file", id, "to", "jpg"), -1),
                new Call("convert docx", "convert", Map.of("file", id, "to", "docx"), -1),
                new Call("convert xlsx", "convert", Map.of("file", id, "to", "xlsx"), -1),
                new Call("convert pptx", "convert", Map.of("file", id, "to", "pptx"), -1));
        List<String> readable = words(cut);
        assertThat(readable).as("PDFBox reads text in the damaged input").hasSizeGreaterThan(100);
        for (Call c : calls) {
            Map<String, Object> body = new java.util.HashMap<>(c.body());
            body.put("wait", 300);
            Response r = post(key, "/" + c.operation(), body);
            assertThat(r.status()).as(c.label() + ": " + r).isEqualTo(200);
            assertThat(r.body().toString()).doesNotContain(DATA_DIR.toString());
            Path out = downloadOutput(r.body(), 0);
            assertThat(Files.size(out)).as(c.label()).isPositive();
            if (c.label().startsWith("extract-text")) {
                assertThat(r.body().at("/output/text").asString()).as(c.label()).contains("Abstract");
            }
            if (c.pages() < 0) {
                if (c.label().startsWith("convert") || c.label().equals("split")) {
                    assertThat(Files.readAllBytes(out)).as(c.label() + " is a ZIP").startsWith('P', 'K');
                }
                continue;
            }
            String[] password = c.operation().equals("protect") ? new String[]{"pw"} : new String[0];
            assertThat(Independent.qpdfCheck(out, password).exit()).as(c.label()).isIn(0, 3);
            try (var doc = Independent.pdfbox(out, password)) {
                assertThat(doc.getNumberOfPages()).as(c.label()).isEqualTo(c.pages());
            }
            if (c.operation().equals("compress")) {
                assertThat(Words.share(readable, words(out))).as(c.label() + " keeps the words that could be read").isGreaterThanOrEqualTo(0.99);
            }
        }
    }

    /** The words PDFBox reads in a PDF (it opens the damaged input, poppler does not). */
    private static List<String> words(Path pdf) throws Exception {
        try (var doc = org.apache.pdfbox.Loader.loadPDF(pdf.toFile())) {
            String text = new org.apache.pdfbox.text.PDFTextStripper().getText(doc);
            return Arrays.stream(text.split("\\s+")).filter(w -> !w.isEmpty()).toList();
        }
    }
}
