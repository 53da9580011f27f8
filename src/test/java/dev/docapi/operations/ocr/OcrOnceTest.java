package dev.docapi.operations.ocr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.accounts.Plan;
import dev.docapi.files.BlobStore;
import dev.docapi.files.FileService;
import dev.docapi.files.KeptOcr;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import dev.docapi.support.ScanPdfs;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFTextParagraph;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * One OCR per file (issue 12 item 4): the OCR of a scan is kept with the file and reused by later operations and by
 * re-uploads of the same bytes in the same account, never by another account; it goes with the file. Observed
 * through the {@code kept_ocr} rows (their {@code runs} count the OCRmyPDF runs) and the blobs they name.
 */
// The PostgreSQL pass (@Tag("database")) runs the claim and the concurrent jobs sharing one OCR; the other two tests
// run the same SQL with two OCR runs each (issue 41).
@Heavy
class OcrOnceTest extends ApiTestBase {
    private static final String SCAN = "pdf-scanned/english-skewed-brochure.pdf";
    @Autowired JdbcClient db;
    @Autowired BlobStore blobs;
    @Autowired FileService files;
    @Autowired KeptOcr keptOcr;

    record Kept(int runs, String pdfBlob, String textBlob) {
    }

    @Test
    void aScanIsOcrdOnceForAllItsOperationsAndReuploadsButAfreshForAnotherAccount() throws Exception {
        String keyA = newKey();
        String fileA = uploadId(keyA, corpus(SCAN));
        String accountA = accountOf(fileA);
        String text = extractText(keyA, fileA);
        assertThat(text).contains("LinnSequencer").contains("MIDI");
        Kept keptA = kept(accountA).getFirst();
        assertThat(kept(accountA)).containsExactly(new Kept(1, keptA.pdfBlob(), keptA.textBlob()));
        assertThat(blobs.local(keptA.pdfBlob())).exists();
        assertThat(blobs.local(keptA.textBlob())).exists();

        // docx, pptx and ocr take the kept OCR: no second run, and the same words.
        JsonNode docx = run(keyA, "convert", Map.of("file", fileA, "to", "docx", "wait", 300));
        try (InputStream in = Files.newInputStream(downloadOutput(docx, 0)); XWPFDocument doc = new XWPFDocument(in)) {
            String words = doc.getParagraphs().stream().map(XWPFParagraph::getText).collect(Collectors.joining(" "));
            assertThat(words).contains("LinnSequencer").contains("MIDI");
        }
        JsonNode pptx = run(keyA, "convert", Map.of("file", fileA, "to", "pptx", "wait", 300));
        try (InputStream in = Files.newInputStream(downloadOutput(pptx, 0)); XMLSlideShow show = new XMLSlideShow(in)) {
            String notes = show.getSlides().getFirst().getNotes().getTextParagraphs().stream()
                    .flatMap(List::stream).map(XSLFTextParagraph::getText).collect(Collectors.joining(" "));
            assertThat(notes).contains("LinnSequencer").contains("MIDI");
        }
        JsonNode ocr = run(keyA, "ocr", Map.of("file", fileA, "wait", 300));
        Path ocrd = downloadOutput(ocr, 0);
        assertThat(Independent.qpdfCheck(ocrd).exit()).isIn(0, 3);
        assertThat(Independent.pdftotext(ocrd)).contains("LinnSequencer").contains("MIDI");
        assertThat(Files.mismatch(ocrd, blobs.local(keptA.pdfBlob()))).isEqualTo(-1L);
        assertThat(ocr.at("/output/note").asString()).contains("OCR'd 1 of 1 page");
        // the document model (issue 36) was built once, by extract-text, and kept: docx and pptx read it back
        List<Kept> models = db.sql("SELECT runs, pdf_blob, text_blob FROM kept_ocr WHERE account_id = ? AND variant LIKE 'document-model/%'")
                .param(accountA).query((rs, n) -> new Kept(rs.getInt(1), rs.getString(2), rs.getString(3))).list();
        assertThat(models).singleElement().satisfies(m -> {
            assertThat(m.runs()).isEqualTo(1);
            assertThat(Files.readString(blobs.local(m.textBlob()))).contains("LinnSequencer").contains("\"type\":\"list_item\"");
        });

        // The same bytes uploaded again by the same account.
        String againA = uploadId(keyA, corpus(SCAN));
        assertThat(extractText(keyA, againA)).isEqualTo(text);
        assertThat(kept(accountA)).containsExactly(keptA);

        // Another account with the same bytes gets its own OCR, which reads the same words as the kept one (the order
        // of this page's text blocks varies from one Tesseract run to the next, as two raw OCRmyPDF runs show).
        String keyB = newKey();
        String fileB = uploadId(keyB, corpus(SCAN));
        String accountB = accountOf(fileB);
        assertThat(words(extractText(keyB, fileB))).isEqualTo(words(text));
        Kept keptB = kept(accountB).getFirst();
        assertThat(keptB.runs()).isEqualTo(1);
        assertThat(List.of(keptB.pdfBlob(), keptB.textBlob())).doesNotContainAnyElementsOf(List.of(keptA.pdfBlob(), keptA.textBlob()));
        assertThat(kept(accountA)).containsExactly(keptA);

        // Deleting the file deletes the OCR kept of its bytes; the other account's stays.
        assertThat(delete(keyA, "/files/" + fileA).status()).isEqualTo(200);
        assertThat(kept(accountA)).isEmpty();
        assertThat(blobs.local(models.getFirst().textBlob())).doesNotExist();
        assertThat(blobs.local(keptA.pdfBlob())).doesNotExist();
        assertThat(blobs.local(keptA.textBlob())).doesNotExist();
        assertThat(db.sql("SELECT COUNT(*) FROM kept_ocr_files WHERE account_id = ?").param(accountA).query(Integer.class).single()).isZero();
        assertThat(blobs.local(keptB.pdfBlob())).exists();
    }

    @Test
    void extractTextWithOcrAlwaysKeepsTheScansOcrForTheNextOperation() throws Exception {
        String key = newKey();
        String file = uploadId(key, corpus(SCAN));
        String account = accountOf(file);
        String text = run(key, "extract-text", Map.of("file", file, "ocr", "always", "wait", 300)).at("/output/text").asString();
        assertThat(text).contains("LinnSequencer");
        assertThat(kept(account)).as("'always' on a page without a text layer reads the kept OCR").hasSize(1);
        JsonNode docx = run(key, "convert", Map.of("file", file, "to", "docx", "wait", 300));
        try (InputStream in = Files.newInputStream(downloadOutput(docx, 0)); XWPFDocument doc = new XWPFDocument(in)) {
            assertThat(doc.getParagraphs().stream().map(XWPFParagraph::getText).collect(Collectors.joining(" "))).contains("LinnSequencer");
        }
        assertThat(kept(account).getFirst().runs()).as("docx after extract-text ocr: always OCRs nothing again").isEqualTo(1);
    }

    @Test
    @Tag("database")
    void operationsRunningTogetherShareOneOcrThatExpiresWithTheFile() throws Exception {
        String key = newKey();
        // a small clean scan: the claim is under test, not the OCR (the brochure took this test to 2 minutes on a
        // loaded machine, the longest test of the PostgreSQL pass; issue 41)
        Path scan = Files.createTempDirectory("ocr-together").resolve("phototest.pdf");
        ScanPdfs.imageOnlyPdf(List.of(ImageIO.read(corpus("images/phototest.tif").toFile())), scan);
        String file = uploadId(key, scan);
        String account = accountOf(file);
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> extractText(key, file));
        CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> extractText(key, file));
        JsonNode docx = run(key, "convert", Map.of("file", file, "to", "docx", "wait", 300));
        assertThat(docx.get("status").asString()).isEqualTo("succeeded");
        assertThat(first.get()).isEqualTo(second.get()).contains("quick brown dog");
        Kept kept = kept(account).getFirst();
        assertThat(kept.runs()).isEqualTo(1);

        db.sql("UPDATE files SET expires_at = 1 WHERE id = ?").param(file).update();
        db.sql("UPDATE kept_ocr SET expires_at = 1 WHERE account_id = ?").param(account).update();
        files.purgeExpired();
        assertThat(kept(account)).isEmpty();
        assertThat(blobs.local(kept.pdfBlob())).doesNotExist();
        assertThat(blobs.local(kept.textBlob())).doesNotExist();
    }

    @Test
    @Tag("database")
    void aClaimGoesToOneJobAndIsTakenOverOnlyOnceStaleOrReleased() {
        String account = accounts.createAccount("test-" + java.util.UUID.randomUUID() + "@example.com", Plan.FREE).account().id();
        KeptOcr.Key key = new KeptOcr.Key(account, "0".repeat(64), "test");
        Instant later = Instant.now().plusSeconds(3600);
        assertThat(keptOcr.claim(key, Optional.empty(), later, later)).isTrue();
        assertThat(keptOcr.claim(key, Optional.empty(), later, later)).isFalse();
        KeptOcr.Entry running = keptOcr.find(key).orElseThrow();
        assertThat(running.done()).isFalse();
        // A claim is taken over by one job only, and only with the entry it found stale.
        db.sql("UPDATE kept_ocr SET stale_at = 1 WHERE account_id = ?").param(account).update();
        Optional<KeptOcr.Entry> stale = keptOcr.find(key);
        assertThat(keptOcr.claim(key, Optional.of(running), later, later)).isFalse();
        assertThat(keptOcr.claim(key, stale, later, later)).isTrue();
        assertThat(keptOcr.claim(key, stale, later, later)).isFalse();
        assertThat(keptOcr.find(key).orElseThrow().runs()).isEqualTo(2);
        keptOcr.release(key);
        assertThat(keptOcr.find(key)).isEmpty();
        assertThat(keptOcr.claim(key, Optional.empty(), later, later)).isTrue();
        keptOcr.release(key);
    }

    private String extractText(String key, String file) {
        return run(key, "extract-text", Map.of("file", file, "wait", 300)).at("/output/text").asString();
    }

    private static List<String> words(String text) {
        return java.util.Arrays.stream(text.split("\\s+")).filter(w -> !w.isEmpty()).sorted().toList();
    }

    private String accountOf(String file) {
        return db.sql("SELECT account_id FROM files WHERE id = ?").param(file).query(String.class).single();
    }

    /** The account's kept OCRs (not its kept document models, which share the table under their own variant). */
    private List<Kept> kept(String account) {
        return db.sql("SELECT runs, pdf_blob, text_blob FROM kept_ocr WHERE account_id = ? AND variant NOT LIKE 'document-model/%'").param(account)
                .query((rs, n) -> new Kept(rs.getInt(1), rs.getString(2), rs.getString(3))).list();
    }
}
