package dev.docapi.management;

import dev.docapi.config.MasterKey;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bin/docapi admin} as a thin client of the running service's admin API ({@link AdminApi}; issue 24): no Spring
 * context, no database connection, so a command answers in well under a second. It reaches
 * {@code http://127.0.0.1:$DOCAPI_MANAGEMENT_PORT} (default 8081; the host is {@code DOCAPI_MANAGEMENT_ADDRESS} when
 * that names one address rather than every interface) with {@code DOCAPI_ADMIN_TOKEN}, or the token derived
 * from {@code DOCAPI_SECRET} or the key file in {@code DOCAPI_DATA_DIR}. When no service answers there (or it is not
 * docapi's), {@link #run} returns empty and the caller runs the command in a JVM of its own, as before.
 */
public final class AdminClient {
    private static final Duration CONNECT = Duration.ofSeconds(1);
    /** add-provider-key asks the provider, rotate-master-key re-seals every secret: give them time. */
    private static final Duration ANSWER = Duration.ofMinutes(10);

    private AdminClient() {
    }

    /** Where the management port listens, as a URI host: loopback unless it is bound to one other address. */
    static String host(String address) {
        if (address == null || address.isBlank() || address.strip().equals("0.0.0.0") || address.strip().equals("::")) return "127.0.0.1";
        String a = address.strip();
        return a.contains(":") && !a.startsWith("[") ? "[" + a + "]" : a;
    }

    /**
     * Runs the command in the service, printing what it printed.
     *
     * @return its exit code, or empty when no service's admin API could be reached (run it directly instead)
     */
    public static OptionalInt run(String[] args, Map<String, String> env) throws InterruptedException {
        Optional<String> token;
        try {
            token = Optional.ofNullable(env.get("DOCAPI_ADMIN_TOKEN")).filter(t -> !t.isBlank())
                    .or(() -> derivedToken(env));
        } catch (RuntimeException e) {
            return OptionalInt.empty();
        }
        if (token.isEmpty()) return OptionalInt.empty();
        String port = env.getOrDefault("DOCAPI_MANAGEMENT_PORT", "8081");
        JsonMapper json = JsonMapper.builder().build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host(env.get("DOCAPI_MANAGEMENT_ADDRESS")) + ":" + port + "/admin/commands"))
                .timeout(ANSWER)
                .header("Authorization", "Bearer " + token.get())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(Map.of("args", List.of(args))))).build();
        HttpResponse<String> response;
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT).build()) {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException | HttpConnectTimeoutException e) {
            return OptionalInt.empty();
        } catch (IOException e) {
            return OptionalInt.empty();
        }
        if (response.statusCode() == 401) {
            System.err.println("admin: the service on port " + port + " refused the admin token; set DOCAPI_ADMIN_TOKEN to the service's");
            return OptionalInt.of(1);
        }
        JsonNode body;
        try {
            body = response.statusCode() == 200 ? json.readTree(response.body()) : null;
        } catch (RuntimeException notJson) {
            body = null;
        }
        if (body == null || !body.has("exit_code")) return OptionalInt.empty(); // not docapi's admin API
        System.out.print(body.path("stdout").asString(""));
        System.err.print(body.path("stderr").asString(""));
        return OptionalInt.of(body.get("exit_code").asInt());
    }

    private static Optional<String> derivedToken(Map<String, String> env) {
        try {
            return MasterKey.adminToken(Path.of(env.getOrDefault("DOCAPI_DATA_DIR", "./data")), env.get("DOCAPI_SECRET"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
