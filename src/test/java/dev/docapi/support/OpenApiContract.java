package dev.docapi.support;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

/**
 * Checks real responses against the service's own OpenAPI description (issue 5): the path and method must be
 * described, the status documented for that operation, its required headers present and valid, the media type
 * documented and a JSON body valid against the response schema (closed objects: an undocumented member fails).
 * Schemas are JSON Schema 2020-12 (OpenAPI 3.1), checked with networknt json-schema-validator; {@code $ref}s resolve
 * inside the fetched document.
 *
 * <p>Requests to paths the description does not have are accepted only when the service answered 404
 * {@code not_found}/{@code unknown_operation} or 405 {@code method_not_allowed} with an Error body.
 */
public final class OpenApiContract {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String DOC = "https://docapi.invalid/v1/openapi.json";
    private static final Map<String, OpenApiContract> BY_BASE = new ConcurrentHashMap<>();

    private final JsonNode doc;
    private final SchemaRegistry registry;
    private final Map<String, Schema> compiled = new ConcurrentHashMap<>();
    private final List<PathTemplate> templates = new ArrayList<>();
    /** The body of the service's answer to an undescribed path or method (spec §2.7 error object). */
    private final Schema genericError;

    private record PathTemplate(String path, Pattern pattern, boolean literal) {
    }

    private OpenApiContract(JsonNode doc) {
        this.doc = doc;
        String text = JSON.writeValueAsString(doc);
        this.registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemas(Map.of(DOC, text)));
        for (String path : doc.get("paths").propertyNames()) {
            boolean literal = !path.contains("{");
            String regex = Pattern.quote(path).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q");
            templates.add(new PathTemplate(path, Pattern.compile(regex), literal));
        }
        templates.sort((a, b) -> Boolean.compare(b.literal(), a.literal()));
        genericError = registry.getSchema(JSON.readTree("""
                {"type": "object", "required": ["error"], "additionalProperties": false, "properties": {"error": {
                  "type": "object", "required": ["code", "message"], "additionalProperties": false, "properties": {
                    "code": {"enum": ["not_found", "unknown_operation", "method_not_allowed"]}, "message": {"type": "string"}}}}}"""));
    }

    /** The description served at {@code base}/openapi.json, fetched once. */
    public static OpenApiContract of(String base) {
        return BY_BASE.computeIfAbsent(base, b -> {
            try {
                HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(b + "/openapi.json"))
                        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() != 200) throw new AssertionError("GET /openapi.json answered " + r.statusCode());
                return new OpenApiContract(JSON.readTree(r.body()));
            } catch (java.io.IOException | InterruptedException e) {
                throw new IllegalStateException("cannot fetch the OpenAPI description", e);
            }
        });
    }

    public JsonNode document() {
        return doc;
    }

    /** @throws AssertionError naming every way the response departs from the description */
    public void check(String method, URI uri, int status, HttpHeaders headers, byte[] body) {
        List<String> problems = problems(method, uri, status, headers, body);
        if (!problems.isEmpty()) {
            throw new AssertionError("response not as the OpenAPI description says: " + method + " " + uri.getPath() + " -> " + status
                    + "\n  " + String.join("\n  ", problems) + "\n  body: " + abbreviate(new String(body, java.nio.charset.StandardCharsets.UTF_8)));
        }
    }

    /** The departures, empty when the response is as described. */
    public List<String> problems(String method, URI uri, int status, HttpHeaders headers, byte[] body) {
        List<String> problems = new ArrayList<>();
        String path = uri.getPath().replaceFirst("^/v1", "");
        if (path.isEmpty()) path = "/";
        String m = method.toLowerCase(Locale.ROOT);
        boolean head = m.equals("head");
        if (head) m = "get";
        String template = match(path);
        JsonNode operation = template == null ? null : doc.get("paths").get(template).get(m);
        if (operation == null) {
            // Not described: only the generic "no such endpoint/method" answers are acceptable.
            JsonNode json = parse(body, problems);
            String code = json == null ? null : json.at("/error/code").asString(null);
            boolean generic = (status == 404 && ("not_found".equals(code) || "unknown_operation".equals(code)))
                    || (status == 405 && "method_not_allowed".equals(code));
            if (!generic) problems.add((template == null ? "path " + path : m.toUpperCase(Locale.ROOT) + " " + template) + " is not described");
            else for (Error e : genericError.validate(json)) problems.add(e.getInstanceLocation() + ": " + e.getMessage());
            return problems;
        }
        JsonNode responses = operation.get("responses");
        String key = String.valueOf(status);
        if (!responses.has(key)) key = (status / 100) + "XX";
        if (!responses.has(key)) key = "default";
        if (!responses.has(key)) {
            problems.add("status " + status + " is not documented for " + m.toUpperCase(Locale.ROOT) + " " + template + " (documented: "
                    + responses.propertyNames() + ")");
            return problems;
        }
        String responsePointer = pointer("paths", template, m, "responses", key);
        JsonNode rawResponse = responses.get(key);
        if (rawResponse.has("$ref")) responsePointer = rawResponse.get("$ref").asString().substring(1);
        JsonNode response = doc.at(responsePointer);
        for (String name : response.path("headers").propertyNames()) {
            JsonNode rawHeader = response.get("headers").get(name);
            String headerPointer = rawHeader.has("$ref") ? rawHeader.get("$ref").asString().substring(1)
                    : responsePointer + pointer("headers", name);
            JsonNode header = doc.at(headerPointer);
            var value = headers.firstValue(name);
            if (value.isEmpty()) {
                if (header.path("required").asBoolean(false)) problems.add("required header " + name + " is missing");
                continue;
            }
            if (header.has("schema")) {
                for (Error e : schema(headerPointer + "/schema").validate(StringNode.valueOf(value.get()))) {
                    problems.add("header " + name + ": " + e.getMessage());
                }
            }
        }
        if (head || body.length == 0) {
            if (!head && response.has("content") && status != 204) problems.add("an empty body, but the description has content " + response.get("content").propertyNames());
            return problems;
        }
        String type = headers.firstValue("Content-Type").orElse("").split(";")[0].strip().toLowerCase(Locale.ROOT);
        JsonNode media = response.path("content").get(type);
        if (media == null) {
            problems.add("media type '" + type + "' is not documented (documented: " + response.path("content").propertyNames() + ")");
            return problems;
        }
        if (type.endsWith("json")) {
            JsonNode json = parse(body, problems);
            if (json != null && media.has("schema")) {
                problems.addAll(validate(json, responsePointer + pointer("content", type, "schema")));
            }
        }
        return problems;
    }

    /**
     * A webhook delivery (spec §6) against {@code webhooks.<type>.post} (following a {@code $ref} to
     * {@code components.pathItems}): its required header parameters and its JSON body.
     */
    public List<String> webhookProblems(String type, Map<String, String> headers, byte[] body) {
        List<String> problems = new ArrayList<>();
        String item = pointer("webhooks", type);
        String ref = doc.at(item).path("$ref").asString("");
        String op = (ref.startsWith("#/") ? ref.substring(1) : item) + "/post";
        if (doc.at(op).isMissingNode()) return List.of("webhook " + type + " is not described");
        JsonNode params = doc.at(op + "/parameters");
        for (int i = 0; i < params.size(); i++) {
            JsonNode p = params.get(i);
            String value = headers.get(p.path("name").asString());
            if (value == null) {
                if (p.path("required").asBoolean(false)) problems.add("required header " + p.path("name").asString() + " is missing");
                continue;
            }
            for (Error e : schema(op + "/parameters/" + i + "/schema").validate(StringNode.valueOf(value))) {
                problems.add("header " + p.path("name").asString() + ": " + e.getMessage());
            }
        }
        JsonNode json = parse(body, problems);
        if (json != null) problems.addAll(validate(json, op + pointer("requestBody", "content", "application/json", "schema")));
        return problems;
    }

    private List<String> validate(JsonNode json, String schemaPointer) {
        List<String> out = new ArrayList<>();
        for (Error e : schema(schemaPointer).validate(json)) out.add(e.getInstanceLocation() + ": " + e.getMessage());
        return out;
    }

    /** The schema at a JSON pointer inside the description, so its {@code $ref}s resolve in the document. */
    private Schema schema(String jsonPointer) {
        return compiled.computeIfAbsent(jsonPointer, p -> registry.getSchema(SchemaLocation.of(DOC + "#" + fragment(p))));
    }

    /** A JSON pointer from raw segments: {@code ~} and {@code /} escaped (RFC 6901). */
    private static String pointer(String... segments) {
        StringBuilder b = new StringBuilder();
        for (String s : segments) b.append('/').append(s.replace("~", "~0").replace("/", "~1"));
        return b.toString();
    }

    /** A JSON pointer as a URI fragment (RFC 6901 §6): characters outside the fragment set percent-encoded. */
    private static String fragment(String jsonPointer) {
        StringBuilder b = new StringBuilder();
        for (char c : jsonPointer.toCharArray()) {
            if (Character.isLetterOrDigit(c) || "-._~!$&'()*+,;=:@/?".indexOf(c) >= 0) b.append(c);
            else b.append('%').append(String.format("%02X", (int) c));
        }
        return b.toString();
    }

    private String match(String path) {
        for (PathTemplate t : templates) if (t.pattern().matcher(path).matches()) return t.path();
        return null;
    }

    private static JsonNode parse(byte[] body, List<String> problems) {
        if (body.length == 0) return null;
        try {
            return JSON.readTree(body);
        } catch (RuntimeException e) {
            problems.add("the body is not JSON");
            return null;
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
    }

    /** Convenience for tests that hold a whole {@link HttpResponse}. */
    public void check(HttpRequest request, HttpResponse<byte[]> response) {
        check(request.method(), request.uri(), response.statusCode(), response.headers(), response.body());
    }
}
