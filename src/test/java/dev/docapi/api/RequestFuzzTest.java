package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.Plan;
import dev.docapi.accounts.UsageService;
import dev.docapi.limits.LimitsProperties;
import dev.docapi.limits.Reservations;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import dev.docapi.support.ApiTestBase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.node.ObjectNode;

/**
 * No request body, query or header produces a 5xx (issue 10 "bad input is 400, always"): for every operation, each
 * option and each common member is replaced in turn by a hostile value (wrong types, huge and negative numbers, an
 * integer beyond 64 bits, control characters, percent garbage, nested arrays, 10,000 characters), the body itself is
 * replaced by non-objects and broken JSON, and the listing queries and headers get garbage. A few hundred requests per
 * operation; every answer must be below 500 (or a job's failure with its operation's own reason: {@link #explained}) and, being a {@code /v1} response, match the OpenAPI description
 * ({@link ApiTestBase#send}). The requests come from free accounts whose month of operations is spent: a body that
 * passes validation is answered 402 {@code quota_exceeded} at admission, after every check of its members, instead of
 * running a job nobody reads (about 140 engine runs, OCR and PDF/A among them, a third of CI's engine time; issue 41).
 */
class RequestFuzzTest extends ApiTestBase {
    private static final List<String> HOSTILE = List.of("null", "true", "-1", "0", "1.5", "1e308", "-1e308",
            "99999999999999999999", "\"\"", "\"x\"", "\"\\u0000\\u202e\"", "\"%zz%FF\"", "\"../../etc/passwd\"",
            "\"http://runsc/a b\"", "[]", "[[]]", "[null]", "[1,\"a\"]", "[99999999999999999999]", "{}", "{\"a\":{}}",
            "\"" + "x".repeat(10_000) + "\"");

    @Autowired
    OperationRegistry registry;
    @Autowired
    Reservations reservations;
    @Autowired
    LimitsProperties limits;
    @Autowired
    JdbcClient db;

    @Test
    void noHostileBodyOfAnyOperationAnswersWithA5xx() throws Exception {
        int requests = 0;
        int admitted = 0;
        List<String> fives = new ArrayList<>();
        for (Operation<?> op : registry.all()) {
            if (op.name().startsWith("test-")) continue;
            String key = spentKey();
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
                if (r.status() == 402) admitted++;
                if (r.status() >= 500 && !"service_unavailable".equals(r.code())) fives.add(op.name() + " " + abbreviate(body) + " -> " + r);
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
        assertThat(admitted).as("bodies that passed validation and reached admission").isGreaterThan(100);
        assertThat(fives).as("requests answered with a 5xx").isEmpty();
    }

    /** A free account's key whose operations of this month are all spent (spec §8: 402 {@code quota_exceeded}). */
    private String spentKey() {
        var created = accounts.createAccount("fuzz-" + UUID.randomUUID() + "@example.com", Plan.FREE);
        reservations.ensureCounter(created.account().id());
        db.sql("UPDATE usage_counters SET operations = ? WHERE account_id = ? AND period = ?")
                .params(limits.freeOperations(), created.account().id(), UsageService.currentPeriod()).update();
        return created.apiKey();
    }

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "…" : s;
    }
}
