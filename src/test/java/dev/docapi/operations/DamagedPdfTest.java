package dev.docapi.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A PDF cut short to 60 % of its bytes (made here from a corpus file): qpdf cannot open it, PDFBox reads its first
 * pages. Every PDF operation succeeds on it through the repair chain (issue 16), the output opens in qpdf and PDFBox,
 * no message shows a server path, and compress never answers with fewer pages than could be read.
 */
class DamagedPdfTest extends ApiTestBase {

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
        assertThat(pages).isPositive();
        String id = file.get("id").asString();
        Map<String, Map<String, Object>> requests = Map.ofEntries(
                Map.entry("rotate", Map.of("file", id, "angle", 90)),
                Map.entry("split", Map.of("file", id, "every", 1)),
                Map.entry("organize", Map.of("file", id, "pages", List.of(1))),
                Map.entry("protect", Map.of("file", id, "password", "pw")),
                Map.entry("merge", Map.of("files", List.of(id, id))),
                Map.entry("page-numbers", Map.of("file", id)),
                Map.entry("compress", Map.of("file", id, "target_mb", 0.05)),
                Map.entry("extract-text", Map.of("file", id, "ocr", "never")),
                Map.entry("convert", Map.of("file", id, "to", "jpg")));
        for (var e : requests.entrySet()) {
            Response r = post(key, "/" + e.getKey(), e.getValue());
            assertThat(r.status()).as(e.getKey() + ": " + r).isEqualTo(200);
            assertThat(r.body().toString()).doesNotContain(DATA_DIR.toString());
            if (e.getKey().equals("split") || e.getKey().equals("convert") || e.getKey().equals("extract-text")) continue;
            Path out = downloadOutput(r.body(), 0);
            String[] password = e.getKey().equals("protect") ? new String[]{"pw"} : new String[0];
            assertThat(Independent.qpdfCheck(out, password).exit()).as(e.getKey()).isIn(0, 3);
            try (var doc = Independent.pdfbox(out, password)) {
                int expected = switch (e.getKey()) {
                    case "organize" -> 1;
                    case "merge" -> 2 * pages;
                    default -> pages;
                };
                assertThat(doc.getNumberOfPages()).as(e.getKey()).isEqualTo(expected);
            }
        }
    }
}
