package dev.docapi.mcp;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.http.ErrorWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Gives the MCP transport's HTTP-level refusals the API's error face {@code {error: {code, message}}} (spec §2.7).
 * The SDK writes its {@code McpError} exception as JSON, stack trace included, for a malformed message or a wrong
 * header, and uses {@code sendError} (Spring's error page) for a refused Origin or method. JSON-RPC answers (status
 * 200/202, including JSON-RPC errors) pass untouched.
 */
class McpErrorFilter extends OncePerRequestFilter {
    private final JsonMapper json = JsonMapper.builder().build();

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Capture capture = new Capture(response);
        chain.doFilter(request, capture);
        if (!capture.error) return;
        response.resetBuffer();
        byte[] written = capture.buffer.toByteArray();
        if (capture.message == null && isApiError(written)) {
            // Already the API's shape (a filter answered): pass it on unchanged.
            response.setStatus(capture.status);
            response.getOutputStream().write(written);
            return;
        }
        ApiException e = translate(capture.status, capture.message != null ? capture.message : messageOf(capture.buffer.toByteArray()));
        // A refused Origin keeps the 403 the MCP transport rules require; everything else takes its code's status.
        response.setStatus(capture.status == 403 ? 403 : e.code().status());
        response.setContentType("application/json");
        response.getOutputStream().write(json.writeValueAsBytes(ErrorWriter.body(e)));
    }

    private ApiException translate(int status, String detail) {
        return switch (status) {
            case 403 -> ApiException.invalid("this Origin may not call the MCP endpoint" + (detail == null ? "" : " (" + detail + ")")
                    + "; allow it with DOCAPI_MCP_ALLOWED_ORIGINS");
            case 405 -> new ApiException(ErrorCode.METHOD_NOT_ALLOWED, "the MCP endpoint is stateless: POST JSON-RPC messages "
                    + "(no GET event stream, no sessions to DELETE)");
            case 413 -> ApiException.invalid("the MCP request is too large; send files over 10 MB by URL or upload them with POST /v1/files");
            default -> ApiException.invalid("not a valid MCP request" + (detail == null ? "" : ": " + detail)
                    + " (POST JSON-RPC with Content-Type: application/json and Accept: application/json, text/event-stream)");
        };
    }

    private boolean isApiError(byte[] body) {
        try {
            return body.length > 0 && json.readTree(body).path("error").path("code").isString();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private String messageOf(byte[] body) {
        if (body.length == 0) return null;
        try {
            JsonNode node = json.readTree(body);
            String m = node.path("jsonRpcError").path("message").asString(null);
            return m != null ? m : node.path("message").asString(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Holds back anything the transport writes with an error status. */
    private static final class Capture extends HttpServletResponseWrapper {
        final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int status = 200;
        boolean error;
        String message;

        Capture(HttpServletResponse response) {
            super(response);
        }

        @Override
        public void setStatus(int sc) {
            status = sc;
            if (sc >= 400) error = true;
            else super.setStatus(sc);
        }

        @Override
        public void sendError(int sc, String msg) {
            status = sc;
            error = true;
            message = msg;
        }

        @Override
        public void sendError(int sc) {
            sendError(sc, null);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (!error) return super.getOutputStream();
            return new ServletOutputStream() {
                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                }

                @Override
                public void write(int b) {
                    buffer.write(b);
                }
            };
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (!error) return super.getWriter();
            return new PrintWriter(new OutputStreamWriter(buffer, StandardCharsets.UTF_8), true);
        }
    }
}
