package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/** JSON responses are gzipped for clients that accept it (issue 13: the OpenAPI document is over 100 KB). */
class CompressionTest extends ApiTestBase {

    @Test
    void theOpenApiDocumentIsGzippedWhenTheClientAcceptsIt() throws Exception {
        HttpResponse<byte[]> plain = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/openapi.json")).build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> gzip = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/openapi.json")).header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(gzip.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gzip.body().length).isLessThan(plain.body().length / 4);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip.body()))) {
            assertThat(JSON.readTree(in.readAllBytes())).isEqualTo(JSON.readTree(plain.body()));
        }
    }
}
