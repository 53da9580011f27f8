package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.files.FileService;
import dev.docapi.support.ApiTestBase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Error answers keep the connection open (issue 13, "keep-alive on 4xx"): on one real socket, a 400, 404, 413 and
 * 503 are each followed by a second request that is answered. Tomcat closed the connection after every 400/413/503;
 * Jetty keeps it whenever the request's body has been read to its end.
 */
class KeepAliveTest extends ApiTestBase {

    @Test
    void errorAnswersKeepTheConnectionOpen() throws Exception {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/libreoffice-form.pdf"));
        try (Connection c = new Connection(port, key)) {
            assertThat(c.send("POST", "/v1/rotate", "application/json", "{\"file\":\"" + file + "\"}").status).isEqualTo(400);
            assertThat(c.send("GET", "/v1/files", null, null).status).as("after a 400").isEqualTo(200);

            assertThat(c.send("GET", "/v1/jobs/job_doesnotexist", null, null).status).isEqualTo(404);
            assertThat(c.send("GET", "/v1/files", null, null).status).as("after a 404").isEqualTo(200);

            // as an AI operation on a service without a model: 503 at validation
            assertThat(c.send("POST", "/v1/test-unavailable", "application/json", "{\"file\":\"" + file + "\"}").status).isEqualTo(503);
            assertThat(c.send("GET", "/v1/files", null, null).status).as("after a 503").isEqualTo(200);
        }
    }

    /**
     * A 413 answered from the headers alone, before the body: the request announced 100 MB + 1 bytes, so on this
     * connection the next 100 MB are that body whether the client sends them or not. The only ways to reuse it would
     * be to make the client send, and the server read, 100 MB for nothing; the server closes it instead and says so.
     * With {@code Expect: 100-continue} the client has sent nothing when it learns this.
     */
    @Test
    void a413BeforeTheBodyClosesTheConnectionAndSaysSo() throws Exception {
        try (Connection c = new Connection(port, newKey())) {
            c.write("POST /v1/files?name=big.pdf HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + c.key
                    + "\r\nContent-Type: application/octet-stream\r\nExpect: 100-continue\r\nContent-Length: "
                    + (FileService.MAX_BYTES + 1) + "\r\n\r\n");
            Answer refused = c.read();
            assertThat(refused.status).as("refused from its headers, no 100 Continue first").isEqualTo(413);
            assertThat(refused.body).as("%s", refused).contains("file_too_large");
            assertThat(refused.headers.get("connection")).isEqualToIgnoringCase("close");
        }
    }

    @Test
    void a413AfterTheBodyWasReadKeepsTheConnection() throws Exception {
        try (Connection c = new Connection(port, newKey())) {
            // no length announced: the body is read until it passes 100 MB, then refused
            c.write("POST /v1/files?name=big.pdf HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + c.key
                    + "\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
            byte[] chunk = new byte[1 << 20];
            long size = FileService.MAX_BYTES + 1;
            for (long sent = 0; sent < size; ) {
                int n = (int) Math.min(chunk.length, size - sent);
                c.write(Integer.toHexString(n) + "\r\n");
                c.out.write(chunk, 0, n);
                c.write("\r\n");
                sent += n;
            }
            c.write("0\r\n\r\n");
            Answer refused = c.read();
            assertThat(refused.status).isEqualTo(413);
            assertThat(refused.body).as("%s", refused).contains("file_too_large");
            assertThat(refused.headers).as("%s", refused).doesNotContainKey("connection");
            assertThat(c.send("GET", "/v1/files", null, null).status).as("after the 413").isEqualTo(200);
        }
    }

    /**
     * What Jetty refuses before the service sees it (headers or an address over 8 KB, a request line that is not HTTP)
     * answers in the spec's error shape (§7): 400 {@code invalid_request} in JSON, not Jetty's HTML 431 or 414.
     */
    @Test
    void requestsTheHttpServerRefusesGetTheSpecsJsonError() throws Exception {
        String big = "x".repeat(9 * 1024);
        List<String> requests = List.of(
                "GET /v1/files HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + big + "\r\n\r\n",
                "GET /v1/files?q=" + big + " HTTP/1.1\r\nHost: localhost\r\n\r\n",
                "NOT HTTP AT ALL\r\n\r\n");
        for (String request : requests) {
            try (Connection c = new Connection(port, "unused")) {
                c.write(request);
                Answer refused = c.read();
                assertThat(refused.status).as("%s", refused).isEqualTo(400);
                assertThat(refused.headers.get("content-type")).as("%s", refused).startsWith("application/json");
                assertThat(JSON.readTree(refused.body).at("/error/code").asString()).as("%s", refused).isEqualTo("invalid_request");
            }
        }
    }

    record Answer(int status, Map<String, String> headers, String body) {}

    /** One HTTP/1.1 connection, spoken by hand so that nothing hides whether the server closed it. */
    static final class Connection implements AutoCloseable {
        final Socket socket;
        final OutputStream out;
        final InputStream in;
        final String key;

        Connection(int port, String key) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(60_000);
            out = socket.getOutputStream();
            in = socket.getInputStream();
            this.key = key;
        }

        Answer send(String method, String path, String contentType, String body) throws IOException {
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            write(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key + "\r\n"
                    + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
                    + (body == null ? "" : "Content-Length: " + bytes.length + "\r\n") + "\r\n");
            out.write(bytes);
            return read();
        }

        void write(String s) throws IOException {
            out.write(s.getBytes(StandardCharsets.ISO_8859_1));
        }

        /** Reads one response; a connection the server closed fails here (end of stream) or at the next write. */
        Answer read() throws IOException {
            String status = line();
            Map<String, String> headers = new LinkedHashMap<>();
            for (String h = line(); !h.isEmpty(); h = line()) {
                int colon = h.indexOf(':');
                headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                for (int n = Integer.parseInt(line().trim(), 16); n > 0; n = Integer.parseInt(line().trim(), 16)) {
                    body.write(in.readNBytes(n));
                    line();
                }
                line();
            } else if (headers.containsKey("content-length")) {
                body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
            } else {
                body.write(in.readAllBytes()); // delimited by the end of the connection
            }
            return new Answer(Integer.parseInt(status.split(" ")[1]), headers, body.toString(StandardCharsets.UTF_8));
        }

        private String line() throws IOException {
            StringBuilder s = new StringBuilder();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) throw new IOException("the server closed the connection");
                if (b != '\r') s.append((char) b);
            }
            return s.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
