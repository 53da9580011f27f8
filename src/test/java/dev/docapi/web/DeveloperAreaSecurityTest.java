package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.LoginLinks;
import dev.docapi.support.ApiTestBase;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The developer area's security over real HTTP (issue 11): CSRF, ownership, throttling, the key shown once, /v1 as before. */
@Tag("database")
class DeveloperAreaSecurityTest extends ApiTestBase {
    private static final Pattern NEW_KEY = Pattern.compile("id=\"new-key\" type=\"text\" readonly value=\"(dk_[A-Za-z0-9_]+)\"");
    private static final String PASSWORD = "correct horse battery";

    @Autowired
    LoginLinks links;
    @Autowired
    dev.docapi.operations.OperationRegistry operations;

    private static String email() {
        return "area-" + UUID.randomUUID() + "@example.com";
    }

    private AreaClient signedUp(String email) {
        AreaClient c = new AreaClient(port);
        HttpResponse<String> r = c.signUp(email, PASSWORD);
        assertThat(r.statusCode()).isEqualTo(302);
        assertThat(AreaClient.location(r)).endsWith("/keys");
        return c;
    }

    private static String createKey(AreaClient c, String name) {
        HttpResponse<String> r = c.submit("/keys", "/keys", Map.of("name", name));
        Matcher m = NEW_KEY.matcher(r.body());
        assertThat(m.find()).as("the new key is on the answer to the form").isTrue();
        return m.group(1);
    }

    @Test
    void aWrongPasswordAndAnUnknownEmailGetTheSameAnswer() {
        String email = email();
        signedUp(email);
        AreaClient other = new AreaClient(port);
        HttpResponse<String> wrong = other.signIn(email, "not the password");
        HttpResponse<String> unknown = other.signIn(email(), "not the password");
        assertThat(AreaClient.location(wrong)).endsWith("/signin?error");
        assertThat(AreaClient.location(unknown)).isEqualTo(AreaClient.location(wrong));
        assertThat(other.get("/signin?error").body()).contains("Wrong email or password.");
        assertThat(other.get("/keys").statusCode()).as("still signed out").isEqualTo(302);
        HttpResponse<String> right = other.signIn(email, PASSWORD);
        assertThat(AreaClient.location(right)).doesNotContain("error");
        assertThat(other.get("/keys").statusCode()).isEqualTo(200);
    }

    @Test
    void theSessionCookieIsHttpOnlyAndSameSiteLax() {
        AreaClient c = new AreaClient(port);
        HttpResponse<String> page = c.get("/signin");
        String cookie = page.headers().allValues("Set-Cookie").stream().filter(s -> s.startsWith("DOCAPI_SESSION=")).findFirst().orElseThrow();
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Lax");
    }

    @Test
    void aFormPostWithoutTheCsrfTokenIsRefused() {
        String email = email();
        AreaClient c = signedUp(email);
        HttpResponse<String> r = c.post("/keys", Map.of("name", "no token"));
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(accounts.listKeys(accounts.findByEmail(email).orElseThrow().id())).isEmpty();
    }

    @Test
    void anotherAccountsJobAndKeyAre404() {
        String key = newKey();
        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        String jobId = run(key, "rotate", Map.of("file", pdf, "angle", 90)).get("id").asString();
        String ownerEmail = email();
        AreaClient owner = signedUp(ownerEmail);
        createKey(owner, "mine");
        String keyId = accounts.listKeys(accounts.findByEmail(ownerEmail).orElseThrow().id()).getFirst().id();

        AreaClient intruder = signedUp(email());
        assertThat(intruder.get("/jobs/" + jobId).statusCode()).isEqualTo(404);
        assertThat(intruder.get("/jobs/job_doesnotexist").statusCode()).isEqualTo(404);
        assertThat(intruder.submit("/keys", "/keys/" + keyId + "/revoke", Map.of()).statusCode()).isEqualTo(404);
        assertThat(accounts.listKeys(accounts.findByEmail(ownerEmail).orElseThrow().id())).hasSize(1);
        assertThat(owner.get("/jobs").body()).doesNotContain(jobId);
    }

    @Test
    void everyOperationHasATryItFormWithEachOfItsOptions() {
        AreaClient c = signedUp(email());
        for (var op : operations.all()) {
            HttpResponse<String> r = c.get("/try?operation=" + op.name());
            assertThat(r.statusCode()).as(op.name()).isEqualTo(200);
            assertThat(r.body()).as(op.name()).contains("Run " + op.name());
            for (String option : op.options().names()) assertThat(r.body()).as(op.name()).contains("name=\"" + option + "\"");
        }
    }

    @Test
    void tryItWithAnotherAccountsFileOrJobIs404() {
        String key = newKey();
        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        String jobId = run(key, "rotate", Map.of("file", pdf, "angle", 90)).get("id").asString();

        AreaClient intruder = signedUp(email());
        HttpResponse<String> r = intruder.submit("/try?operation=rotate", "/try/rotate", Map.of("file", pdf, "angle", "90"));
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).as("the form, with the API's message").contains("Run rotate").contains("no file").contains(pdf);
        assertThat(intruder.get("/try/jobs/" + jobId).statusCode()).isEqualTo(404);
        assertThat(intruder.get("/try/jobs/" + jobId + "/status").statusCode()).isEqualTo(404);
        assertThat(intruder.get("/try?operation=nosuchoperation").statusCode()).isEqualTo(404);
        assertThat(intruder.post("/try/rotate", Map.of("file", pdf, "angle", "90")).statusCode()).as("no CSRF token").isEqualTo(403);
        assertThat(intruder.get("/jobs").body()).as("nothing ran for the intruder").contains("No job yet.");
    }

    @Test
    void filesAreListedDownloadedAndDeletedByTheirOwnerOnly() throws Exception {
        String email = email();
        AreaClient owner = signedUp(email);
        String key = createKey(owner, "files");
        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        String output = run(key, "rotate", Map.of("file", pdf, "angle", 90)).at("/output/files/0/id").asString();
        assertThat(owner.get("/files").body()).contains(pdf).contains(output);

        AreaClient intruder = signedUp(email());
        assertThat(intruder.get("/files/" + output + "/download").statusCode()).isEqualTo(404);
        assertThat(intruder.submit("/files", "/files/" + output + "/delete", Map.of()).statusCode()).isEqualTo(404);
        assertThat(intruder.get("/files").body()).doesNotContain(output);

        HttpResponse<String> download = owner.get("/files/" + output + "/download");
        assertThat(download.statusCode()).isEqualTo(302);
        java.nio.file.Path got = java.nio.file.Files.createTempFile("area-download-", ".pdf");
        HTTP.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(AreaClient.location(download))).build(),
                java.net.http.HttpResponse.BodyHandlers.ofFile(got));
        assertThat(dev.docapi.support.Independent.qpdfCheck(got).exit()).as("qpdf reads the download").isZero();

        assertThat(AreaClient.location(owner.submit("/files", "/files/" + output + "/delete", Map.of()))).endsWith("/files?deleted");
        assertThat(get(key, "/files/" + output).code()).isEqualTo("file_not_found");
    }

    @Test
    void signInIsThrottledPerEmailEvenWithTheRightPassword() {
        String email = email();
        signedUp(email);
        AreaClient attacker = new AreaClient(port);
        for (int i = 0; i < WebSecurityConfig.ATTEMPTS_PER_EMAIL; i++) {
            assertThat(AreaClient.location(attacker.signIn(email, "guess " + i))).endsWith("/signin?error");
        }
        HttpResponse<String> r = attacker.signIn(email, PASSWORD);
        assertThat(AreaClient.location(r)).endsWith("/signin?throttled");
        assertThat(attacker.get("/keys").statusCode()).as("not signed in").isEqualTo(302);
    }

    /** Passkeys (issue 26 item 5): Spring Security's WebAuthn endpoints under the pages' CSRF, registration signed in only. */
    @Test
    void passkeyEndpointsNeedTheCsrfTokenAndRegistrationASignedInOwner() {
        AreaClient stranger = new AreaClient(port);
        assertThat(stranger.post("/webauthn/authenticate/options", Map.of()).statusCode()).as("no CSRF token").isEqualTo(403);
        assertThat(stranger.post("/login/webauthn", Map.of()).statusCode()).as("no CSRF token").isEqualTo(403);
        assertThat(stranger.submit("/signin", "/webauthn/authenticate/options", Map.of()).body()).as("a challenge for any passkey")
                .contains("\"rpId\":\"localhost\"").contains("\"challenge\":");
        assertThat(stranger.submit("/signin", "/webauthn/register/options", Map.of()).statusCode()).as("not signed in").isNotEqualTo(200);

        String email = email();
        AreaClient owner = signedUp(email);
        HttpResponse<String> options = owner.submit("/account", "/webauthn/register/options", Map.of());
        assertThat(options.statusCode()).isEqualTo(200);
        assertThat(options.body()).as("the relying party: the site's host").contains("\"rp\":{\"id\":\"localhost\",\"name\":\"docapi\"}")
                .contains("\"name\":\"" + email + "\"");
        assertThat(owner.submit("/account", "/account/passkeys/AAAA/remove", Map.of()).statusCode()).as("not one of the owner's").isEqualTo(404);
    }

    @Test
    void theKeyAppearsOnNoPageAfterItsCreation() {
        AreaClient c = signedUp(email());
        String key = createKey(c, "shown once");
        assertThat(get(key, "/jobs").status()).as("the key shown works").isEqualTo(200);
        for (String page : List.of("/keys", "/usage", "/jobs", "/files", "/webhooks", "/providers", "/account", "/", "/try", "/try?operation=rotate")) {
            HttpResponse<String> r = c.get(page);
            assertThat(r.statusCode()).as(page).isEqualTo(200);
            assertThat(r.body()).as(page).doesNotContain(key).doesNotContain(key.substring(key.lastIndexOf('_') + 1));
        }
    }

    @Test
    void aLoginLinkSignsInOnceAndLetsTheOwnerSetAPassword() {
        String email = email();
        String token = links.create(accounts.createAccount(email, dev.docapi.accounts.Plan.FREE).account().id());
        AreaClient c = new AreaClient(port);
        assertThat(c.get("/signin/link?token=" + token).statusCode()).as("showing the link does not use it").isEqualTo(200);
        HttpResponse<String> used = c.submit("/signin/link?token=" + token, "/signin/link", Map.of("token", token));
        assertThat(AreaClient.location(used)).endsWith("/account");
        assertThat(c.submit("/account", "/account/password", Map.of("password", "a new long password")).body()).contains("Password saved.");
        AreaClient again = new AreaClient(port);
        assertThat(again.submit("/signin/link?token=" + token, "/signin/link", Map.of("token", token)).body()).contains("not valid");
        assertThat(AreaClient.location(again.signIn(email, "a new long password"))).doesNotContain("error");
    }

    @Test
    void theApiIsAsBeforeNoSessionNoCsrf() {
        Response r = get(null, "/jobs");
        assertThat(r.status()).isEqualTo(401);
        assertThat(r.code()).isEqualTo("missing_api_key");
        assertThat(r.headers().allValues("Set-Cookie")).isEmpty();
        Response posted = post(newKey(), "/rotate", Map.of("file", "file_doesnotexist", "angle", 90));
        assertThat(posted.code()).as("a POST without CSRF token reaches the API").isEqualTo("file_not_found");
    }

    @Test
    void theUsageChartCountsOperationsNotJobs() {
        String email = email();
        AreaClient c = signedUp(email);
        String key = createKey(c, "usage");
        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        run(key, "rotate", Map.of("file", pdf, "angle", 90));
        var rotate = Map.of("operation", "rotate", "options", Map.of("angle", 90));
        run(key, "workflows/run", Map.of("file", pdf, "steps", List.of(rotate, rotate)));
        assertThat(get(key, "/jobs").body().path("data")).as("two jobs").hasSize(2);

        String page = c.get("/usage").body();
        assertThat(page).contains("<span id=\"operations\" class=\"big\">3</span>");
        assertThat(page).as("six days without, then today's bar: one operation and a workflow of two steps")
                .containsPattern("Operations per day: (\\S+ 0, ){6}\\S+ 3</title>");
    }

    @Test
    void theWebhooksPageListsRecentDeliveriesWithTheirAttemptsForTheOwnerOnly() throws Exception {
        var receiver = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hook", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        receiver.start();
        int closedPort;
        try (var probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        try {
            AreaClient c = signedUp(email());
            String key = createKey(c, "hooks");
            String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
            String delivered = run(key, "rotate", Map.of("file", pdf, "angle", 90,
                    "webhook_url", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook")).get("id").asString();
            String refused = run(key, "rotate", Map.of("file", pdf, "angle", 180, "webhook_url", "http://127.0.0.1:" + closedPort + "/gone")).get("id").asString();
            for (String job : List.of(delivered, refused)) {
                for (int i = 0; i < 200 && get(key, "/jobs/" + job).body().at("/webhook/attempts").isEmpty(); i++) Thread.sleep(50);
            }

            String page = c.get("/webhooks").body();
            String row1 = page.substring(page.indexOf(delivered), page.indexOf("</tr>", page.indexOf(delivered)));
            assertThat(row1).contains("job.succeeded").contains("<td>delivered</td>").contains("HTTP 204");
            String row2 = page.substring(page.indexOf(refused), page.indexOf("</tr>", page.indexOf(refused)));
            assertThat(row2).contains("/gone").contains("<td>pending</td>").contains("no answer");
            AreaClient other = signedUp(email());
            assertThat(other.get("/webhooks").body()).doesNotContain(delivered).doesNotContain(refused).contains("No job with a webhook");
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void aBadFormGetsTheAreasErrorPageNotJson() {
        AreaClient c = signedUp(email());
        HttpResponse<String> r = c.submit("/webhooks", "/webhooks/test", Map.of());
        assertThat(r.statusCode()).as("no url field").isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(r.body()).contains("This request cannot be answered").contains("Error 400").doesNotContain("\"error\"");
        HttpResponse<String> missing = c.get("/jobs/job_doesnotexist");
        assertThat(missing.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(missing.body()).contains("Not found");
    }
}
