package dev.docapi.ai;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * LangChain4j's HTTP seam over one of our OkHttp clients. For an account's {@code custom/} endpoint that client is
 * {@link dev.docapi.net.SafeHttpClient}'s, so every model call resolves the host again, refuses non-public addresses,
 * pins the address and follows no redirect (spec §2.5 "public https base URL"). Streaming is not used by docapi.
 */
final class OkHttpModelTransport implements HttpClientBuilder {
    private final OkHttpClient base;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration readTimeout = Duration.ofSeconds(120);

    OkHttpModelTransport(OkHttpClient base) {
        this.base = base;
    }

    @Override
    public Duration connectTimeout() {
        return connectTimeout;
    }

    @Override
    public HttpClientBuilder connectTimeout(Duration value) {
        if (value != null) connectTimeout = value;
        return this;
    }

    @Override
    public Duration readTimeout() {
        return readTimeout;
    }

    @Override
    public HttpClientBuilder readTimeout(Duration value) {
        if (value != null) readTimeout = value;
        return this;
    }

    @Override
    public HttpClient build() {
        // a provider may close an idle keep-alive connection: let OkHttp retry on a fresh one (the Dns rule still applies)
        OkHttpClient client = base.newBuilder()
                .retryOnConnectionFailure(true)
                .connectTimeout(connectTimeout)
                .readTimeout(readTimeout)
                .callTimeout(readTimeout.plusSeconds(30))
                .build();
        return new Client(client);
    }

    private record Client(OkHttpClient client) implements HttpClient {

        @Override
        public SuccessfulHttpResponse execute(HttpRequest request) {
            Request.Builder rb = new Request.Builder().url(request.url());
            for (Map.Entry<String, List<String>> h : request.headers().entrySet()) {
                for (String v : h.getValue()) rb.addHeader(h.getKey(), v);
            }
            switch (request.method()) {
                case GET -> rb.get();
                case DELETE -> rb.delete();
                case POST -> rb.post(RequestBody.create(request.body() == null ? "" : request.body(), MediaType.get("application/json")));
            }
            try (Response r = client.newCall(rb.build()).execute()) {
                String body = r.body().string();
                if (!r.isSuccessful()) throw new HttpException(r.code(), body);
                return SuccessfulHttpResponse.builder().statusCode(r.code()).headers(r.headers().toMultimap()).body(body).build();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
            throw new UnsupportedOperationException("docapi does not stream model responses");
        }
    }
}
