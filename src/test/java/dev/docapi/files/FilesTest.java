package dev.docapi.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.docapi.files.SignedLinks;
import dev.docapi.support.ApiTestBase;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

@Tag("database")
class FilesTest extends ApiTestBase {
    @Autowired
    SignedLinks links;
    @Autowired
    JdbcClient db;
    @Autowired
    FileService files;

    @Test
    void multipartUploadTakesTheNameFieldAndCountsPdfPages() throws Exception {
        String key = newKey();
        String boundary = "----docapi" + System.nanoTime();
        byte[] pdf = Files.readAllBytes(corpus("pdf-text/pdflatex-4-pages-objstm.pdf"));
        var body = new java.io.ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.pdf\"\r\n"
                + "Content-Type: application/pdf\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.write(pdf);
        body.write(("\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nreport.pdf\r\n--" + boundary + "--\r\n")
                .getBytes(StandardCharsets.UTF_8));
        Response r = send(key, HttpRequest.newBuilder(URI.create(base() + "/files"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));

        assertThat(r.status()).isEqualTo(201);
        assertThat(r.headers().firstValue("Location")).hasValue("/v1/files/" + r.body().get("id").asString());
        JsonNode f = r.body();
        assertThat(f.get("object").asString()).isEqualTo("file");
        assertThat(f.get("id").asString()).startsWith("file_");
        assertThat(f.get("name").asString()).isEqualTo("report.pdf");
        assertThat(f.get("size").asLong()).isEqualTo(pdf.length);
        assertThat(f.get("content_type").asString()).isEqualTo("application/pdf");
        assertThat(f.get("pages").asInt()).isEqualTo(4);
        assertThat(f.get("source").asString()).isEqualTo("upload");
        assertThat(Instant.parse(f.get("expires_at").asString()))
                .isEqualTo(Instant.parse(f.get("created_at").asString()).plusSeconds(24 * 3600));
    }

    @Test
    void uploadCountsImageFramesAndSniffsTheType() {
        String key = newKey();
        JsonNode tiff = upload(key, corpus("images/layout-parser-paper-fast.tiff"));
        assertThat(tiff.get("content_type").asString()).isEqualTo("image/tiff");
        assertThat(tiff.get("pages").asInt()).isEqualTo(1);
        JsonNode webp = upload(key, corpus("images/DA-1p.webp"));
        assertThat(webp.get("content_type").asString()).isEqualTo("image/webp");
        JsonNode docx = upload(key, corpus("office/fake.docx"));
        assertThat(docx.get("content_type").asString()).contains("wordprocessingml");
        assertThat(docx.get("pages").isNull()).isTrue();
    }

    @Test
    void contentThatDoesNotMatchItsNameIsRefused() throws Exception {
        String key = newKey();
        assertThat(rawUpload(key, corpus("pdf-broken/not-a-pdf-oops.pdf"), "not-a-pdf-oops.pdf").code()).isEqualTo("invalid_file");
        assertThat(rawUpload(key, corpus("pdf-broken/invalid-header-eof-only.pdf"), "invalid.pdf").code()).isEqualTo("invalid_file");
        assertThat(rawUpload(key, corpus("office/password-protected.xlsx"), "password-protected.xlsx").code()).isEqualTo("invalid_file");
        assertThat(rawUpload(key, corpus("office/tagged-damaged-zip.odt"), "tagged-damaged-zip.odt").code()).isEqualTo("invalid_file");
    }

    @Test
    void contentDecidesTheTypeWhateverTheName() throws Exception {
        String key = newKey();
        JsonNode png = upload(key, corpus("images/DA-1p.png"), "scan.jpg");
        assertThat(png.get("content_type").asString()).isEqualTo("image/png");
        assertThat(png.get("name").asString()).isEqualTo("scan.jpg");
        JsonNode pdf = upload(key, corpus("pdf-text/rotated-page-90.pdf"), "report.docx");
        assertThat(pdf.get("content_type").asString()).isEqualTo("application/pdf");
        assertThat(pdf.get("pages").asInt()).isEqualTo(1);

        JsonNode job = run(key, "images-to-pdf", java.util.Map.of("files", java.util.List.of(png.get("id").asString())));
        Path out = downloadOutput(job, 0);
        assertThat(dev.docapi.support.Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (var doc = dev.docapi.support.Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(1);
        }
        JsonNode rotated = run(key, "rotate", java.util.Map.of("file", pdf.get("id").asString(), "angle", 90));
        assertThat(rotated.get("status").asString()).isEqualTo("succeeded");
    }

    @Test
    void aTypeTheServiceDoesNotTakeIs415AndAnEmptyFileIs400() throws Exception {
        String key = newKey();
        Path zip = Files.createTempFile(DATA_DIR, "a", ".zip");
        try (var z = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            z.putNextEntry(new java.util.zip.ZipEntry("a.txt"));
            z.write("hello".getBytes());
        }
        Response r = rawUpload(key, zip, "archive.zip");
        assertThat(r.status()).isEqualTo(415);
        assertThat(r.code()).isEqualTo("unsupported_file_type");

        Path empty = Files.createTempFile(DATA_DIR, "e", ".pdf");
        Response e = rawUpload(key, empty, "empty.pdf");
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("empty_file");
    }

    @Test
    void aDocxWhoseDocumentInflatesTo600MbIsRefusedAtUploadBeforeAnyEngine() throws Exception {
        String key = newKey();
        Path bomb = Files.createTempFile(DATA_DIR, "bomb", ".docx");
        try (var z = new java.util.zip.ZipOutputStream(Files.newOutputStream(bomb))) {
            z.setLevel(9);
            z.putNextEntry(new java.util.zip.ZipEntry("[Content_Types].xml"));
            z.write(("<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                    + "<Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument."
                    + "wordprocessingml.document.main+xml\"/></Types>").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            z.putNextEntry(new java.util.zip.ZipEntry("word/document.xml"));
            byte[] paragraphs = "<w:p><w:r><w:t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</w:t></w:r></w:p>".repeat(16_000)
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8); // ~1 MB
            for (int i = 0; i < 600; i++) z.write(paragraphs);
        }
        assertThat(Files.size(bomb)).as("the package itself is small").isLessThan(5L << 20);
        Response r = rawUpload(key, bomb, "report.docx");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_file");
        assertThat(r.body().at("/error/message").asString()).contains("inflate to more than");
        assertThat(get(key, "/files").body().get("data")).as("nothing stored").isEmpty();
    }

    @Test
    void anUploadOneByteOver100MbIs413WithoutItsBodyBeingRead() throws Exception {
        String key = newKey();
        Path big = Files.createTempFile(DATA_DIR, "big", ".pdf");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(FileService.MAX_BYTES + 1);
        }
        try {
            // Expect: 100-continue — the client sends the body only if the server asks for it; a 413 comes first.
            Response r = send(key, HttpRequest.newBuilder(URI.create(base() + "/files?name=big.pdf")).expectContinue(true)
                    .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofFile(big)));
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.code()).isEqualTo("file_too_large");
        } finally {
            Files.delete(big);
        }
        assertThat(get(key, "/files").body().get("data").size()).isZero();
    }

    @Test
    void aStreamWithoutLengthIsCutAt100Mb() throws Exception {
        var endless = new java.io.InputStream() {
            long sent;
            public int read() {
                return sent++ <= FileService.MAX_BYTES ? 'x' : -1;
            }
            public int read(byte[] b, int off, int len) {
                if (sent > FileService.MAX_BYTES) return -1;
                int n = (int) Math.min(len, FileService.MAX_BYTES + 1 - sent);
                sent += n;
                return n;
            }
        };
        assertThatThrownBy(() -> files.receive(endless)).isInstanceOf(dev.docapi.core.ApiException.class)
                .hasMessageContaining("100 MB");
        try (var incoming = Files.list(DATA_DIR.resolve("files").resolve("incoming"))) {
            assertThat(incoming.filter(p -> p.toString().endsWith(".part")).count()).as("no half-written upload left").isZero();
        }
    }

    @Test
    void urlImportFetchesAndNamesTheFile() throws Exception {
        String key = newKey();
        byte[] pdf = Files.readAllBytes(corpus("pdf-text/wkhtmltopdf-link-pdf14.pdf"));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/docs/invoice.pdf", ex -> {
            ex.sendResponseHeaders(200, pdf.length);
            ex.getResponseBody().write(pdf);
            ex.close();
        });
        server.createContext("/moved", ex -> {
            ex.getResponseHeaders().add("Location", "/docs/invoice.pdf");
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        server.createContext("/missing", ex -> {
            ex.sendResponseHeaders(404, -1);
            ex.close();
        });
        server.start();
        try {
            String root = "http://127.0.0.1:" + server.getAddress().getPort();
            Response ok = post(key, "/files", Map.of("url", root + "/docs/invoice.pdf"));
            assertThat(ok.status()).isEqualTo(201);
            assertThat(ok.body().get("name").asString()).isEqualTo("invoice.pdf");
            assertThat(ok.body().get("source").asString()).isEqualTo("url");
            assertThat(ok.body().get("size").asLong()).isEqualTo(pdf.length);

            Response redirected = post(key, "/files", Map.of("url", root + "/moved"));
            assertThat(redirected.status()).isEqualTo(400);
            assertThat(redirected.code()).isEqualTo("fetch_failed");
            assertThat(redirected.body().at("/error/message").asString()).contains("redirect");

            Response missing = post(key, "/files", Map.of("url", root + "/missing", "name", "x.pdf"));
            assertThat(missing.code()).isEqualTo("fetch_failed");
            assertThat(post(key, "/files", Map.of("url", "ftp://example.com/a.pdf")).code()).isEqualTo("fetch_failed");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void signedLinksWorkWithoutAKeyForOneHourOnly() {
        String key = newKey();
        JsonNode f = upload(key, corpus("pdf-text/rotated-page-90.pdf"));
        String id = f.get("id").asString();
        Response ok = get(null, f.get("download_url").asString());
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.raw()).hasSize(f.get("size").asInt());

        Response expired = get(null, "/files/" + id + "/content?" + links.query(id, Instant.now().minusSeconds(5)));
        assertThat(expired.status()).isEqualTo(403);
        assertThat(expired.code()).isEqualTo("link_expired");

        String tampered = f.get("download_url").asString().replaceAll("t=[0-9a-f]{4}", "t=0000");
        Response refused = get(null, tampered);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.code()).isEqualTo("invalid_api_key");
        assertThat(refused.body().at("/error/message").asString()).contains("signature is not valid");
        assertThat(get(null, "/files/" + id + "/content").code()).isEqualTo("missing_api_key");
        assertThat(get(key, "/files/" + id + "/content").status()).isEqualTo(200);
        assertThat(get(newKey(), "/files/" + id + "/content").code()).isEqualTo("file_not_found");
    }

    @Test
    void deletedFilesAre404AndExpiredFiles410() {
        String key = newKey();
        String deleted = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        Response d = delete(key, "/files/" + deleted);
        assertThat(d.status()).isEqualTo(200);
        assertThat(d.body().get("deleted").asBoolean()).isTrue();
        assertThat(get(key, "/files/" + deleted).code()).isEqualTo("file_not_found");
        assertThat(delete(key, "/files/" + deleted).status()).isEqualTo(404);

        String expired = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        db.sql("UPDATE files SET expires_at = ? WHERE id = ?").params(Instant.now().minusSeconds(1).toEpochMilli(), expired).update();
        Response g = get(key, "/files/" + expired);
        assertThat(g.status()).isEqualTo(410);
        assertThat(g.code()).isEqualTo("file_expired");
        Response op = post(key, "/rotate", Map.of("file", expired, "angle", 90));
        assertThat(op.status()).isEqualTo(410);
        assertThat(get(key, "/files").body().get("data").size()).isZero();
    }

    @Test
    void listingIsNewestFirstAndValidatesLimit() {
        String key = newKey();
        String first = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        String second = uploadId(key, corpus("pdf-text/annotations-text-highlight-ink.pdf"));
        JsonNode list = get(key, "/files?limit=1").body();
        assertThat(list.get("object").asString()).isEqualTo("list");
        assertThat(list.get("data").size()).isEqualTo(1);
        assertThat(list.at("/data/0/id").asString()).isEqualTo(second);
        assertThat(get(key, "/files").body().at("/data/1/id").asString()).isEqualTo(first);
        assertThat(get(key, "/files?limit=0").code()).isEqualTo("invalid_request");
        assertThat(get(key, "/files?limit=201").code()).isEqualTo("invalid_request");
    }

    private Response rawUpload(String key, Path file, String name) throws Exception {
        return send(key, HttpRequest.newBuilder(URI.create(base() + "/files?name=" + name))
                .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofFile(file)));
    }
}
