package dev.docapi.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import dev.docapi.operations.OutputMember;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.OpenApiContract;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The OpenAPI 3.1 description (spec §4.2, §9) and the response check every integration test runs through. */
class OpenApiDocumentTest extends ApiTestBase {

    @Autowired
    OperationRegistry registry;

    @Test
    void descriptionIsServedWithoutAKeyAsOpenApi31WithVersionAndServer() throws Exception {
        Response r = get(null, "/openapi.json");
        assertThat(r.status()).isEqualTo(200);
        JsonNode doc = r.body();
        assertThat(doc.path("openapi").asString()).isEqualTo("3.1.0");
        assertThat(doc.at("/info/version").asString()).isEqualTo("1.0.0");
        assertThat(doc.at("/servers/0/url").asString()).isEqualTo(base());
        assertThat(doc.at("/components/securitySchemes/bearerAuth/scheme").asString()).isEqualTo("bearer");
        assertThat(doc.at("/components/securitySchemes/apiKeyHeader/name").asString()).isEqualTo("X-API-Key");
        for (String hook : List.of("job.succeeded", "job.failed")) {
            // described once in components.pathItems, so generated clients leave the deliveries out (issue 13)
            assertThat(doc.at("/webhooks/" + hook + "/$ref").asString()).isEqualTo("#/components/pathItems/" + hook);
            JsonNode post = doc.at("/components/pathItems/" + hook + "/post");
            assertThat(post.at("/tags/0").asString()).isEqualTo("Webhooks");
            assertThat(post.at("/parameters/0/name").asString()).isEqualTo("Service-Signature");
        }
        // the service object links to it (DESIGN §4)
        assertThat(get(null, "").body().path("openapi_url").asString()).isEqualTo(base() + "/openapi.json");
        // scripts/check-openapi lints and generates a client from this dump
        Path out = Path.of("target", "openapi.json");
        Files.createDirectories(out.getParent());
        Files.write(out, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc));
    }

    @Test
    void everyOperationHasARequestSchemaWhosePropertiesAreItsOptionSchema() {
        JsonNode doc = get(null, "/openapi.json").body();
        assertThat(registry.all()).isNotEmpty();
        for (Operation<?> op : registry.all()) {
            JsonNode post = doc.at("/paths/~1" + op.name() + "/post");
            assertThat(post.isMissingNode()).as(op.name()).isFalse();
            assertThat(post.path("operationId").asString()).isEqualTo(op.toolName());
            String ref = post.at("/requestBody/content/application~1json/schema/$ref").asString();
            JsonNode schema = doc.at(ref.substring(1));
            ObjectNode options = ((ObjectNode) schema.get("properties")).deepCopy();
            options.remove(List.of(op.inputs().member(), "wait", "webhook_url"));
            assertThat(options).as(op.name()).isEqualTo(JSON.valueToTree(op.options().properties()));
            List<String> required = new ArrayList<>();
            required.add(op.inputs().member());
            required.addAll(op.options().required());
            assertThat(schema.get("required").valueStream().map(JsonNode::asString).toList()).as(op.name()).isEqualTo(required);
            assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
            for (String status : List.of("200", "202", "400", "401", "402", "404", "410", "429", "502")) {
                assertThat(post.at("/responses/" + status).isMissingNode()).as(op.name() + " " + status).isFalse();
            }
            assertThat(post.at("/responses/202/headers/Location").isMissingNode()).isFalse();
            assertThat(post.at("/responses/429/headers/Retry-After").isMissingNode()).isFalse();
        }
    }

    @Test
    void theJobsOutputMembersAreTheDeclaredOnesNamingTheOperationsThatReturnThem() {
        JsonNode output = get(null, "/openapi.json").body().at("/components/schemas/Job/properties/output");
        assertThat(output.path("properties").propertyNames()).containsExactlyElementsOf(OutputMember.ALL.stream().map(OutputMember::id).toList());
        String description = output.path("description").asString();
        for (OutputMember m : OutputMember.ALL) {
            assertThat(output.at("/properties/" + m.id())).as(m.id()).isEqualTo(JSON.valueToTree(m.schema()));
            if (m == OutputMember.FILES) continue;
            String who = description.replaceFirst("(?s).*\\b" + m.id() + " \\(([^)]*)\\).*", "$1");
            for (Operation<?> op : registry.all()) {
                assertThat(List.of(who.split("[,;] "))).as(m.id() + " / " + op.name()).matches(names -> names.contains(op.name()) == op.spec().outputs().contains(m));
            }
        }
    }

    @Test
    void theResponseCheckRejectsAnUndocumentedMemberStatusOrMissingHeader() {
        String key = newKey();
        JsonNode file = upload(key, corpus("pdf-text/rotated-page-90.pdf"));
        OpenApiContract contract = OpenApiContract.of(base());
        URI uri = URI.create(base() + "/files/" + file.get("id").asString());
        HttpHeaders json = HttpHeaders.of(Map.of("Content-Type", List.of("application/json")), (a, b) -> true);
        byte[] good = JSON.writeValueAsBytes(file);
        assertThat(contract.problems("GET", uri, 200, json, good)).isEmpty();

        ObjectNode extra = ((ObjectNode) file).deepCopy().put("colour", "blue");
        assertThat(contract.problems("GET", uri, 200, json, JSON.writeValueAsBytes(extra))).singleElement().asString().contains("colour");
        ObjectNode wrongType = ((ObjectNode) file).deepCopy().put("size", "big");
        assertThat(contract.problems("GET", uri, 200, json, JSON.writeValueAsBytes(wrongType))).isNotEmpty();
        assertThat(contract.problems("GET", uri, 418, json, good)).singleElement().asString().contains("418");
        byte[] limited = "{\"error\":{\"code\":\"rate_limited\",\"message\":\"slow down\"}}".getBytes(StandardCharsets.UTF_8);
        assertThat(contract.problems("GET", uri, 429, json, limited)).singleElement().asString().contains("Retry-After");
        byte[] wrongCode = "{\"error\":{\"code\":\"file_expired\",\"message\":\"x\"}}".getBytes(StandardCharsets.UTF_8);
        assertThat(contract.problems("GET", uri, 404, json, wrongCode)).isNotEmpty();
        assertThat(contract.problems("GET", URI.create(base() + "/nowhere"), 200, json, good)).isNotEmpty();
    }

    @Test
    void webhookDeliveriesMatchTheWebhooksSection() throws Exception {
        List<String[]> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            received.add(new String[] {new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8),
                    exchange.getRequestHeaders().getFirst("Service-Signature"), exchange.getRequestHeaders().getFirst("webhook-id"),
                    exchange.getRequestHeaders().getFirst("webhook-timestamp"), exchange.getRequestHeaders().getFirst("webhook-signature")});
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        try {
            String key = newKey();
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
            String file = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
            assertThat(post(key, "/rotate", Map.of("file", file, "angle", 90, "webhook_url", url)).status()).isEqualTo(200);
            long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
            while (received.isEmpty() && System.nanoTime() < end) Thread.sleep(100);
            assertThat(received).as("a delivery arrived").isNotEmpty();
            String[] delivery = received.getFirst();
            JsonNode event = JSON.readTree(delivery[0]);
            assertThat(event.path("type").asString()).isEqualTo("job.succeeded");
            assertThat(event.path("id").asString()).as("the event's id is the delivery's").isEqualTo(delivery[2]);
            Map<String, String> headers = Map.of("Service-Signature", delivery[1], "webhook-id", delivery[2], "webhook-timestamp", delivery[3],
                    "webhook-signature", delivery[4]);
            assertThat(OpenApiContract.of(base()).webhookProblems("job.succeeded", headers, delivery[0].getBytes(StandardCharsets.UTF_8))).isEmpty();
            assertThat(OpenApiContract.of(base()).webhookProblems("job.succeeded", Map.of(),
                    "{\"type\":\"job.done\"}".getBytes(StandardCharsets.UTF_8))).hasSizeGreaterThanOrEqualTo(2);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void realErrorAnswersMatchTheDescription() {
        String key = newKey();
        // each of these goes through the response check in ApiTestBase.send
        assertThat(get(null, "/files").status()).isEqualTo(401);
        assertThat(get("dk_wrong", "/jobs").status()).isEqualTo(401);
        assertThat(get(key, "/files/file_nope").code()).isEqualTo("file_not_found");
        assertThat(get(key, "/jobs/job_nope").code()).isEqualTo("job_not_found");
        assertThat(get(key, "/files?limit=0").code()).isEqualTo("invalid_request");
        assertThat(post(key, "/rotate", Map.of("file", "file_nope", "angle", 90)).code()).isEqualTo("file_not_found");
        assertThat(post(key, "/no-such-operation", Map.of()).code()).isEqualTo("unknown_operation");
        Response accepted = post(key, "/rotate", Map.of("file", uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf")), "angle", 180, "wait", 0));
        assertThat(accepted.status()).isIn(200, 202);
        assertThat(get(key, "/jobs").status()).isEqualTo(200);
        assertThat(get(key, "/files").body().path("data").size()).isGreaterThan(0);
    }
}
