package dev.docapi.mcp;

import dev.docapi.core.J;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.List;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers two mistakes in a {@code tools/call} with a JSON-RPC error a model can act on (-32602, HTTP 200), before the
 * MCP SDK sees the message (issue 13): an unknown tool name (the message names the available tools; the SDK's own
 * error keeps that hint in {@code data}), and {@code arguments} that is not a JSON object (the SDK fails to read the
 * message and answers HTTP 400 naming Jackson classes). Every other message passes on unchanged, its body replayed.
 */
class McpCallCheck extends OncePerRequestFilter {
    private final JsonMapper json = JsonMapper.builder().build();
    private final Set<String> tools;
    private final String toolList;

    McpCallCheck(List<String> toolNames) {
        this.tools = Set.copyOf(toolNames);
        this.toolList = String.join(", ", toolNames);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!"POST".equals(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        InputStream in = request.getInputStream();
        byte[] head = in.readNBytes(McpServerConfig.MAX_REQUEST_BYTES + 1);
        String problem = head.length > McpServerConfig.MAX_REQUEST_BYTES ? null : problem(head);
        if (problem == null) {
            chain.doFilter(new Replayed(request, new SequenceInputStream(new ByteArrayInputStream(head), in)), response);
            return;
        }
        JsonNode id = json.readTree(head).get("id");
        response.setStatus(200);
        response.setContentType("application/json");
        response.getOutputStream().write(json.writeValueAsBytes(J.o("jsonrpc", "2.0", "id", id,
                "error", J.o("code", -32602, "message", problem))));
    }

    /** What is wrong with a {@code tools/call} message, or null (also for anything that is not one). */
    private String problem(byte[] body) {
        JsonNode message;
        try {
            message = json.readTree(body);
        } catch (RuntimeException notJson) {
            return null; // the SDK and McpErrorFilter answer it
        }
        if (message == null || !message.isObject() || !"tools/call".equals(message.path("method").asString(null)) || !message.has("id")) return null;
        JsonNode params = message.path("params");
        String name = params.path("name").asString(null);
        if (name == null) return "tools/call needs params.name, one of: " + toolList;
        if (!tools.contains(name)) return "Unknown tool '" + name + "'. The tools are: " + toolList;
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
            return "'arguments' of " + name + " must be a JSON object of the tool's arguments by name (e.g. {\"file\": \"file_...\"}), not "
                    + (arguments.isString() ? "a string holding JSON" : "a " + arguments.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        }
        return null;
    }

    /** The request with its body read again from {@code body}. */
    private static final class Replayed extends HttpServletRequestWrapper {
        private final ServletInputStream body;

        Replayed(HttpServletRequest request, InputStream bytes) {
            super(request);
            this.body = new ServletInputStream() {
                private boolean finished;

                @Override
                public int read() throws IOException {
                    int b = bytes.read();
                    finished = b < 0;
                    return b;
                }

                @Override
                public int read(byte[] buffer, int off, int len) throws IOException {
                    int n = bytes.read(buffer, off, len);
                    finished = n < 0;
                    return n;
                }

                @Override
                public boolean isFinished() {
                    return finished;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the MCP transport reads synchronously");
                }
            };
        }

        @Override
        public ServletInputStream getInputStream() {
            return body;
        }

        @Override
        public java.io.BufferedReader getReader() {
            return new java.io.BufferedReader(new java.io.InputStreamReader(body, java.nio.charset.StandardCharsets.UTF_8));
        }
    }
}
