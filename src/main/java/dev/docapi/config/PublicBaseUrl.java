package dev.docapi.config;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The base address clients see, ending in {@code /v1}: {@code DOCAPI_PUBLIC_BASE_URL}, or
 * {@code http://localhost:<port>/v1} with the port the server actually listens on.
 */
@Component
public class PublicBaseUrl {
    private final DocapiProperties props;
    private volatile int actualPort;

    public PublicBaseUrl(DocapiProperties props) {
        this.props = props;
        this.actualPort = props.port();
    }

    @EventListener
    void onStarted(WebServerInitializedEvent event) {
        actualPort = event.getWebServer().getPort();
    }

    /** e.g. {@code http://localhost:8080/v1}, without a trailing slash. */
    public String get() {
        String url = props.publicBaseUrl() == null || props.publicBaseUrl().isBlank()
                ? "http://localhost:" + actualPort + "/v1" : props.publicBaseUrl();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** The developer area's root, {@link #get()} without its {@code /v1}, e.g. {@code http://localhost:8080}. */
    public String site() {
        String api = get();
        return api.endsWith("/v1") ? api.substring(0, api.length() - 3) : api;
    }
}
