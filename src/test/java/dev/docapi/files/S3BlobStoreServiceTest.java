package dev.docapi.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.config.DocapiProperties;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import dev.docapi.support.S3ProxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The service with {@code DOCAPI_BLOB_STORE=s3} on a real S3-compatible server (S3Proxy): uploads, job inputs,
 * outputs and downloads all go through the bucket; the local disk holds only the cache.
 */
@DirtiesContext // a service of its own: closed after this class, not kept to the end of the run (issue 41)
class S3BlobStoreServiceTest extends ApiTestBase {
    private static final S3ProxyServer S3 = S3ProxyServer.start();
    private static final String BUCKET = "docapi-service-test";
    private static final Path OWN_DATABASE = DATA_DIR.resolve("s3-node-db").resolve("docapi");

    /**
     * This service keeps a database of its own: were it shared with the local-disk test service, one service's
     * background work (expiry, job recovery) would act on the other's files and jobs. (The data dir stays
     * {@link ApiTestBase}'s: its {@code @DynamicPropertySource} runs after a subclass's.)
     */
    @DynamicPropertySource
    static void s3Properties(DynamicPropertyRegistry registry) {
        registry.add("docapi.blob-store", () -> "s3");
        registry.add("docapi.s3.endpoint", S3::endpoint);
        registry.add("docapi.s3.bucket", () -> BUCKET);
        registry.add("docapi.s3.access-key", () -> S3ProxyServer.ACCESS_KEY);
        registry.add("docapi.s3.secret-key", () -> S3ProxyServer.SECRET_KEY);
        if (System.getenv("DOCAPI_TEST_DATABASE_URL") == null) {
            registry.add("docapi.database-url", () -> "jdbc:h2:file:" + OWN_DATABASE + ";WRITE_DELAY=0");
            registry.add("docapi.database-user", () -> "sa");
            registry.add("docapi.database-password", () -> "s3-node-test");
        }
    }

    @Autowired
    DocapiProperties props;
    @Autowired
    FileService files;
    @Autowired
    JdbcClient db;

    @Test
    void uploadRotateAndDownloadGoThroughTheBucketAndLeaveNoBlobOnLocalDisk() throws Exception {
        String key = newKey();
        Path input = corpus("pdf-text/rotated-page-90.pdf");
        String inputId = uploadId(key, input);

        JsonNode job = run(key, "rotate", Map.of("file", inputId, "angle", 90));
        Path output = downloadOutput(job, 0);

        try (PDDocument doc = Independent.pdfbox(output)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(1);
            assertThat(doc.getPage(0).getRotation()).isEqualTo(180);
        }
        String outputId = job.at("/output/files/0/id").asString();
        assertThat(Files.mismatch(S3.object(BUCKET, inputId), input)).isEqualTo(-1);
        assertThat(Files.mismatch(S3.object(BUCKET, outputId), output)).isEqualTo(-1);
        for (String id : new String[] {inputId, outputId}) {
            assertThat(props.blobDir().resolve(id.substring(id.length() - 2)).resolve(id)).doesNotExist();
            assertThat(props.cacheDir().resolve(id)).exists();
        }
    }

    @Test
    void deletingAFileRemovesItsObjectAndItsCachedCopy() throws Exception {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        assertThat(S3.object(BUCKET, id)).exists();

        assertThat(delete(key, "/files/" + id).status()).isEqualTo(200);

        assertThat(S3.object(BUCKET, id)).doesNotExist();
        assertThat(props.cacheDir().resolve(id)).doesNotExist();
    }

    @Test
    void expiryRemovesTheObjectAndTheCachedCopy() {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        assertThat(props.cacheDir().resolve(id)).exists();
        db.sql("UPDATE files SET expires_at = ? WHERE id = ?").params(Instant.now().minusSeconds(1).toEpochMilli(), id).update();

        files.purgeExpired();

        assertThat(S3.object(BUCKET, id)).doesNotExist();
        assertThat(props.cacheDir().resolve(id)).doesNotExist();
        assertThat(get(key, "/files/" + id + "/content").code()).isEqualTo("file_expired");
    }

    @Test
    void theOcrKeptWithAFileIsInTheBucketAndGoesWithTheFile() throws Exception {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-scanned/english-skewed-brochure.pdf"));
        String text = run(key, "extract-text", Map.of("file", id, "wait", 300)).at("/output/text").asString();
        assertThat(text).contains("LinnSequencer");
        String[] blobs = db.sql("SELECT pdf_blob, text_blob FROM kept_ocr k JOIN files f ON f.account_id = k.account_id WHERE f.id = ?"
                        + " AND k.variant NOT LIKE 'document-model/%'")
                .param(id).query((rs, n) -> new String[] {rs.getString(1), rs.getString(2)}).single();
        // ocr returns the kept OCR'd PDF, as stored in the bucket (every node reads it there).
        Path ocrd = downloadOutput(run(key, "ocr", Map.of("file", id, "wait", 300)), 0);
        assertThat(Files.mismatch(S3.object(BUCKET, blobs[0]), ocrd)).isEqualTo(-1);
        assertThat(Files.readString(S3.object(BUCKET, blobs[1]))).contains("LinnSequencer");

        assertThat(delete(key, "/files/" + id).status()).isEqualTo(200);

        for (String blob : blobs) {
            assertThat(S3.object(BUCKET, blob)).doesNotExist();
            assertThat(props.cacheDir().resolve(blob)).doesNotExist();
        }
    }
}
