package dev.docapi.http;

import dev.docapi.core.J;
import dev.docapi.core.ApiException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the error body {@code {error: {code, message}}} (spec §2.7) from filters, outside Spring MVC, and counts
 * every error answer of the API by code ({@code docapi_api_errors_total{code,status}}, issue 24: 429s by reason).
 */
@Component
public class ErrorWriter {
    private final JsonMapper json;
    private final MeterRegistry meters;

    public ErrorWriter(JsonMapper json, MeterRegistry meters) {
        this.json = json;
        this.meters = meters;
    }

    /** Counts an error answered by any path (these filters, or {@code ApiErrorHandler} in Spring MVC). */
    public void count(ApiException e) {
        meters.counter("docapi.api.errors", "code", e.code().code(), "status", String.valueOf(e.code().status())).increment();
    }

    public void write(HttpServletResponse response, ApiException e) throws IOException {
        count(e);
        response.setStatus(e.code().status());
        response.setContentType("application/json");
        if (e.retryAfterSeconds() != null) response.setHeader("Retry-After", String.valueOf(e.retryAfterSeconds()));
        if (e.code().status() == 401) response.setHeader("WWW-Authenticate", "Bearer");
        response.getOutputStream().write(json.writeValueAsBytes(body(e)));
    }

    public static Map<String, Object> body(ApiException e) {
        return J.o("error", J.o("code", e.code().code(), "message", e.getMessage()));
    }
}
