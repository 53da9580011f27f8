package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import tools.jackson.databind.JsonNode;

/**
 * The page editor (issue 26) in headless Chromium: a 6-page PDF (the first six pages of a corpus file, each saying
 * "Original page N") opened from Files, its thumbnails drawn by PDF.js, the last page moved to the front (Alt+←),
 * page 2 rotated, page 3 deleted by keyboard, undo and redo, then saved: the new file read back with PDFBox (order by
 * each page's text, rotations, page count). A save that the API refuses shows why and keeps the arrangement.
 */
class EditorBrowserTest extends AreaBrowserTestBase {
    private static final Path CORPUS = corpus("pdf-text/rotated-pages-20p.pdf");

    private List<String> sources() {
        return browser.findElements(By.cssSelector("#pages li.page")).stream().map(li -> li.getDomAttribute("data-source")).toList();
    }

    private WebElement page(int n) {
        return browser.findElement(By.cssSelector("#pages li.page:nth-child(" + n + ")"));
    }

    @Test
    void anOwnerReordersRotatesDeletesUndoesAndSavesAsANewFile() throws Exception {
        String email = signedUpAndIn("editor-");
        String key = accounts.createKey(accounts.findByEmail(email).orElseThrow().id(), "editor");
        JsonNode six = run(key, "organize", Map.of("file", uploadId(key, CORPUS), "pages", List.of(1, 2, 3, 4, 5, 6)));
        String fileId = six.at("/output/files/0/id").asString();

        browser.get(site("/files"));
        browser.findElement(By.cssSelector("a[href$='/files/" + fileId + "/edit']")).click();
        waiting().withMessage(() -> "thumbnails not drawn; the page says: " + browser.findElement(By.tagName("main")).getText())
                .until(d -> d.findElements(By.cssSelector("#pages li.page[data-drawn]")).size() == 6);
        assertThat(sources()).containsExactly("1", "2", "3", "4", "5", "6");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("No change");

        // moved by keyboard (Alt+←), one step per press: Selenium's pointer moves did not start SortableJS's drag in
        // headless Chromium here, while a drag by CDP mouse events did
        page(6).findElement(By.cssSelector(".thumb")).click();
        for (int i = 0; i < 5; i++) new Actions(browser).keyDown(Keys.ALT).sendKeys(Keys.ARROW_LEFT).keyUp(Keys.ALT).perform();
        assertThat(sources()).containsExactly("6", "1", "2", "3", "4", "5");

        page(2).findElement(By.cssSelector("[aria-label='Rotate right page 2']")).click();
        page(3).findElement(By.cssSelector(".thumb")).click();
        new Actions(browser).sendKeys(Keys.DELETE).perform();
        assertThat(sources()).containsExactly("6", "1", "3", "4", "5");
        assertThat(page(2).getDomAttribute("data-rotation")).isEqualTo("90");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("7 changes");

        new Actions(browser).keyDown(Keys.CONTROL).sendKeys("z").keyUp(Keys.CONTROL).perform();
        assertThat(sources()).as("undo restores the deleted page").containsExactly("6", "1", "2", "3", "4", "5");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("6 changes");
        new Actions(browser).keyDown(Keys.CONTROL).keyDown(Keys.SHIFT).sendKeys("z").keyUp(Keys.SHIFT).keyUp(Keys.CONTROL).perform();
        assertThat(sources()).as("redo deletes it again").containsExactly("6", "1", "3", "4", "5");
        checkPage("editor");

        browser.findElement(By.id("save")).click();
        waiting().until(ExpectedConditions.urlMatches("/files/file_[^/]+/edit\\?saved$"));
        String saved = browser.getCurrentUrl().replaceAll("^.*/files/([^/]+)/edit.*$", "$1");
        assertThat(saved).isNotEqualTo(fileId);
        waiting().until(d -> d.findElements(By.cssSelector("#pages li.page")).size() == 5);
        assertThat(get(key, "/files/" + fileId).status()).as("the original stays").isEqualTo(200);

        Path output = Files.createTempFile(DATA_DIR, "edited-", ".pdf");
        Files.write(output, get(null, get(key, "/files/" + saved).body().get("download_url").asString()).raw());
        try (var source = Independent.pdfbox(CORPUS); var pdf = Independent.pdfbox(output)) {
            assertThat(pdf.getNumberOfPages()).isEqualTo(5);
            int[] from = {6, 1, 3, 4, 5};
            for (int i = 0; i < from.length; i++) {
                PDFTextStripper stripper = new PDFTextStripper();
                stripper.setStartPage(i + 1);
                stripper.setEndPage(i + 1);
                // without white space: a rotated page's text comes out broken into lines
                assertThat(stripper.getText(pdf).replaceAll("\\s+", "")).as("page " + (i + 1)).isEqualTo("Originalpage" + from[i]);
                int turned = i == 1 ? 90 : 0;
                assertThat(pdf.getPage(i).getRotation()).as("rotation of page " + (i + 1))
                        .isEqualTo((source.getPage(from[i] - 1).getRotation() + turned) % 360);
            }
        }
        // one job through the workflows' path: listed and counted like an API call
        assertThat(get(key, "/jobs").body().toString()).contains("\"operation\":\"workflow\"");

        // a save the API refuses (the file deleted meanwhile): the reason shown, the arrangement and its changes kept
        page(1).findElement(By.cssSelector("[aria-label='Rotate left page 1']")).click();
        assertThat(delete(key, "/files/" + saved).status()).isEqualTo(200);
        browser.findElement(By.id("save")).click();
        assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("problem"))).getText()).startsWith("Not saved: ");
        assertThat(sources()).containsExactly("1", "2", "3", "4", "5");
        assertThat(page(1).getDomAttribute("data-rotation")).isEqualTo("270");
        assertThat(browser.findElement(By.id("changes")).getText()).isEqualTo("1 change");
    }
}
