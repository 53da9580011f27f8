package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
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
 * Base of the developer area's browser tests (issues 11, 26): Debian's headless Chromium, one browser per class, a
 * real service. {@link #checkPage} screenshots a page under {@code target/screenshots/} and checks it with axe-core
 * (no serious or critical violation).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS) // a browser of each class's own: the classes run beside each other
abstract class AreaBrowserTestBase extends ApiTestBase {
    private static final Path SHOTS = Path.of("target", "screenshots");
    WebDriver browser;
    private Path profile;

    @BeforeAll
    void startBrowser() throws IOException {
        profile = Files.createTempDirectory("docapi-chromium-");
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless", "--no-sandbox",
                "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1280,900", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new java.io.File("/usr/bin/chromedriver")).build();
        browser = new ChromeDriver(service, options);
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    void stopBrowser() throws IOException {
        if (browser != null) browser.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    String site(String path) {
        return "http://localhost:" + port + path;
    }

    /** Waits for a condition: a bound on the page's behaviour (it never comes), not on the machine's speed. */
    WebDriverWait waiting() {
        return new WebDriverWait(browser, Duration.ofMinutes(3));
    }

    /**
     * Downloads the account's file {@code fileId} and checks it page by page against {@code source}: it has
     * {@code from.length} pages, page i + 1 is the source's page {@code from[i]} (its text "Original page N", read by
     * PDFBox without white space: a rotated page's text comes out broken into lines), turned {@code turned[i]} degrees
     * clockwise more than there.
     */
    void assertArranged(String key, String fileId, Path source, int[] from, int[] turned) throws IOException {
        Path output = Files.createTempFile(DATA_DIR, "edited-", ".pdf");
        Files.write(output, get(null, get(key, "/files/" + fileId).body().get("download_url").asString()).raw());
        try (var original = Independent.pdfbox(source); var pdf = Independent.pdfbox(output)) {
            assertThat(pdf.getNumberOfPages()).isEqualTo(from.length);
            for (int i = 0; i < from.length; i++) {
                PDFTextStripper stripper = new PDFTextStripper();
                stripper.setStartPage(i + 1);
                stripper.setEndPage(i + 1);
                assertThat(stripper.getText(pdf).replaceAll("\\s+", "")).as("page " + (i + 1)).isEqualTo("Originalpage" + from[i]);
                assertThat(pdf.getPage(i).getRotation()).as("rotation of page " + (i + 1))
                        .isEqualTo((original.getPage(from[i] - 1).getRotation() + turned[i]) % 360);
            }
        }
    }

    /** Screenshot of the current page, then axe-core's serious and critical violations, which must be none. */
    void checkPage(String name) throws IOException {
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

    /** A new account signed up over HTTP, then signed in by the browser (a fresh session); returns its email. */
    String signedUpAndIn(String prefix) {
        String email = prefix + UUID.randomUUID() + "@example.com";
        new AreaClient(port).signUp(email, "a long enough password");
        browser.manage().deleteAllCookies();
        browser.get(site("/signin"));
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("a long enough password");
        browser.findElement(By.cssSelector("form button[type=submit]")).click();
        waiting().until(ExpectedConditions.urlToBe(site("/")));
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("API keys");
        return email;
    }
}
