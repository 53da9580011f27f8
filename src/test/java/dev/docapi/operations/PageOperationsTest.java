package dev.docapi.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** The qpdf-backed page operations on real corpus documents, each output checked by independent readers. */
class PageOperationsTest extends ApiTestBase {
    private static final String BOOK = "pdf-text/geotopo-117p-linearized-links.pdf";

    @Test
    void mergeJoinsFormsAndBooksInOrder() throws Exception {
        String key = newKey();
        String form = uploadId(key, corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        String four = uploadId(key, corpus("pdf-text/pdflatex-4-pages-objstm.pdf"));
        String arabic = uploadId(key, corpus("pdf-text/arabic-habibi.pdf"));
        JsonNode job = run(key, "merge", Map.of("files", List.of(four, form, arabic)));
        Path out = downloadOutput(job, 0);
        assertThat(job.at("/output/files/0/pages").asInt()).isEqualTo(8);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(8);
        }
        String firstPages = Independent.pdftotext(out, 1, 4);
        String expected = Independent.pdftotext(corpus("pdf-text/pdflatex-4-pages-objstm.pdf"));
        assertThat(firstPages.strip()).isEqualTo(expected.strip());
        assertThat(Independent.pdftotext(out, 8, 8)).contains("habibi");
    }

    @Test
    void splitTheBookEveryPageGivesOneNamedPdfPerPage() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "split", Map.of("file", uploadId(key, corpus(BOOK))));
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("geotopo-117p-linearized-links-split.zip");
        Path zip = downloadOutput(job, 0);
        try (ZipFile z = new ZipFile(zip.toFile())) {
            List<String> names = Collections.list(z.entries()).stream().map(ZipEntry::getName).toList();
            assertThat(names).hasSize(117);
            assertThat(names.getFirst()).isEqualTo("geotopo-117p-linearized-links-page-1.pdf");
            assertThat(names.getLast()).isEqualTo("geotopo-117p-linearized-links-page-117.pdf");
            Path page50 = Files.createTempFile(DATA_DIR, "p50", ".pdf");
            Files.copy(z.getInputStream(z.getEntry("geotopo-117p-linearized-links-page-50.pdf")), page50, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertThat(Independent.qpdfCheck(page50).exit()).isIn(0, 3);
            assertThat(Independent.pdftotext(page50).strip()).isEqualTo(Independent.pdftotext(corpus(BOOK), 50, 50).strip());
        }
    }

    @Test
    void splitRangesWinOverEvery() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "split", Map.of("file", uploadId(key, corpus(BOOK)), "every", 10, "ranges", List.of(List.of(1, 3), List.of(117, 117))));
        try (ZipFile z = new ZipFile(downloadOutput(job, 0).toFile())) {
            assertThat(Collections.list(z.entries()).stream().map(ZipEntry::getName).toList())
                    .containsExactly("geotopo-117p-linearized-links-pages-1-3.pdf", "geotopo-117p-linearized-links-page-117.pdf");
        }
        Response beyond = post(key, "/split", Map.of("file", uploadId(key, corpus(BOOK)), "ranges", List.of(List.of(110, 118))));
        assertThat(beyond.code()).isEqualTo("invalid_request");
        assertThat(post(key, "/split", Map.of("file", uploadId(key, corpus(BOOK)), "ranges", List.of(List.of(5, 2)))).code()).isEqualTo("invalid_request");
    }

    @Test
    void organizeKeepsExactlyTheListedPagesInOrder() throws Exception {
        String key = newKey();
        Path src = corpus("pdf-text/pdflatex-4-pages-objstm.pdf");
        JsonNode job = run(key, "organize", Map.of("file", uploadId(key, src), "pages", List.of(4, 1, 1)));
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        assertThat(job.at("/output/files/0/pages").asInt()).isEqualTo(3);
        assertThat(Independent.pdftotext(out, 1, 1).strip()).isEqualTo(Independent.pdftotext(src, 4, 4).strip());
        assertThat(Independent.pdftotext(out, 3, 3).strip()).isEqualTo(Independent.pdftotext(src, 1, 1).strip());
    }

    @Test
    void removePagesDropsTheListedOnesAndRefusesRemovingAll() throws Exception {
        String key = newKey();
        Path src = corpus("pdf-text/rotated-pages-20p.pdf");
        String id = uploadId(key, src);
        JsonNode job = run(key, "remove-pages", Map.of("file", id, "pages", List.of(1, 20, 5)));
        Path out = downloadOutput(job, 0);
        try (PDDocument before = Independent.pdfbox(src); PDDocument after = Independent.pdfbox(out)) {
            assertThat(after.getNumberOfPages()).isEqualTo(17);
            assertThat(after.getPage(0).getRotation()).isEqualTo(before.getPage(1).getRotation());
            assertThat(after.getPage(3).getRotation()).isEqualTo(before.getPage(5).getRotation());
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 1; i <= 20; i++) all.add(i);
        assertThat(post(key, "/remove-pages", Map.of("file", id, "pages", all)).code()).isEqualTo("invalid_request");
    }

    @Test
    void protectEncryptsWithAes256AndUnlockRemovesIt() throws Exception {
        String key = newKey();
        Path src = corpus("pdf-text/two-column-paper-2p.pdf");
        JsonNode job = run(key, "protect", Map.of("file", uploadId(key, src), "password", "open-sesame"));
        Path locked = downloadOutput(job, 0);
        assertThatThrownBy(() -> Independent.pdfbox(locked).close()).isInstanceOf(InvalidPasswordException.class);
        assertThat(Independent.qpdfCheck(locked, "open-sesame").exit()).isIn(0, 3);
        assertThat(Independent.run("qpdf", "--show-encryption", "--password=open-sesame", locked.toString()).output()).contains("AESv3");

        String lockedId = job.at("/output/files/0/id").asString();
        assertThat(get(key, "/files/" + lockedId).body().get("pages").isNull()).isTrue();
        assertThat(post(key, "/rotate", Map.of("file", lockedId, "angle", 90)).code()).isEqualTo("invalid_request");
        assertThat(post(key, "/unlock", Map.of("file", lockedId)).code()).isEqualTo("invalid_request");
        assertThat(post(key, "/unlock", Map.of("file", lockedId, "password", "wrong")).code()).isEqualTo("invalid_request");
        Path unlocked = downloadOutput(run(key, "unlock", Map.of("file", lockedId, "password", "open-sesame")), 0);
        try (PDDocument doc = Independent.pdfbox(unlocked)) {
            assertThat(doc.isEncrypted()).isFalse();
        }
        assertThat(Independent.pdftotext(unlocked)).isEqualTo(Independent.pdftotext(src));
    }

    @ParameterizedTest
    @ValueSource(strings = {"encrypted-aes256-R6-user-view.pdf:view", "encrypted-libreoffice-openpassword.pdf:openpassword",
            "encrypted-user-password.pdf:password"})
    void unlockOpensTheCorpusEncryptedFilesWithTheirPasswords(String spec) throws Exception {
        String key = newKey();
        String[] parts = spec.split(":");
        JsonNode job = run(key, "unlock", Map.of("file", uploadId(key, corpus("pdf-broken/" + parts[0])), "password", parts[1]));
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.isEncrypted()).isFalse();
            assertThat(doc.getNumberOfPages()).isPositive();
        }
        if (parts[0].equals("encrypted-user-password.pdf")) assertThat(Independent.pdftotext(out)).contains("File with password");
    }

    @Test
    void unlockDropsOwnerOnlyRestrictionsWithoutAPassword() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "unlock", Map.of("file", uploadId(key, corpus("pdf-broken/owner-password-copy-protected.pdf"))));
        try (PDDocument doc = Independent.pdfbox(downloadOutput(job, 0))) {
            assertThat(doc.isEncrypted()).isFalse();
            assertThat(doc.getCurrentAccessPermission().canExtractContent()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bad-xref.pdf", "damaged-stream.pdf", "leading-junk-rc4.pdf"})
    void recoverableBrokenFilesAreProcessed(String name) throws Exception {
        String key = newKey();
        JsonNode f = upload(key, corpus("pdf-broken/" + name));
        assertThat(f.get("pages").asInt()).isPositive();
        JsonNode job = run(key, "rotate", Map.of("file", f.get("id").asString(), "angle", 180));
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(f.get("pages").asInt());
            assertThat(doc.getPage(0).getRotation()).isEqualTo(180);
        }
    }
}
