package dev.docapi.engines.chromium;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
 * A minimal Chrome DevTools Protocol client over the browser's {@code --remote-debugging-pipe} (messages are JSON
 * texts each ended by a NUL byte; the browser reads file descriptor 3 and writes 4): commands (with flattened target
 * sessions) and event listeners. A pipe, not a port, because the browser runs in a sandbox without network (issue
 * 9), and nothing else on the host can reach it. Only what {@link Chromium} needs; one connection is shared by
 * concurrent conversions.
 */
final class DevTools implements AutoCloseable {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A command failed in the browser (the protocol's {@code error} member). */
    /** A call the browser did not answer within its time. */
    static final class NoAnswer extends IOException {
        NoAnswer(String message) {
            super(message);
        }
    }

    static final class ProtocolException extends IOException {
        ProtocolException(String message) {
            super(message);
        }
    }

    private final OutputStream toBrowser;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    /** Listeners by {@code sessionId + " " + method}. */
    private final Map<String, Consumer<JsonNode>> listeners = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private DevTools(OutputStream toBrowser) {
        this.toBrowser = toBrowser;
    }

    /** Speaks the protocol over the browser's pipe ends: {@code fromBrowser} is its fd 4, {@code toBrowser} its fd 3. */
    static DevTools over(InputStream fromBrowser, OutputStream toBrowser) {
        DevTools dt = new DevTools(toBrowser);
        Thread.ofVirtual().name("devtools-reader").start(() -> dt.read(fromBrowser));
        return dt;
    }

    private void read(InputStream from) {
        try (from) {
            ByteArrayOutputStream message = new ByteArrayOutputStream();
            byte[] buf = new byte[1 << 16];
            for (int n; (n = from.read(buf)) != -1; ) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] != 0) continue;
                    message.write(buf, start, i - start);
                    dispatch(message.toString(StandardCharsets.UTF_8));
                    message.reset();
                    start = i + 1;
                }
                message.write(buf, start, n - start);
            }
            fail(new IOException("the browser closed its pipe"));
        } catch (IOException e) {
            fail(e);
        }
    }

    boolean isOpen() {
        return !closed;
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
            write(msg);
            JsonNode reply = f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (reply.has("error")) throw new ProtocolException(method + ": " + reply.get("error").path("message").asString(""));
            return reply.path("result");
        } catch (ExecutionException e) {
            throw new IOException(method + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new NoAnswer(method + " got no answer within " + timeout.toSeconds() + " s");
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
            try {
                write(msg);
            } catch (IOException ignored) {
                // the target is gone or the browser is being restarted
            }
        });
    }

    private void write(ObjectNode msg) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(msg);
        synchronized (toBrowser) { // one whole message at a time
            toBrowser.write(bytes);
            toBrowser.write(0);
            toBrowser.flush();
        }
    }

    void on(String sessionId, String method, Consumer<JsonNode> listener) {
        listeners.put(sessionId + " " + method, listener);
    }

    /** Drops the session's listener of {@code method}. */
    void off(String sessionId, String method) {
        listeners.remove(sessionId + " " + method);
    }

    /** Drops every listener of the session. */
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
        try {
            toBrowser.close();
        } catch (IOException ignored) {
            // the browser is gone already
        }
        fail(null);
    }
}
