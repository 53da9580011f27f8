package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** A node without LibreOffice or Chromium answers 503 {@code service_unavailable} at validation, before any job. */
@TestPropertySource(properties = {"docapi.chromium.binary=/nonexistent/chromium", "docapi.office.office-home=/nonexistent/libreoffice"})
class ConvertMissingEngineTest extends ApiTestBase {

    @Test
    void conversionsWhoseEngineIsMissingAnswer503BeforeAnyJob() {
        String key = newKey();
        for (String f : new String[] {"office/fake.docx", "html-md-txt/fake-html.html", "html-md-txt/simple-table.md", "html-md-txt/norwich-city.txt"}) {
            Response r = post(key, "/convert", Map.of("file", uploadId(key, corpus(f)), "to", "pdf"));
            assertThat(r.status()).as(f).isEqualTo(503);
            assertThat(r.code()).as(f).isEqualTo("service_unavailable");
        }
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
        // an image needs no external engine and still converts
        assertThat(run(key, "convert", Map.of("file", uploadId(key, corpus("images/DA-1p.png")), "to", "pdf"))
                .at("/output/files/0/name").asString()).isEqualTo("DA-1p.pdf");
    }
}
