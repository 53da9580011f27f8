package dev.docapi.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.net.SafeHttpClient;
import dev.docapi.support.ApiTestBase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * URL imports and webhook posts against real servers' connection habits (issue 13): a keep-alive server that
 * closes connections idle for 300 ms, and an HTTP/1.0 server that closes after every response. Twenty requests
 * spaced past the idle timeout all succeed: a pooled connection the server closed is retried on a fresh one.
 */
class KeepAliveImportTest extends ApiTestBase {
    @Autowired
    SafeHttpClient http;

    @Test
    void urlImportsSurviveAServerThatClosesIdleKeepAliveConnections() throws Exception {
        byte[] pdf = Files.readAllBytes(corpus("pdf-text/rotated-page-90.pdf"));
        try (RawServer server = new RawServer(pdf, true, 300)) {
            String key = newKey();
            for (int i = 0; i < 20; i++) {
                Response r = post(key, "/files", Map.of("url", server.url() + "/doc-" + i + ".pdf"));
                assertThat(r.status()).as("import " + i + ": " + r).isEqualTo(201);
                Thread.sleep(400);
            }
            assertThat(server.connections.get()).as("the server closed idle connections, so new ones were made").isGreaterThan(1);
        }
    }

    @Test
    void webhookPostsSurviveKeepAliveAndHttp10Servers() throws Exception {
        for (boolean keepAlive : new boolean[]{true, false}) {
            try (RawServer server = new RawServer("ok".getBytes(StandardCharsets.US_ASCII), keepAlive, 300)) {
                for (int i = 0; i < 20; i++) {
                    Request request = new Request.Builder().url(server.url() + "/hook")
                            .post(RequestBody.create("{\"n\":" + i + "}", MediaType.get("application/json"))).build();
                    try (okhttp3.Response r = http.client().newCall(request).execute()) {
                        assertThat(r.code()).as("post " + i + (keepAlive ? " (keep-alive)" : " (HTTP/1.0)")).isEqualTo(200);
                    }
                    Thread.sleep(keepAlive ? 400 : 20);
                }
                assertThat(server.requests.get()).isEqualTo(20);
            }
        }
    }

    /** A minimal HTTP server on loopback: keep-alive with an idle timeout, or HTTP/1.0 that closes after each response. */
    private static final class RawServer implements AutoCloseable {
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final byte[] body;
        private final boolean keepAlive;
        private final int idleMillis;

        RawServer(byte[] body, boolean keepAlive, int idleMillis) throws IOException {
            this.body = body;
            this.keepAlive = keepAlive;
            this.idleMillis = idleMillis;
            Thread.ofVirtual().start(this::acceptLoop);
        }

        String url() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        private void acceptLoop() {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> serve(s));
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void serve(Socket s) {
            try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1))) {
                OutputStream out = s.getOutputStream();
                s.setSoTimeout(idleMillis);
                while (true) {
                    String line = in.readLine();
                    if (line == null) return;
                    int length = 0;
                    for (String h; (h = in.readLine()) != null && !h.isEmpty(); ) {
                        if (h.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) length = Integer.parseInt(h.substring(15).strip());
                    }
                    in.skip(length);
                    requests.incrementAndGet();
                    String head = (keepAlive ? "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n" : "HTTP/1.0 200 OK\r\nConnection: close\r\n")
                            + "Content-Type: application/pdf\r\nContent-Length: " + body.length + "\r\n\r\n";
                    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body);
                    out.flush();
                    if (!keepAlive) return;
                }
            } catch (SocketTimeoutException idle) {
                // idle past the timeout: close, as Node and nginx do
            } catch (IOException gone) {
                // the client went away
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
