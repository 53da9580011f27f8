package dev.docapi.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.S3ProxyServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link S3BlobStore} against a real S3-compatible server (S3Proxy); two stores with their own caches are two nodes. */
class S3BlobStoreTest {
    private static S3ProxyServer server;

    @TempDir
    Path dir;
    private S3BlobStore nodeA;
    private S3BlobStore nodeB;

    @BeforeAll
    static void startServer() {
        server = S3ProxyServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void connect() {
        nodeA = new S3BlobStore(config("blobs"), dir.resolve("a-cache"));
        nodeB = new S3BlobStore(config("blobs"), dir.resolve("b-cache"));
    }

    @AfterEach
    void disconnect() {
        nodeA.close();
        nodeB.close();
    }

    @Test
    void startCreatesTheBucketWhenMissingAndAcceptsAnExistingOne() throws IOException {
        try (S3BlobStore first = new S3BlobStore(config("fresh-bucket"), dir.resolve("c1"));
             S3BlobStore again = new S3BlobStore(config("fresh-bucket"), dir.resolve("c2"))) {
            first.put("file_fresh01", copy(ApiTestBase.corpus("pdf-text/rotated-page-90.pdf")));
            assertThat(server.object("fresh-bucket", "file_fresh01")).exists();
            assertThat(again.open("file_fresh01").length()).isEqualTo(Files.size(ApiTestBase.corpus("pdf-text/rotated-page-90.pdf")));
        }
    }

    @Test
    void smallFileIsStoredInOnePieceAndReadBackIdentical() throws Exception {
        Path original = ApiTestBase.corpus("pdf-text/pdflatex-4-pages-objstm.pdf");
        Path upload = copy(original);
        nodeA.put("file_small01", upload);

        assertThat(upload).doesNotExist();
        assertThat(Files.mismatch(server.object("blobs", "file_small01"), original)).isEqualTo(-1);
        try (BlobStore.Content content = nodeB.open("file_small01")) {
            assertThat(content.length()).isEqualTo(Files.size(original));
            assertThat(sha256(content.stream())).isEqualTo(sha256(original));
        }
    }

    @Test
    void fileAboveThePartSizeGoesUpInPartsAndReadsBackByteIdentical() throws Exception {
        Path original = dir.resolve("big.bin");
        long size = 2 * S3BlobStore.PART_BYTES + 3 * 1024 * 1024 + 17;
        writeRandom(original, size);
        nodeA.put("file_big0001", copy(original));

        assertThat(Files.mismatch(server.object("blobs", "file_big0001"), original)).isEqualTo(-1);
        try (BlobStore.Content content = nodeB.open("file_big0001")) {
            assertThat(content.length()).isEqualTo(size);
            assertThat(sha256(content.stream())).isEqualTo(sha256(original));
        }
        assertThat(Files.mismatch(nodeB.local("file_big0001"), original)).isEqualTo(-1);
    }

    @Test
    void aFileStoredByOneNodeIsReadLocallyByAnotherAndDownloadedAgainAfterItsCopyIsRemoved() throws Exception {
        Path original = ApiTestBase.corpus("pdf-text/rotated-pages-20p.pdf");
        nodeA.put("file_cache01", copy(original));

        Path onB = nodeB.local("file_cache01");
        assertThat(onB).startsWith(dir.resolve("b-cache"));
        assertThat(Files.mismatch(onB, original)).isEqualTo(-1);

        Files.delete(onB);
        assertThat(nodeB.local("file_cache01")).isEqualTo(onB);
        assertThat(Files.mismatch(onB, original)).isEqualTo(-1);
    }

    @Test
    void deleteRemovesTheObjectAndTheCopyAndLeavesNothingToRead() throws Exception {
        nodeA.put("file_del0001", copy(ApiTestBase.corpus("pdf-text/rotated-page-90.pdf")));
        Path onA = nodeA.local("file_del0001");
        assertThat(onA).exists();

        nodeA.delete("file_del0001");

        assertThat(server.object("blobs", "file_del0001")).doesNotExist();
        assertThat(onA).doesNotExist();
        assertThat(nodeB.local("file_del0001")).doesNotExist();
        assertThatThrownBy(() -> nodeB.open("file_del0001")).isInstanceOf(NoSuchFileException.class);
        nodeA.delete("file_del0001");
    }

    @Test
    void sweepDropsCopiesWhoseObjectIsGoneOrThatWereNotUsedForAnHour() throws Exception {
        Path pdf = ApiTestBase.corpus("pdf-text/rotated-page-90.pdf");
        nodeA.put("file_swp0001", copy(pdf));
        nodeA.put("file_swp0002", copy(pdf));
        nodeA.put("file_swp0003", copy(pdf));
        Path deletedElsewhere = nodeB.local("file_swp0001");
        Path idle = nodeB.local("file_swp0002");
        Path inUse = nodeB.local("file_swp0003");
        nodeA.delete("file_swp0001");
        Files.setLastModifiedTime(idle, FileTime.from(Instant.now().minus(S3BlobStore.CACHE_IDLE).minusSeconds(60)));

        nodeB.sweepCache();

        assertThat(deletedElsewhere).doesNotExist();
        assertThat(idle).doesNotExist();
        assertThat(inUse).exists();
        assertThat(server.object("blobs", "file_swp0002")).exists();
    }

    private static BlobStoreProperties.S3 config(String bucket) {
        return new BlobStoreProperties.S3(server.endpoint(), bucket, "us-east-1", S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY, null);
    }

    /** A temp copy, since the store consumes what it is given. */
    private Path copy(Path source) throws IOException {
        Path tmp = Files.createTempFile(dir, "src-", ".bin");
        return Files.copy(source, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static void writeRandom(Path target, long size) throws IOException {
        Random random = new Random(42);
        byte[] buf = new byte[1024 * 1024];
        try (OutputStream out = Files.newOutputStream(target)) {
            for (long left = size; left > 0; left -= buf.length) {
                random.nextBytes(buf);
                out.write(buf, 0, (int) Math.min(buf.length, left));
            }
        }
    }

    private static String sha256(Path file) throws Exception {
        try (InputStream in = Files.newInputStream(file)) {
            return sha256(in);
        }
    }

    private static String sha256(InputStream in) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[64 * 1024];
        for (int n; (n = in.read(buf)) > 0; ) digest.update(buf, 0, n);
        return HexFormat.of().formatHex(digest.digest());
    }
}
