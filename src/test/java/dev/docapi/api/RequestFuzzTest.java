package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import dev.docapi.support.ApiTestBase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.node.ObjectNode;

/**
 * No request body, query or header produces a 5xx (issue 10 "bad input is 400, always"): for every operation, each
 * option and each common member is replaced in turn by a hostile value (wrong types, huge and negative numbers, an
 * integer beyond 64 bits, control characters, percent garbage, nested arrays, 10,000 characters), the body itself is
 * replaced by non-objects and broken JSON, and the listing queries and headers get garbage. A few hundred requests per
 * operation; every answer must be below 500 (or a job's failure with its operation's own reason: {@link #explained}) and, being a {@code /v1} response, match the OpenAPI description
 * ({@link ApiTestBase#send}). Accepted requests run with {@code wait: 0}, so engines do not slow the test down.
 */
@Isolated("hundreds of hostile requests at the node")
class RequestFuzzTest extends ApiTestBase {
    private static final List<String> HOSTILE = List.of("null", "true", "-1", "0", "1.5", "1e308", "-1e308",
            "99999999999999999999", "\"\"", "\"x\"", "\"\\u0000\\u202e\"", "\"%zz%FF\"", "\"../../etc/passwd\"",
            "\"http://runsc/a b\"", "[]", "[[]]", "[null]", "[1,\"a\"]", "[99999999999999999999]", "{}", "{\"a\":{}}",
            "\"" + "x".repeat(10_000) + "\"");

    @Autowired
    OperationRegistry registry;

    @Test
    void noHostileBodyOfAnyOperationAnswersWithA5xx() throws Exception {
        int requests = 0;
        List<String> fives = new ArrayList<>();
        for (Operation<?> op : registry.all()) {
            if (op.name().startsWith("test-")) continue;
            String key = newKey();
            String pdf = uploadId(key, corpus("pdf-text/form-filled-by-acrobat-3p.pdf"));
            ObjectNode base = json().put("wait", 0);
            if (op.inputs().many()) base.putArray("files").add(pdf).add(pdf);
            else base.put("file", pdf);
            List<String> members = new ArrayList<>(op.options().names());
            members.addAll(List.of("file", "files", "wait", "webhook_url", "unknown_member"));
            List<String> bodies = new ArrayList<>(List.of("", "{", "[]", "\"x\"", "1", "null", "{\"file\":", "{}"));
            for (String member : members) {
                for (String value : HOSTILE) {
                    ObjectNode body = base.deepCopy();
                    body.set(member, JSON.readTree(value));
                    bodies.add(JSON.writeValueAsString(body));
                }
            }
            for (String body : bodies) {
                Response r = send(key, HttpRequest.newBuilder(URI.create(base() + "/" + op.name()))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
                requests++;
                if (r.status() >= 500 && !"service_unavailable".equals(r.code()) && !explained(r)) fives.add(op.name() + " " + abbreviate(body) + " -> " + r);
            }
        }
        String key = newKey();
        for (String value : List.of("-1", "0", "abc", "%FF", "99999999999999999999", "1e3", "")) {
            for (String path : List.of("/files?limit=", "/jobs?limit=", "/files?starting_after=", "/jobs?status=")) {
                Response r = send(key, HttpRequest.newBuilder(URI.create(base() + path + value)).GET());
                requests++;
                if (r.status() >= 500) fives.add(path + value + " -> " + r);
            }
        }
        for (String auth : List.of("Bearer", "Bearer dk_%%_x", "Basic Zm9vOmJhcg==", "Bearer " + "k".repeat(5000))) {
            Response r = send(null, HttpRequest.newBuilder(URI.create(base() + "/usage")).header("Authorization", auth).GET());
            requests++;
            if (r.status() >= 500) fives.add("Authorization: " + abbreviate(auth) + " -> " + r);
        }
        assertThat(requests).isGreaterThan(500);
        assertThat(fives).as("requests answered with a 5xx").isEmpty();
    }

    /**
     * A job that ran (a body without {@code wait: 0} waits for it) and failed with its operation's own reason, as
     * {@code pdfa} does on this form (veraPDF's failed rules): the document's answer, not a crash on the request.
     */
    private static boolean explained(Response r) {
        String message = r.body() == null ? "" : r.body().at("/job/error/message").asString("");
        return !message.isEmpty() && !message.startsWith("the operation failed unexpectedly");
    }

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "…" : s;
    }
}
