package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.files.SignedLinks;
import dev.docapi.support.ApiTestBase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The auth edge and bad input found by the issue 10 evaluation: every spelling of a path is authenticated like its
 * normal form, a signed link cannot live longer than an hour whatever its signature, and odd input answers 400 (or is
 * cleaned), never 500.
 */
class EdgeTest extends ApiTestBase {
    @Autowired
    SignedLinks links;

    @Test
    void everySpellingOfAProtectedPathNeedsAKey() {
        for (String path : List.of("//v1/mcp", "/./v1/mcp", "/foo/../v1/mcp")) {
            Response r = send(null, HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")));
            assertThat(r.status()).as(path + ": %s", r).isIn(400, 401, 404);
            assertThat(new String(r.raw())).as(path).doesNotContain("\"tools\"");
        }
    }

    @Test
    void aSignedLinkExpiringMoreThanAnHourAheadIsExpiredWhateverItsSignature() throws Exception {
        String key = newKey();
        String id = uploadId(key, text("link.txt", "hello"));
        Response forged = get(null, "/files/" + id + "/content?" + links.query(id, Instant.now().plus(Duration.ofDays(3650))));
        assertThat(forged.status()).isEqualTo(403);
        assertThat(forged.code()).isEqualTo("link_expired");
        Response fresh = get(null, "/files/" + id + "/content?" + links.query(id));
        assertThat(fresh.status()).isEqualTo(200);
    }

    @Test
    void oddInputAnswers400NotAnInternalError() throws Exception {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
        for (String url : List.of("http://runsc/a b", "http://runsc/%zz")) {
            Response r = post(key, "/rotate", Map.of("file", file, "angle", 90, "webhook_url", url));
            assertThat(r.status()).as(url + ": %s", r).isEqualTo(400);
        }
        Response pages = post(key, "/remove-pages", Map.of("file", file, "pages", List.of(new java.math.BigInteger("99999999999999999999"))));
        assertThat(pages.status()).as("%s", pages).isEqualTo(400);
        assertThat(pages.code()).isEqualTo("invalid_request");

        Response name = send(key, HttpRequest.newBuilder(URI.create(base() + "/files?name=%FF%FE.txt"))
                .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofString("plain text")));
        assertThat(name.status()).as("%s", name).isEqualTo(400);
        assertThat(name.code()).isEqualTo("invalid_request");
    }

    @Test
    void fileNamesLoseControlAndBidiCharacters() throws Exception {
        String key = newKey();
        String name = upload(key, text("n.txt", "x"), "invoice\u202Efdp.exe\u0007\u200B.txt").get("name").asString();
        assertThat(name).isEqualTo("invoicefdp.exe.txt");
    }

    private static Path text(String name, String content) throws Exception {
        return Files.writeString(Files.createTempDirectory(DATA_DIR, "edge-").resolve(name), content);
    }
}
