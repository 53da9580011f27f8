package dev.docapi.operations.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CompareTest extends ApiTestBase {
    private static final Pattern COUNTS = Pattern.compile("(\\d+) words? deleted \\(red\\), (\\d+) words? inserted");

    @Test
    void aRemovedPageIsReportedAsDeletedWordsOnly() throws Exception {
        String key = newKey();
        Path paper = corpus("pdf-text/two-column-paper-2p.pdf");
        Path firstPageOnly = Files.createTempDirectory(DATA_DIR, "cmp-").resolve("paper-page-1.pdf");
        Independent.Run cut = Independent.run("qpdf", paper.toString(), "--pages", paper.toString(), "1", "--", firstPageOnly.toString());
        assertThat(cut.exit()).isIn(0, 3);

        JsonNode job = run(key, "compare", Map.of("files", List.of(uploadId(key, paper), uploadId(key, firstPageOnly))));

        String note = job.at("/output/note").asString();
        Matcher m = COUNTS.matcher(note);
        assertThat(m.find()).as(note).isTrue();
        int deleted = Integer.parseInt(m.group(1));
        int inserted = Integer.parseInt(m.group(2));
        // page 2 of the paper is a full column-pair of text: hundreds of words, none inserted
        int page2Words = Independent.pdftotext(paper, 2, 2).split("\\s+").length;
        assertThat(deleted).isGreaterThan(page2Words / 2).isLessThan(page2Words * 2);
        assertThat(inserted).isZero();
        assertThat(note).contains("1 of 2 pages changed (page 2)");

        Path out = downloadOutput(job, 0);
        assertThat(out.getFileName().toString()).isEqualTo("two-column-paper-2p-compared.pdf");
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(1 + 2);
        }
        String summary = Independent.pdftotext(out, 1, 1);
        assertThat(summary).contains("Words deleted: " + deleted).contains("Words inserted: 0").contains("Pages changed: 1 of 2");
        // the pages keep their text (imported as forms, not rasterised): the paper's title is on the side-by-side page
        assertThat(Independent.pdftotext(out, 2, 2)).contains("Dense Passage Retrieval");
    }

    @Test
    void twoDifferentDocumentsHaveInsertionsAndDeletions() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "compare", Map.of("files", List.of(
                uploadId(key, corpus("pdf-text/google-docs-pdf14.pdf")),
                uploadId(key, corpus("pdf-text/form-filled-by-acrobat-3p.pdf")))));
        Matcher m = COUNTS.matcher(job.at("/output/note").asString());
        assertThat(m.find()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).isPositive();
        assertThat(Integer.parseInt(m.group(2))).isPositive();
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            // google-docs has 1 page, the form 3: one side-by-side page per page index
            assertThat(doc.getNumberOfPages()).isEqualTo(1 + Math.max(pages("pdf-text/google-docs-pdf14.pdf"), pages("pdf-text/form-filled-by-acrobat-3p.pdf")));
        }
    }

    @Test
    void identicalDocumentsHaveNoDifferences() throws Exception {
        String key = newKey();
        Path pdf = corpus("pdf-text/google-docs-pdf14.pdf");
        JsonNode job = run(key, "compare", Map.of("files", List.of(uploadId(key, pdf), uploadId(key, pdf))));
        String note = job.at("/output/note").asString();
        assertThat(note).startsWith("No differences").contains("0 words deleted, 0 inserted");
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        assertThat(Independent.pdftotext(out, 1, 1)).contains("No differences in the text.");
    }

    @Test
    void oneFileIsRefusedBeforeAnyJob() {
        String key = newKey();
        Response r = post(key, "/compare", Map.of("files", List.of(uploadId(key, corpus("pdf-text/google-docs-pdf14.pdf")))));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    private static int pages(String corpusPath) throws Exception {
        try (PDDocument doc = Independent.pdfbox(corpus(corpusPath))) {
            return doc.getNumberOfPages();
        }
    }
}
