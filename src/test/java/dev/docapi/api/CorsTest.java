package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * CORS (issue 13), proven in a real headless Chromium: a page on another origin reads {@code openapi.json} and, when
 * its origin is in {@code DOCAPI_CORS_ORIGINS}, calls an operation with a key; a page on an origin not listed can
 * still read the OpenAPI document but its operation call is blocked by the browser. Preflights never need a key.
 */
class CorsTest extends ApiTestBase {

    @Test
    void aPreflightNeedsNoKey() {
        Response r = send(null, HttpRequest.newBuilder(URI.create(base() + "/rotate"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://" + CORS_PAGE_HOST + ":8123")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization,content-type"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("http://" + CORS_PAGE_HOST + ":8123");
        assertThat(r.headers().firstValue("Access-Control-Allow-Headers").orElse("").toLowerCase()).contains("authorization");

        Response other = send(null, HttpRequest.newBuilder(URI.create(base() + "/rotate"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://127.0.0.1:1")
                .header("Access-Control-Request-Method", "POST"));
        assertThat(other.status()).isEqualTo(403);
        assertThat(other.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void aBrowserOnAnAllowedOriginCallsTheApiAndOneOnAnotherOriginOnlyReadsTheDocument() throws Exception {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        String page = """
                <!doctype html><html><body><pre id="out">pending</pre><script>
                (async () => {
                  const out = [];
                  try { const d = await (await fetch('%1$s/openapi.json')).json(); out.push('openapi:' + d.openapi); }
                  catch (e) { out.push('openapi:blocked'); }
                  try {
                    const r = await fetch('%1$s/rotate', {method: 'POST',
                      headers: {'Authorization': 'Bearer %2$s', 'Content-Type': 'application/json'},
                      body: JSON.stringify({file: '%3$s', angle: 90})});
                    const j = await r.json(); out.push('rotate:' + r.status + ':' + j.status + ':' + (r.headers.get('X-RateLimit-Limit') || ''));
                  } catch (e) { out.push('rotate:blocked'); }
                  document.getElementById('out').textContent = out.join(' ');
                })();
                </script></body></html>""".formatted(base(), key, file);

        assertThat(browse(CORS_PAGE_HOST, page)).contains("openapi:3.1.0").containsPattern("rotate:200:succeeded:\\d+");
        assertThat(browse("127.0.0.1", page)).contains("openapi:3.1.0").contains("rotate:blocked");
    }

    /** Serves {@code html} on loopback, opens it as http://{host}:{port}/ in headless Chromium, returns the DOM. */
    private static String browse(String host, String html) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            byte[] body = html.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        Path profile = Files.createTempDirectory("cors-chromium-");
        try {
            Independent.Run r = Independent.run("/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--no-first-run", "--disable-background-networking", "--user-data-dir=" + profile,
                    "--virtual-time-budget=15000", "--dump-dom", "http://" + host + ":" + server.getAddress().getPort() + "/");
            return r.output();
        } finally {
            server.stop(0);
            org.springframework.util.FileSystemUtils.deleteRecursively(profile);
        }
    }
}
