package dev.docapi.config;

import dev.docapi.core.ErrorCode;
import dev.docapi.core.J;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP server (Jetty) below Spring:
 * <ul>
 *   <li>its listening socket keeps up to {@link #ACCEPT_QUEUE} connections waiting to be accepted. Jetty's default
 *       (the JDK's 50) let a burst of simultaneous new connections overflow it: with SYN cookies the kernel then reset
 *       some connections after their request was sent, and clients saw the connection close with no answer (a few of
 *       200 simultaneous operation requests in CI, 12 of 400 here; {@code nstat} counted them as
 *       {@code SyncookiesFailed}). Linux caps the value at {@code net.core.somaxconn} (4096 by default).</li>
 *   <li>a request Jetty refuses before any of the service sees it (headers over 8 KB, an address over 8 KB, a
 *       request line that is not HTTP) answers in the spec's error shape (§7), {@code 400 invalid_request} in JSON,
 *       not Jetty's HTML 431 or 414.</li>
 * </ul>
 */
@Configuration
public class HttpServerConfig {
    static final int ACCEPT_QUEUE = 1024;

    @Bean
    WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory> httpServer() {
        return factory -> factory.addServerCustomizers(server -> {
            for (Connector c : server.getConnectors()) {
                if (c instanceof ServerConnector connector) connector.setAcceptQueueSize(ACCEPT_QUEUE);
            }
            server.setErrorHandler(new JsonErrorHandler());
        });
    }

    /** Jetty's own refusals as {@code {error: {code, message}}}: 4xx as 400 {@code invalid_request}, others as they are. */
    static final class JsonErrorHandler extends ErrorHandler {
        private static final JsonMapper JSON = JsonMapper.builder().build();

        @Override
        protected void generateResponse(Request request, Response response, int status, String message, Throwable cause,
                                        Callback callback) {
            ErrorCode code = HttpStatus.isClientError(status) ? ErrorCode.INVALID_REQUEST : ErrorCode.INTERNAL_ERROR;
            String text = switch (status) {
                case HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431 -> "the request's headers are larger than 8 KB";
                case HttpStatus.URI_TOO_LONG_414 -> "the request's address is longer than 8 KB";
                default -> "the request was refused by the HTTP server: " + (message == null ? HttpStatus.getMessage(status) : message);
            };
            if (code == ErrorCode.INVALID_REQUEST) response.setStatus(code.status());
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(JSON.writeValueAsBytes(J.o("error", J.o("code", code.code(), "message", text)))), callback);
        }
    }
}
