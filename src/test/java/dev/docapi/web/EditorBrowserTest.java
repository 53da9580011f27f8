package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;

/**
 * The page editor (issue 26) in headless Chromium: a 6-page PDF (the first six pages of a corpus file, each saying
 * "Original page N") opened from Files, its thumbnails drawn by PDF.js, the last page dragged to the front with the
 * mouse (SortableJS), moved by keyboard (Alt+→, Alt+←), page 2 rotated and shown larger, page 3 deleted, page 1 of a second file
 * chosen by its thumbnail and inserted at the end, undo and redo, then saved: the new file read back with PDFBox
 * (order by each page's text, rotations, page count). A save that the API refuses shows why and keeps the arrangement; another account's file is
 * 404 and a file that is not a PDF 400. The document tools panel: disabled while changes are unsaved, watermark refused
 * then applied, its result opened in the editor and its stamp read by pdftotext.
 */
class EditorBrowserTest extends AreaBrowserTestBase {
    private static final Path CORPUS = corpus("pdf-text/rotated-pages-20p.pdf");

    private List<String> sources() {
        return browser.findElements(By.cssSelector("#pages li.page:not(.sortable-fallback)")).stream()
                .map(li -> li.getDomAttribute("data-source") + (li.getDomAttribute("data-file") == null ? "" : "@" + li.getDomAttribute("data-file")))
                .toList();
    }

    private WebElement page(int n) {
        return browser.findElement(By.cssSelector("#pages li.page:nth-child(" + n + ")"));
    }

    /** A file of the account: {@code pages} of the corpus PDF. */
    private String pagesOfCorpus(String key, List<Integer> pages) {
        return run(key, "organize", Map.of("file", uploadId(key, CORPUS), "pages", pages)).at("/output/files/0/id").asString();
    }

    private void openEditor(String fileId, int pages) {
        browser.get(site("/files"));
        browser.findElement(By.cssSelector("a[href$='/files/" + fileId + "/edit']")).click();
        waiting().withMessage(() -> "thumbnails not drawn; the page says: " + browser.findElement(By.tagName("main")).getText())
                .until(d -> d.findElements(By.cssSelector("#pages li.page[data-drawn]")).size() == pages);
    }

    /**
     * Drags a page with the mouse as a person does, pointer events included. SortableJS's fallback (forceFallback)
     * starts a drag on a first move, follows the pointer only from a move after its ghost exists, and places the page
     * where the pointer last was on its next check (every 50 ms): so the press and a first move, then a move onto the
     * target once the ghost is there, and the release once the page has moved. One move and an immediate release, as
     * Actions' dragAndDrop does, ends the drag before any of that.
     */
    private void drag(WebElement from, WebElement onto) {
        new Actions(browser).clickAndHold(from).moveByOffset(10, 10).perform();
        waiting().withMessage("SortableJS's drag did not start").until(d -> !d.findElements(By.cssSelector("#pages .sortable-fallback")).isEmpty());
        new Actions(browser).moveToElement(onto, -20, 0).perform();
        String moving = from.findElement(By.xpath("ancestor::li")).getDomAttribute("data-key");
        waiting().withMessage("the page did not move under the pointer").until(d -> moving.equals(
                d.findElement(By.cssSelector("#pages li.page:not(.sortable-fallback)")).getDomAttribute("data-key")));
        new Actions(browser).release().perform();
    }

    /** {@code POST /files/{id}/edit} from the page, with its session and CSRF token: [status, error code]. */
    private List<Object> saveFromPage(String body) {
        @SuppressWarnings("unchecked") List<Object> answer = (List<Object>) ((JavascriptExecutor) browser).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                const root = document.getElementById('editor');
                fetch(root.dataset.save, { method: 'POST', body: arguments[0],
                    headers: { 'Content-Type': 'application/json', [root.dataset.csrfHeader]: root.dataset.csrf } })
                  .then(r => r.json().then(b => done([r.status, b.error?.code ?? null])));""", body);
        return answer;
    }

    @Test
    void anOwnerDragsRotatesDeletesInsertsUndoesAndSavesAsANewFile() throws Exception {
        String email = signedUpAndIn("editor-");
        String key = accounts.createKey(accounts.findByEmail(email).orElseThrow().id(), "editor");
        String fileId = pagesOfCorpus(key, List.of(1, 2, 3, 4, 5, 6));
        String second = pagesOfCorpus(key, List.of(7, 8));

        openEditor(fileId, 6);
        assertThat(sources()).containsExactly("1", "2", "3", "4", "5", "6");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("No change");

        drag(page(6).findElement(By.cssSelector(".thumb")), page(1).findElement(By.cssSelector(".thumb")));
        assertThat(sources()).as("page 6 dragged to the front").containsExactly("6", "1", "2", "3", "4", "5");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("1 change");
        // and by keyboard: the first page one place later, then back
        page(1).findElement(By.cssSelector(".thumb")).click();
        new Actions(browser).keyDown(Keys.ALT).sendKeys(Keys.ARROW_RIGHT).keyUp(Keys.ALT).perform();
        assertThat(sources()).containsExactly("1", "6", "2", "3", "4", "5");
        new Actions(browser).keyDown(Keys.ALT).sendKeys(Keys.ARROW_LEFT).keyUp(Keys.ALT).perform();
        assertThat(sources()).containsExactly("6", "1", "2", "3", "4", "5");

        page(2).findElement(By.cssSelector("[aria-label='Rotate right page 2']")).click();
        // page 2 larger, drawn turned as the arrangement has it; → shows the next page, Escape closes
        page(2).findElement(By.cssSelector("[aria-label='View page 2']")).click();
        WebElement larger = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("viewer-canvas")));
        waiting().until(d -> larger.getDomAttribute("data-drawn") != null);
        assertThat(browser.findElement(By.id("viewer-label")).getText()).isEqualTo("Page 2 of 6 (p. 1, rotated 90°)");
        assertThat(Integer.parseInt(larger.getDomProperty("width"))).as("a portrait page turned a quarter: landscape, and larger than its thumbnail")
                .isGreaterThan(Integer.parseInt(larger.getDomProperty("height"))).isGreaterThan(400);
        checkPage("editor-viewer");
        new Actions(browser).sendKeys(Keys.ARROW_RIGHT).perform();
        waiting().until(ExpectedConditions.textToBe(By.id("viewer-label"), "Page 3 of 6 (p. 2)"));
        new Actions(browser).sendKeys(Keys.ESCAPE).perform();
        waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("viewer")));
        page(3).findElement(By.cssSelector(".thumb")).click();
        new Actions(browser).sendKeys(Keys.DELETE).perform();
        assertThat(sources()).containsExactly("6", "1", "3", "4", "5");
        assertThat(page(2).getDomAttribute("data-rotation")).isEqualTo("90");

        new Select(browser.findElement(By.id("insert-file"))).selectByValue(second);
        browser.findElement(By.id("insert-pages")).clear();
        browser.findElement(By.id("insert-pages")).sendKeys("3");
        browser.findElement(By.id("insert")).click();
        assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("problem"))).getText())
                .as("a page the other file does not have").contains("\"3\"").contains("2 pages");
        // page 1 chosen by its thumbnail, no number typed: a click presses it, a second one takes it out again
        browser.findElement(By.cssSelector("#insert-choose summary")).click();
        By firstChoice = By.cssSelector("#insert-view li.page[data-source='1'][data-drawn] .thumb");
        waiting().until(d -> d.findElements(By.cssSelector("#insert-view li.page")).size() == 2);
        waiting().until(ExpectedConditions.elementToBeClickable(firstChoice)).click();
        assertThat(browser.findElement(By.id("insert-pages")).getDomProperty("value")).isEqualTo("1");
        assertThat(browser.findElement(firstChoice).getDomAttribute("aria-pressed")).isEqualTo("true");
        browser.findElement(By.cssSelector("#insert-view li.page[data-source='2'] .thumb")).click();
        assertThat(browser.findElement(By.id("insert-pages")).getDomProperty("value")).isEqualTo("1-2");
        browser.findElement(By.cssSelector("#insert-view li.page[data-source='2'] .thumb")).click();
        assertThat(browser.findElement(By.id("insert-pages")).getDomProperty("value")).isEqualTo("1");
        new Select(browser.findElement(By.id("insert-at"))).selectByValue("end");
        browser.findElement(By.id("insert")).click();
        waiting().until(d -> d.findElements(By.cssSelector("#pages li.page[data-drawn]")).size() == 6);
        assertThat(sources()).containsExactly("6", "1", "3", "4", "5", "1@" + second);
        assertThat(page(6).getText()).contains("p. 1");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("6 changes");

        new Actions(browser).keyDown(Keys.CONTROL).sendKeys("z").keyUp(Keys.CONTROL).perform();
        assertThat(sources()).as("undo takes the inserted page out").containsExactly("6", "1", "3", "4", "5");
        new Actions(browser).keyDown(Keys.CONTROL).sendKeys("z").keyUp(Keys.CONTROL).perform();
        assertThat(sources()).as("undo restores the deleted page").containsExactly("6", "1", "2", "3", "4", "5");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("4 changes");
        for (int i = 0; i < 2; i++) {
            new Actions(browser).keyDown(Keys.CONTROL).keyDown(Keys.SHIFT).sendKeys("z").keyUp(Keys.SHIFT).keyUp(Keys.CONTROL).perform();
        }
        assertThat(sources()).as("redo deletes it and inserts again").containsExactly("6", "1", "3", "4", "5", "1@" + second);
        checkPage("editor");

        // files the arrangement may not name, refused as the API refuses them, before any job
        String stranger = "editor-other-" + UUID.randomUUID() + "@example.com";
        new AreaClient(port).signUp(stranger, "a long enough password");
        String strangersFile = uploadId(accounts.createKey(accounts.findByEmail(stranger).orElseThrow().id(), "other"), CORPUS);
        assertThat(saveFromPage("{\"pages\":[{\"page\":1,\"rotation\":0,\"file\":\"" + strangersFile + "\"}]}"))
                .containsExactly(404L, "file_not_found");
        Path text = Files.writeString(Files.createTempFile(DATA_DIR, "notes-", ".txt"), "not a PDF");
        assertThat(saveFromPage("{\"pages\":[{\"page\":1,\"rotation\":0,\"file\":\"" + uploadId(key, text) + "\"}]}"))
                .containsExactly(400L, "invalid_request");
        assertThat(saveFromPage("{\"pages\":[{\"page\":1,\"rotation\":0},{\"page\":3,\"rotation\":0,\"file\":\"" + second + "\"}]}"))
                .as("a page the other file does not have").containsExactly(400L, "invalid_request");

        browser.findElement(By.id("save")).click();
        waiting().until(ExpectedConditions.urlMatches("/files/file_[^/]+/edit\\?saved$"));
        String saved = browser.getCurrentUrl().replaceAll("^.*/files/([^/]+)/edit.*$", "$1");
        assertThat(saved).isNotEqualTo(fileId);
        waiting().until(d -> d.findElements(By.cssSelector("#pages li.page")).size() == 6);
        assertThat(get(key, "/files/" + fileId).status()).as("the original stays").isEqualTo(200);

        assertArranged(key, saved, CORPUS, new int[] {6, 1, 3, 4, 5, 7}, new int[] {0, 90, 0, 0, 0, 0});
        // one job through the workflows' path, merge first: listed and counted like an API call
        JsonNode job = get(key, "/jobs").body().path("data").get(0);
        assertThat(job.path("operation").asString()).isEqualTo("workflow");
        assertThat(job.at("/input/steps/0/operation").asString()).isEqualTo("merge");
        assertThat(job.at("/input/files").toString()).isEqualTo("[\"" + fileId + "\",\"" + second + "\"]");

        // a save the API refuses (the file deleted meanwhile): the reason shown, the arrangement and its changes kept
        page(1).findElement(By.cssSelector("[aria-label='Rotate left page 1']")).click();
        assertThat(delete(key, "/files/" + saved).status()).isEqualTo(200);
        browser.findElement(By.id("save")).click();
        assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("problem"))).getText()).startsWith("Not saved: ");
        assertThat(sources()).containsExactly("1", "2", "3", "4", "5", "6");
        assertThat(page(1).getDomAttribute("data-rotation")).isEqualTo("270");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("1 change");
    }

    @Test
    void aDocumentToolAppliesToTheSavedFileAndOpensItsResult() throws Exception {
        String email = signedUpAndIn("editor-tools-");
        String key = accounts.createKey(accounts.findByEmail(email).orElseThrow().id(), "editor");
        String fileId = pagesOfCorpus(key, List.of(1, 2));
        openEditor(fileId, 2);

        List<String> tools = new Select(browser.findElement(By.id("tool"))).getOptions().stream().map(o -> o.getDomAttribute("value")).toList();
        assertThat(tools).as("the one-PDF-in, one-PDF-out workflow steps, from their declarations")
                .contains("watermark", "page-numbers", "protect", "compress", "ocr", "pdfa", "redact")
                .doesNotContain("split", "convert", "merge", "extract-text", "ask", "agent");

        // unsaved changes: the tools wait, as they apply to the file as saved
        page(1).findElement(By.cssSelector("[aria-label='Rotate right page 1']")).click();
        assertThat(browser.findElement(By.id("tool")).isEnabled()).as("the tool picker, in the disabled panel").isFalse();
        assertThat(browser.findElement(By.id("tools-unsaved")).isDisplayed()).isTrue();
        new Actions(browser).keyDown(Keys.CONTROL).sendKeys("z").keyUp(Keys.CONTROL).perform();
        assertThat(browser.findElement(By.id("tool")).isEnabled()).isTrue();

        new Select(browser.findElement(By.id("tool"))).selectByValue("watermark");
        WebElement text = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#tool-form #option-text")));
        checkPage("editor-tools");
        text.sendKeys("   ");
        browser.findElement(By.cssSelector("#tool-form button[type=submit]")).click();
        assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("tool-problem"))).getText())
                .as("the operation's own refusal").contains("'text'");
        assertThat(browser.getCurrentUrl()).endsWith("/files/" + fileId + "/edit");

        browser.findElement(By.cssSelector("#tool-form #option-text")).clear();
        browser.findElement(By.cssSelector("#tool-form #option-text")).sendKeys("DRAFT-XYZ");
        browser.findElement(By.cssSelector("#tool-form button[type=submit]")).click();
        waiting().until(ExpectedConditions.urlMatches("/files/file_[^/]+/edit\\?saved$"));
        String result = browser.getCurrentUrl().replaceAll("^.*/files/([^/]+)/edit.*$", "$1");
        assertThat(result).isNotEqualTo(fileId);
        waiting().until(d -> d.findElements(By.cssSelector("#pages li.page[data-drawn]")).size() == 2);

        Path output = Files.createTempFile(DATA_DIR, "watermarked-", ".pdf");
        Files.write(output, get(null, get(key, "/files/" + result).body().get("download_url").asString()).raw());
        assertThat(Independent.pdftotext(output)).contains("DRAFT-XYZ").contains("Original page 1");
        assertThat(get(key, "/jobs").body().path("data").get(0).path("operation").asString()).as("one job of the operation itself")
                .isEqualTo("watermark");
    }

    @Test
    void aWordFileUploadedOnFilesOpensConvertedAndAnImageAndAJobsOutputOpenFromTheirPages() throws Exception {
        String email = signedUpAndIn("editor-open-");
        String key = accounts.createKey(accounts.findByEmail(email).orElseThrow().id(), "editor");

        // a fresh upload: converted by one convert job, its PDF opened
        browser.get(site("/files"));
        browser.findElement(By.id("open-file")).sendKeys(corpus("office/fake.docx").toString());
        browser.findElement(By.xpath("//button[text()='Upload and edit']")).click();
        waiting().until(ExpectedConditions.urlMatches("/files/file_[^/]+/edit\\?converted$"));
        String pdf = browser.getCurrentUrl().replaceAll("^.*/files/([^/]+)/edit.*$", "$1");
        JsonNode converted = get(key, "/files/" + pdf).body();
        assertThat(converted.path("content_type").asString()).isEqualTo("application/pdf");
        int pages = converted.path("pages").asInt();
        assertThat(pages).isPositive();
        waiting().until(d -> d.findElements(By.cssSelector("#pages li.page[data-drawn]")).size() == pages);
        Path output = Files.createTempFile(DATA_DIR, "converted-", ".pdf");
        Files.write(output, get(null, converted.path("download_url").asString()).raw());
        assertThat(Independent.pdftotext(output)).contains("Lorem ipsum");
        JsonNode job = get(key, "/jobs").body().path("data").get(0);
        assertThat(job.path("operation").asString()).as("one job of the API's convert").isEqualTo("convert");
        assertThat(job.at("/input/options/to").asString()).isEqualTo("pdf");
        assertThat(job.at("/output/files/0/id").asString()).isEqualTo(pdf);

        // from the job's page: its PDF output opens as it is
        browser.get(site("/jobs/" + job.path("id").asString()));
        browser.findElement(By.cssSelector("a[aria-label='Edit " + converted.path("name").asString() + "']")).click();
        waiting().until(ExpectedConditions.urlMatches("/files/" + pdf + "/edit$"));

        // an image of the account, from the Files page's button
        uploadId(key, corpus("images/DA-1p.png"));
        browser.get(site("/files"));
        browser.findElement(By.cssSelector("button[aria-label='Edit DA-1p.png as a PDF (converted first)']")).click();
        waiting().until(ExpectedConditions.urlMatches("/files/file_[^/]+/edit\\?converted$"));
        waiting().until(d -> d.findElements(By.cssSelector("#pages li.page[data-drawn]")).size() == 1);

        // an upload refused (a ZIP is not a type docapi accepts, spec §2.2): said on the Files page, nothing run
        Path zip = Files.createTempFile(DATA_DIR, "archive-", ".zip");
        try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new java.util.zip.ZipEntry("notes.txt"));
            out.write("not a document".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        int jobs = get(key, "/jobs").body().path("data").size();
        browser.get(site("/files"));
        browser.findElement(By.id("open-file")).sendKeys(zip.toString());
        browser.findElement(By.xpath("//button[text()='Upload and edit']")).click();
        assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("files-problem"))).getText())
                .contains("is not a type docapi accepts");
        assertThat(get(key, "/jobs").body().path("data").size()).isEqualTo(jobs);
        checkPage("files-open");
    }
}
