package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Independent;
import dev.docapi.support.TestMail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.virtualauthenticator.HasVirtualAuthenticator;
import org.openqa.selenium.virtualauthenticator.VirtualAuthenticator;
import org.openqa.selenium.virtualauthenticator.VirtualAuthenticatorOptions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.UserCredentialRepository;

/**
 * The developer area end to end in Debian's headless Chromium (issue 11): one browser for the class, a real service,
 * the API called with the key the page showed. Every page is screenshotted under {@code target/screenshots/} and
 * checked with axe-core (no serious or critical violation, {@link AreaBrowserTestBase}); passkeys with Chromium's
 * virtual authenticator (issue 26). Not tagged "database": nothing here is SQL-specific.
 */
class DeveloperAreaBrowserTest extends AreaBrowserTestBase {
    @Autowired
    private PublicKeyCredentialUserEntityRepository passkeyUsers;
    @Autowired
    private UserCredentialRepository passkeys;

    private static String hmac(String secret, String signed) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anOwnerSignsUpCreatesAKeyUsesItSeesTheJobAndUsageAndRevokesIt() throws Exception {
        String email = "browser-" + UUID.randomUUID() + "@example.com";
        browser.get(site("/signin"));
        checkPage("signin");
        browser.get(site("/signup"));
        checkPage("signup");
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("a long enough password");
        browser.findElement(By.cssSelector("form button[type=submit]")).click();
        waiting().until(ExpectedConditions.urlContains("/keys"));
        checkPage("keys-unverified");
        assertThat(browser.findElements(By.id("name"))).as("no key before the email is verified").isEmpty();

        browser.get(TestMail.awaitLink(email, "Verify your email for docapi", 1));
        browser.findElement(By.xpath("//button[text()='Verify my email']")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("p.message"), "Your email is verified"));
        checkPage("verify");
        browser.get(site("/keys"));
        browser.findElement(By.id("name")).sendKeys("laptop");
        browser.findElement(By.xpath("//button[text()='Create key']")).click();
        String key = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("new-key"))).getDomAttribute("value");
        assertThat(key).startsWith("dk_");
        assertThat(browser.getPageSource()).contains("shown only this once");
        assertThat(browser.findElements(By.cssSelector("table tbody tr td")).get(3).getText()).isEqualTo("never");
        checkPage("keys-new");

        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        var job = run(key, "rotate", Map.of("file", pdf, "angle", 90));
        String jobId = job.get("id").asString();
        assertThat(job.get("status").asString()).isEqualTo("succeeded");

        browser.get(site("/jobs"));
        assertThat(browser.findElement(By.id("job-rows")).getText()).contains(jobId).contains("rotate").contains("succeeded");
        checkPage("jobs");
        browser.findElement(By.linkText(jobId)).click();
        waiting().until(ExpectedConditions.urlContains("/jobs/" + jobId));
        assertThat(browser.findElement(By.id("job-json")).getText()).contains("\"id\" : \"" + jobId + "\"");
        checkPage("job");

        browser.get(site("/usage"));
        assertThat(browser.findElement(By.id("operations")).getText()).isEqualTo("1");
        assertThat(browser.findElement(By.id("plan")).getText()).isEqualTo("free");
        checkPage("usage");

        browser.get(site("/files"));
        assertThat(browser.findElement(By.tagName("table")).getText()).contains(pdf).contains(job.at("/output/files/0/id").asString());
        checkPage("files");

        browser.get(site("/keys"));
        assertThat(browser.getPageSource()).as("the key is shown only once").doesNotContain(key);
        List<org.openqa.selenium.WebElement> cells = browser.findElements(By.cssSelector("table tbody tr td"));
        assertThat(cells.get(0).getText()).isEqualTo("laptop");
        assertThat(cells.get(1).getText()).isEqualTo(key.substring(0, key.lastIndexOf('_') + 1) + "…");
        assertThat(cells.get(3).getText()).as("last used: by the API calls above")
                .startsWith(java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());
        checkPage("keys");
        browser.findElement(By.xpath("//button[text()='Revoke']")).click();
        waiting().until(ExpectedConditions.alertIsPresent()).accept();
        waiting().until(ExpectedConditions.urlContains("revoked"));
        assertThat(get(key, "/jobs").status()).isEqualTo(401);
        assertThat(get(key, "/jobs").code()).isEqualTo("invalid_api_key");
    }

    @Test
    void anOwnerRunsRotateFromTryItFollowsTheJobAndDownloadsTheResult() throws Exception {
        String email = signedUpAndIn("try-");
        Path input = corpus("pdf-text/rotated-page-90.pdf");
        int before;
        try (var pdf = Independent.pdfbox(input)) {
            before = pdf.getPage(0).getRotation();
        }

        browser.get(site("/try"));
        assertThat(browser.findElement(By.tagName("main")).getText()).contains("rotate").contains("merge");
        checkPage("try-operations");
        new Select(browser.findElement(By.id("operation"))).selectByValue("rotate");
        browser.findElement(By.xpath("//button[text()='Show its form']")).click();
        waiting().until(ExpectedConditions.urlContains("operation=rotate"));
        assertThat(new Select(browser.findElement(By.id("option-angle"))).getOptions()).extracting(e -> e.getText())
                .as("the angle's enum of the declaration, as a select").containsExactly("Choose", "90", "180", "270");

        // a page number the operation refuses: the API's message on the form, the upload kept and picked
        browser.findElement(By.id("upload")).sendKeys(input.toAbsolutePath().toString());
        new Select(browser.findElement(By.id("option-angle"))).selectByValue("90");
        browser.findElement(By.id("option-pages")).sendKeys("0");
        browser.findElement(By.xpath("//button[text()='Run rotate']")).click();
        assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("problem"))).getText())
                .isEqualTo("'pages' must contain integers >= 1");
        var picked = browser.findElement(By.cssSelector("input[name=file]:checked"));
        String fileId = picked.getDomAttribute("value");
        assertThat(fileId).startsWith("file_");
        assertThat(browser.findElement(By.id("option-pages")).getDomProperty("value")).isEqualTo("0");
        ((JavascriptExecutor) browser).executeScript("document.getElementById('operation-title').scrollIntoView()");
        checkPage("try");

        WebElement pages = browser.findElement(By.id("option-pages"));
        pages.clear();
        pages.sendKeys("1");
        browser.findElement(By.xpath("//button[text()='Run rotate']")).click();
        waiting().until(ExpectedConditions.urlContains("/try/jobs/job_"));
        waiting().until(ExpectedConditions.textToBe(By.id("try-status"), "succeeded"));
        String jobId = browser.getCurrentUrl().substring(browser.getCurrentUrl().lastIndexOf('/') + 1);
        String curl = browser.findElement(By.id("curl")).getText();
        assertThat(curl).contains("$DOCAPI_KEY").contains("-F 'file=@rotated-page-90.pdf'")
                .contains("-d '{\"file\":\"" + fileId + "\",\"angle\":90,\"pages\":[1]}'").contains("API='http://localhost:" + port + "/v1'").contains("\"$API/rotate\"").doesNotContain("dk_");
        checkPage("try-job");

        try (var pdf = Independent.pdfbox(tryItOutput())) {
            assertThat(pdf.getPage(0).getRotation()).as("rotated by 90").isEqualTo((before + 90) % 360);
        }

        // a job like an API job: in Jobs, and counted once (the refused request was not)
        browser.get(site("/jobs"));
        assertThat(browser.findElement(By.id("job-rows")).getText()).contains(jobId).contains("rotate");
        browser.get(site("/usage"));
        assertThat(browser.findElement(By.id("operations")).getText()).isEqualTo("1");

        // the curl commands shown, run as they are by a shell with a key of the account, next to the file
        ProcessBuilder shell = new ProcessBuilder("bash", "-c", curl).directory(input.getParent().toFile()).redirectErrorStream(true);
        shell.environment().put("DOCAPI_KEY", accounts.createKey(accounts.findByEmail(email).orElseThrow().id(), "curl"));
        Process ran = shell.start();
        String answers = new String(ran.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ran.waitFor()).as(answers).isZero();
        assertThat(answers).contains("\"object\":\"file\"").contains("\"operation\":\"rotate\"").contains("\"status\":\"succeeded\"");

        // several inputs: merge two uploads, in the order chosen
        browser.get(site("/try?operation=merge"));
        Path second = corpus("pdf-text/pdflatex-4-pages-objstm.pdf");
        browser.findElement(By.id("upload")).sendKeys(input.toAbsolutePath() + "\n" + second.toAbsolutePath());
        browser.findElement(By.xpath("//button[text()='Run merge']")).click();
        waiting().until(ExpectedConditions.urlContains("/try/jobs/job_"));
        waiting().until(ExpectedConditions.textToBe(By.id("try-status"), "succeeded"));
        try (var pdf = Independent.pdfbox(tryItOutput())) {
            assertThat(pdf.getNumberOfPages()).isEqualTo(5);
            assertThat(pdf.getPage(0).getRotation()).as("the first upload first").isEqualTo(before);
        }
    }

    /** The first output file of the Try it job page shown, downloaded by its link. */
    private Path tryItOutput() throws IOException, InterruptedException {
        String href = browser.findElement(By.cssSelector("#outputs a")).getDomAttribute("href");
        Path output = Files.createTempFile(DATA_DIR, "try-", ".pdf");
        HTTP.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(href)).build(), java.net.http.HttpResponse.BodyHandlers.ofFile(output));
        return output;
    }

    @Test
    void theWebhookSecretIsRevealedRotatedAndATestEventIsSignedWithIt() throws Exception {
        String email = signedUpAndIn("hooks-");

        browser.get(site("/webhooks"));
        checkPage("webhooks");
        String before = accounts.findByEmail(email).orElseThrow().webhookSecret();
        browser.findElement(By.xpath("//button[text()='Reveal secret']")).click();
        assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("secret"))).getDomAttribute("value")).isEqualTo(before);
        browser.findElement(By.xpath("//button[text()='Rotate secret']")).click();
        waiting().until(ExpectedConditions.alertIsPresent()).accept();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "A new secret is in force"));
        String shown = browser.findElement(By.id("secret")).getDomAttribute("value");
        assertThat(shown).startsWith("whsec_").isNotEqualTo(before).isEqualTo(accounts.findByEmail(email).orElseThrow().webhookSecret());
        checkPage("webhooks-rotated");

        // a local receiver that checks the signature as the spec (§6) tells receivers to, with the new secret
        java.util.concurrent.BlockingQueue<String> received = new java.util.concurrent.LinkedBlockingQueue<>();
        com.sun.net.httpserver.HttpServer receiver = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String header = exchange.getRequestHeaders().getFirst("Service-Signature");
            String t = header.replaceAll("^t=(\\d+),v1=.*$", "$1");
            String v1 = header.replaceAll("^.*v1=([0-9a-f]+)$", "$1");
            boolean valid = v1.equals(hmac(shown, t + "." + new String(body, StandardCharsets.UTF_8)));
            received.add((valid ? "valid " : "invalid ") + new String(body, StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(valid ? 204 : 400, -1);
            exchange.close();
        });
        receiver.start();
        try {
            browser.findElement(By.id("url")).sendKeys("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
            browser.findElement(By.xpath("//button[text()='Send test event']")).click();
            assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("test-result"))).getText())
                    .isEqualTo("Delivered: the receiver answered HTTP 204.");
            String event = received.poll(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(event).startsWith("valid ").contains("\"type\":\"job.succeeded\"").contains("\"id\":\"job_test_");
            checkPage("webhooks-test");
        } finally {
            receiver.stop(0);
        }

        browser.get(site("/providers"));
        checkPage("providers");
        browser.get(site("/account"));
        checkPage("account");
        browser.findElement(By.xpath("//button[text()='Sign out']")).click();
        waiting().until(ExpectedConditions.urlContains("signedout"));
        browser.get(site("/keys"));
        assertThat(browser.getCurrentUrl()).contains("/signin");
    }

    /**
     * Passkeys (issue 26 item 5) with Chromium's virtual authenticator (internal, resident keys, user verification):
     * registered on the Account page after a password sign-in, kept in the database, then signing in without email
     * or password; once removed, listed no more and refused, and the account's other sessions signed out.
     */
    @Test
    void anOwnerRegistersAPasskeySignsInWithItAndRemovesIt() throws Exception {
        String email = signedUpAndIn("passkey-");
        var authenticators = (HasVirtualAuthenticator) browser;
        VirtualAuthenticator authenticator = authenticators.addVirtualAuthenticator(new VirtualAuthenticatorOptions()
                .setProtocol(VirtualAuthenticatorOptions.Protocol.CTAP2).setTransport(VirtualAuthenticatorOptions.Transport.INTERNAL)
                .setHasResidentKey(true).setHasUserVerification(true).setIsUserVerified(true).setIsUserConsenting(true));
        try {
            browser.get(site("/account"));
            assertThat(browser.findElement(By.id("passkey-rows")).getText()).isEqualTo("No passkey yet.");
            browser.findElement(By.id("label")).sendKeys("laptop");
            browser.findElement(By.xpath("//button[text()='Add a passkey']")).click();
            waiting().until(ExpectedConditions.urlContains("passkey=added"));
            assertThat(browser.findElement(By.id("passkey-rows")).getText()).startsWith("laptop");
            checkPage("account-passkeys");
            assertThat(authenticator.getCredentials()).as("a resident key on the authenticator").hasSize(1);
            var user = passkeyUsers.findByUsername(email);
            assertThat(passkeys.findByUserId(user.getId())).as("kept in the database").singleElement()
                    .satisfies(c -> assertThat(c.getLabel()).isEqualTo("laptop"));

            browser.findElement(By.xpath("//button[text()='Sign out']")).click();
            waiting().until(ExpectedConditions.urlContains("signedout"));
            browser.findElement(By.id("passkey-signin")).click();
            waiting().until(ExpectedConditions.urlToBe(site("/")));
            browser.get(site("/account"));
            assertThat(browser.findElement(By.tagName("main")).getText()).contains("Signed in as " + email);
            assertThat(browser.findElement(By.id("passkey-rows")).getText()).as("last used: this sign-in")
                    .contains(java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());

            // another session of the account (another device, by password): removing the passkey signs it out
            AreaClient other = new AreaClient(port);
            other.signIn(email, "a long enough password");
            assertThat(other.get("/account").statusCode()).isEqualTo(200);
            browser.findElement(By.xpath("//button[text()='Remove']")).click();
            waiting().until(ExpectedConditions.alertIsPresent()).accept();
            waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("p.message"), "removed"));
            assertThat(browser.findElement(By.cssSelector("p.message")).getText()).contains("other sessions were signed out");
            assertThat(AreaClient.location(other.get("/account"))).as("the other session ended").contains("/signin");
            assertThat(browser.findElement(By.id("passkey-rows")).getText()).isEqualTo("No passkey yet.");
            assertThat(passkeys.findByUserId(user.getId())).isEmpty();

            browser.findElement(By.xpath("//button[text()='Sign out']")).click();
            waiting().until(ExpectedConditions.urlContains("signedout"));
            browser.findElement(By.id("passkey-signin")).click();
            assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("passkey-problem"))).getText())
                    .isEqualTo("Passkey sign-in failed: This passkey was not accepted.");
            browser.get(site("/account"));
            assertThat(browser.getCurrentUrl()).as("still signed out").startsWith(site("/signin"));
        } finally {
            authenticators.removeVirtualAuthenticator(authenticator);
        }
    }
}
