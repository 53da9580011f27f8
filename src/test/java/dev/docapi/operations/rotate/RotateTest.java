package dev.docapi.operations.rotate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class RotateTest extends ApiTestBase {

    @Test
    void rotateAddsToExistingRotationOfListedPagesOnly() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-text/rotated-pages-20p.pdf");
        int[] before;
        try (PDDocument doc = Independent.pdfbox(input)) {
            before = new int[] {doc.getPage(0).getRotation(), doc.getPage(1).getRotation(), doc.getPage(2).getRotation()};
        }
        JsonNode job = run(key, "rotate", Map.of("file", uploadId(key, input), "angle", 90, "pages", List.of(1, 2)));

        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("rotated-pages-20p-rotated.pdf");
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(20);
            assertThat(doc.getPage(0).getRotation()).isEqualTo((before[0] + 90) % 360);
            assertThat(doc.getPage(1).getRotation()).isEqualTo((before[1] + 90) % 360);
            assertThat(doc.getPage(2).getRotation()).isEqualTo(before[2]);
        }
    }

    @Test
    void rotateWithAnEmptyOrNullPagesListRotatesEveryPageAsWhenItIsLeftOut() throws Exception {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        java.util.Map<String, Object> nullPages = new java.util.HashMap<>(Map.of("file", file, "angle", 90));
        nullPages.put("pages", null);
        for (Map<String, Object> body : List.of(Map.of("file", file, "angle", 90, "pages", List.of()), nullPages)) {
            JsonNode job = run(key, "rotate", body);
            assertThat(job.at("/input/options").has("pages")).as("stored as absent").isFalse();
            try (PDDocument doc = Independent.pdfbox(downloadOutput(job, 0))) {
                assertThat(doc.getPage(0).getRotation()).isEqualTo(180);
            }
        }
    }

    @Test
    void rotateRefusesAPageBeyondTheDocumentBeforeAnyJob() {
        String key = newKey();
        Response r = post(key, "/rotate", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "angle", 90, "pages", List.of(2)));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    @Test
    void rotateRefusesAnAngleThatIsNotAQuarterTurn() {
        String key = newKey();
        Response r = post(key, "/rotate", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "angle", 45));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
    }
}
