package dev.docapi.api;

import dev.docapi.core.J;
import dev.docapi.core.ApiException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** Writes the error body {@code {error: {code, message}}} (spec §2.7) from filters, outside Spring MVC. */
@Component
public class ErrorWriter {
    private final JsonMapper json;

    public ErrorWriter(JsonMapper json) {
        this.json = json;
    }

    public void write(HttpServletResponse response, ApiException e) throws IOException {
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
