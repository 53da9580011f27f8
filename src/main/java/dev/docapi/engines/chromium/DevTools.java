package dev.docapi.engines.chromium;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A minimal Chrome DevTools Protocol client over the JDK's WebSocket: commands (with flattened target sessions) and
 * event listeners. Only what {@link Chromium} needs; one connection is shared by concurrent conversions.
 */
final class DevTools implements AutoCloseable {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A command failed in the browser (the protocol's {@code error} member). */
    static final class ProtocolException extends IOException {
        ProtocolException(String message) {
            super(message);
        }
    }

    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    /** Listeners by {@code sessionId + " " + method}. */
    private final Map<String, Consumer<JsonNode>> listeners = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private DevTools(WebSocket socket) {
        this.socket = socket;
    }

    static DevTools connect(URI browserUrl, Duration timeout) throws IOException {
        Receiver receiver = new Receiver();
        try {
            WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(timeout)
                    .buildAsync(browserUrl, receiver).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            DevTools dt = new DevTools(ws);
            receiver.owner = dt;
            return dt;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to Chromium", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("could not connect to Chromium's DevTools endpoint: " + e, e);
        }
    }

    boolean isOpen() {
        return !closed && !socket.isOutputClosed() && !socket.isInputClosed();
    }

    /** Sends {@code method} (to a target session, or to the browser when {@code sessionId} is null) and waits for its result. */
    JsonNode call(String sessionId, String method, ObjectNode params, Duration timeout) throws IOException, InterruptedException {
        int id = ids.incrementAndGet();
        ObjectNode msg = JSON.createObjectNode();
        msg.put("id", id);
        msg.put("method", method);
        msg.set("params", params != null ? params : JSON.createObjectNode());
        if (sessionId != null) msg.put("sessionId", sessionId);
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        try {
            if (closed) throw new IOException("the connection to Chromium is closed");
            synchronized (socket) { // the JDK WebSocket allows one outstanding send at a time
                socket.sendText(JSON.writeValueAsString(msg), true).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            JsonNode reply = f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (reply.has("error")) throw new ProtocolException(method + ": " + reply.get("error").path("message").asString(""));
            return reply.path("result");
        } catch (ExecutionException e) {
            throw new IOException(method + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(method + " got no answer within " + timeout.toSeconds() + " s");
        } finally {
            pending.remove(id);
        }
    }

    /** Fire-and-forget command (e.g. answering a paused request from the event thread). */
    void send(String sessionId, String method, ObjectNode params) {
        ObjectNode msg = JSON.createObjectNode();
        msg.put("id", ids.incrementAndGet());
        msg.put("method", method);
        msg.set("params", params);
        if (sessionId != null) msg.put("sessionId", sessionId);
        Thread.ofVirtual().start(() -> {
            synchronized (socket) {
                try {
                    socket.sendText(JSON.writeValueAsString(msg), true).get(10, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // the target is gone or the browser is being restarted
                }
            }
        });
    }

    void on(String sessionId, String method, Consumer<JsonNode> listener) {
        listeners.put(sessionId + " " + method, listener);
    }

    void forget(String sessionId) {
        listeners.keySet().removeIf(k -> k.startsWith(sessionId + " "));
    }

    static ObjectNode params() {
        return JSON.createObjectNode();
    }

    private void dispatch(String text) {
        JsonNode msg;
        try {
            msg = JSON.readTree(text);
        } catch (RuntimeException e) {
            return;
        }
        if (msg.has("id")) {
            CompletableFuture<JsonNode> f = pending.get(msg.get("id").asInt());
            if (f != null) f.complete(msg);
            return;
        }
        Consumer<JsonNode> l = listeners.get(msg.path("sessionId").asString("null") + " " + msg.path("method").asString(""));
        if (l != null) {
            try {
                l.accept(msg.path("params"));
            } catch (RuntimeException ignored) {
                // a listener's failure must not stop the reader
            }
        }
    }

    private void fail(Throwable why) {
        closed = true;
        pending.values().forEach(f -> f.completeExceptionally(new IOException("Chromium closed the connection", why)));
    }

    @Override
    public void close() {
        closed = true;
        socket.abort();
        fail(null);
    }

    /** Joins fragmented text frames (printToPDF answers can be megabytes) and hands whole messages on. */
    private static final class Receiver implements WebSocket.Listener {
        private final StringBuilder buffer = new StringBuilder();
        volatile DevTools owner;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            buffer.append(data);
            if (last) {
                String text = buffer.toString();
                buffer.setLength(0);
                if (owner != null) owner.dispatch(text);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
            if (owner != null) owner.fail(new IOException("closed: " + status + " " + reason));
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            if (owner != null) owner.fail(error);
        }
    }
}
