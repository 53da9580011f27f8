package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The developer area end to end in Debian's headless Chromium (issue 11): one browser for the class, a real service,
 * the API called with the key the page showed. Every page is screenshotted under {@code target/screenshots/} and
 * checked with axe-core (no serious or critical violation). Not tagged "database": nothing here is SQL-specific.
 */
class DeveloperAreaBrowserTest extends ApiTestBase {
    private static final Path SHOTS = Path.of("target", "screenshots");
    private static WebDriver browser;
    private static Path profile;

    @BeforeAll
    static void startBrowser() throws IOException {
        profile = Files.createTempDirectory("docapi-chromium-");
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless", "--no-sandbox",
                "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1280,900", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new java.io.File("/usr/bin/chromedriver")).build();
        browser = new ChromeDriver(service, options);
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) browser.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private String site(String path) {
        return "http://localhost:" + port + path;
    }

    private WebDriverWait waiting() {
        return new WebDriverWait(browser, Duration.ofSeconds(15));
    }

    /** Screenshot of the current page, then axe-core's serious and critical violations, which must be none. */
    private void checkPage(String name) throws IOException {
        Files.copy(((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(), SHOTS.resolve(name + ".png"),
                StandardCopyOption.REPLACE_EXISTING);
        String axe;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/resources/webjars/axe-core/4.6.3/axe.min.js")) {
            axe = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        JavascriptExecutor js = (JavascriptExecutor) browser;
        js.executeScript(axe);
        Object result = js.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document).then(r => done(r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                    .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))));""");
        assertThat((List<?>) result).as("axe-core serious/critical violations on " + name).isEmpty();
    }

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
    void theWebhookSecretIsRevealedRotatedAndATestEventIsSignedWithIt() throws Exception {
        String email = "hooks-" + UUID.randomUUID() + "@example.com";
        AreaClient http = new AreaClient(port);
        http.signUp(email, "a long enough password");
        browser.manage().deleteAllCookies();
        browser.get(site("/signin"));
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("a long enough password");
        browser.findElement(By.cssSelector("form button[type=submit]")).click();
        waiting().until(ExpectedConditions.urlToBe(site("/")));
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("API keys");

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
}
