package dev.docapi.ai;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stand-in for the hosted model providers on loopback: it records each request docapi sends and answers from a
 * script, in the providers' documented wire formats — OpenAI chat completions (also used by OpenRouter and custom/
 * servers), Anthropic messages and Gemini generateContent. Paths: {@code /openai/v1}, {@code /openrouter/v1},
 * {@code /custom/v1}, {@code /anthropic/v1}, {@code /google/v1beta}. Key checks ({@code GET .../models},
 * OpenRouter's {@code GET .../key}) accept any key containing "good".
 */
public final class ScriptedModelServer {
    public static final JsonMapper JSON = JsonMapper.builder().build();

    /** One request as received. */
    public record Recorded(String method, String path, Map<String, List<String>> headers, JsonNode body) {
        public String header(String name) {
            for (var e : headers.entrySet()) if (e.getKey().equalsIgnoreCase(name)) return e.getValue().getFirst();
            return null;
        }
    }

    /** A scripted reply. */
    public record Reply(int status, String body) {
    }

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Function<Recorded, Reply>> script = new ConcurrentLinkedQueue<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();

    public ScriptedModelServer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    public String base(String provider) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + provider + (provider.equals("google") ? "/v1beta" : "/v1");
    }

    /** Clears the recorded requests and the script, then queues {@code replies} in order. */
    @SafeVarargs
    public final void script(Function<Recorded, Reply>... replies) {
        script.clear();
        requests.clear();
        script.addAll(List.of(replies));
    }

    /** The model calls received since the last {@link #script} (key checks excluded). */
    public List<Recorded> calls() {
        return requests.stream().filter(r -> r.method().equals("POST")).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = ex.getRequestURI().getPath();
            Recorded r = new Recorded(ex.getRequestMethod(), path, ex.getRequestHeaders(), body.isBlank() ? null : JSON.readTree(body));
            requests.add(r);
            Reply reply;
            if (r.method().equals("GET")) {
                String auth = String.valueOf(r.header("Authorization")) + r.header("x-api-key") + r.header("x-goog-api-key");
                reply = auth.contains("good") ? new Reply(200, "{\"object\":\"list\",\"data\":[]}") : new Reply(401, "{\"error\":{\"message\":\"invalid key\"}}");
            } else {
                Function<Recorded, Reply> next = script.poll();
                reply = next == null ? new Reply(500, "{\"error\":{\"message\":\"no scripted reply\"}}") : next.apply(r);
            }
            byte[] out = reply.body().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(reply.status(), out.length);
            ex.getResponseBody().write(out);
        }
    }

    // ---- documented response shapes ----

    /** OpenAI chat completion with assistant text. */
    public static Function<Recorded, Reply> openAiText(String text) {
        return r -> {
            ObjectNode msg = JSON.createObjectNode().put("role", "assistant").put("content", text);
            return new Reply(200, openAiCompletion(msg, "stop").toString());
        };
    }

    /** OpenAI chat completion with the given JSON object as the assistant's content (JSON-schema mode). */
    public static Function<Recorded, Reply> openAiJson(String json) {
        return openAiText(json);
    }

    /** OpenAI chat completion calling one tool. */
    public static Function<Recorded, Reply> openAiToolCall(String id, String tool, Function<Recorded, String> arguments) {
        return r -> {
            ObjectNode msg = JSON.createObjectNode().put("role", "assistant");
            msg.putNull("content");
            ObjectNode call = msg.putArray("tool_calls").addObject().put("id", id).put("type", "function");
            call.putObject("function").put("name", tool).put("arguments", arguments.apply(r));
            return new Reply(200, openAiCompletion(msg, "tool_calls").toString());
        };
    }

    private static ObjectNode openAiCompletion(ObjectNode message, String finish) {
        ObjectNode n = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion").put("created", 1_700_000_000).put("model", "scripted");
        n.putArray("choices").addObject().put("index", 0).put("finish_reason", finish).set("message", message);
        n.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
        return n;
    }

    /** Anthropic messages response with text. */
    public static Function<Recorded, Reply> anthropicText(String text) {
        return r -> {
            ObjectNode n = JSON.createObjectNode().put("id", "msg_1").put("type", "message").put("role", "assistant").put("model", "scripted");
            n.putArray("content").addObject().put("type", "text").put("text", text);
            n.put("stop_reason", "end_turn");
            n.putObject("usage").put("input_tokens", 10).put("output_tokens", 5);
            return new Reply(200, n.toString());
        };
    }

    /** Gemini generateContent response with text. */
    public static Function<Recorded, Reply> geminiText(String text) {
        return r -> {
            ObjectNode n = JSON.createObjectNode();
            ObjectNode c = n.putArray("candidates").addObject();
            c.putObject("content").put("role", "model").putArray("parts").addObject().put("text", text);
            c.put("finishReason", "STOP");
            n.putObject("usageMetadata").put("promptTokenCount", 10).put("candidatesTokenCount", 5).put("totalTokenCount", 15);
            return new Reply(200, n.toString());
        };
    }

    /** An error status with the provider's error body. */
    public static Function<Recorded, Reply> error(int status) {
        return r -> new Reply(status, "{\"error\":{\"message\":\"scripted " + status + "\",\"type\":\"" + (status == 429 ? "rate_limit_error" : "server_error") + "\"}}");
    }
}
