package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.ai.ScriptedModelServer;
import dev.docapi.support.ApiTestBase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * The editor's AI edits (issue 26 items 4 and 6) in headless Chromium against the local replay of OpenAI's chat
 * completions: on a 6-page PDF (the first six pages of a corpus file, each saying "Original page N") an instruction
 * is planned, the plan shown in words and previewed (order, rotation, deleted pages), applied as one job and the new
 * file read back with PDFBox; the AI edit is one AI operation in {@code GET /v1/usage}. A plan naming page 99 is
 * refused on the page, and the box waits while the arrangement has unsaved changes.
 */
@ResourceLock(ApiTestBase.MODEL_LOCK)
class EditorAiBrowserTest extends AreaBrowserTestBase {
    private static final Path CORPUS = corpus("pdf-text/rotated-pages-20p.pdf");
    private List<String> preview(String attribute) {
        return browser.findElements(By.cssSelector("#plan-preview li.page")).stream().map(li -> li.getDomAttribute(attribute)).toList();
    }

    private void plan(String instruction) {
        WebElement box = browser.findElement(By.id("instruction"));
        box.clear();
        box.sendKeys(instruction);
        browser.findElement(By.id("plan")).click();
    }

    /** For what waits on a job (text, the model's replay, a workflow run): bounded, not timed; the machine may be busy. */
    private WebDriverWait job() {
        return new WebDriverWait(browser, Duration.ofSeconds(120));
    }

    private int aiOperationsUsed(String key) {
        return get(key, "/usage").body().at("/ai_operations/used").asInt();
    }

    @Test
    void anInstructionIsPlannedPreviewedAndAppliedAsOneJob() throws Exception {
        String email = signedUpAndIn("editor-ai-");
        String key = accounts.createKey(accounts.findByEmail(email).orElseThrow().id(), "editor-ai");
        JsonNode six = run(key, "organize", Map.of("file", uploadId(key, CORPUS), "pages", List.of(1, 2, 3, 4, 5, 6)));
        String fileId = six.at("/output/files/0/id").asString();
        int before = aiOperationsUsed(key);

        browser.get(site("/files/" + fileId + "/edit"));
        waiting().until(d -> d.findElements(By.cssSelector("#pages li.page[data-drawn]")).size() == 6);
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Moves the last page to the front, turns the old first page right and removes the old page 2.",
                 "steps":[{"operation":"organize","options":{"pages":[6,1,2,3,4,5]}},
                          {"operation":"rotate","options":{"angle":90,"pages":[2]}},
                          {"operation":"remove-pages","options":{"pages":[3]}}]}"""));
        plan("put the last page first, turn the old first page right and remove page 2");
        job().withMessage(() -> "no plan; the box says: " + browser.findElement(By.id("ai")).getText())
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("ai-plan")));
        assertThat(browser.findElement(By.id("plan-summary")).getText()).startsWith("Moves the last page to the front");
        assertThat(browser.findElements(By.cssSelector("#plan-steps li")).stream().map(WebElement::getText).toList()).containsExactly(
                "Keep pages 6, 1, 2, 3, 4, 5, in this order.", "Rotate page 2 by 90° clockwise.", "Remove page 3.");
        assertThat(preview("data-source")).as("the new order, then the deleted page").containsExactly("6", "1", "3", "4", "5", "2");
        assertThat(preview("data-rotation")).containsExactly("0", "90", "0", "0", "0", "0");
        assertThat(browser.findElements(By.cssSelector("#plan-preview li.page[data-deleted]")).stream().map(li -> li.getDomAttribute("data-source")).toList())
                .containsExactly("2");
        waiting().until(d -> d.findElements(By.cssSelector("#plan-preview li.page[data-drawn]")).size() == 6);
        assertThat(browser.findElements(By.cssSelector("#pages li.page")).size()).as("nothing changed yet").isEqualTo(6);
        assertThat(aiOperationsUsed(key)).as("the AI edit counts one AI operation").isEqualTo(before + 1);
        assertThat(MODEL.calls()).singleElement().satisfies(call ->
                assertThat(call.body().toString().replaceAll("\\\\n|\\s", "")).contains("---page6---Originalpage6"));
        checkPage("editor-ai-plan");

        browser.findElement(By.id("apply")).click();
        job().until(ExpectedConditions.urlMatches("/files/file_[^/]+/edit\\?saved$"));
        String applied = browser.getCurrentUrl().replaceAll("^.*/files/([^/]+)/edit.*$", "$1");
        assertThat(applied).isNotEqualTo(fileId);
        waiting().until(d -> d.findElements(By.cssSelector("#pages li.page")).size() == 5);
        assertArranged(key, applied, CORPUS, new int[] {6, 1, 3, 4, 5}, new int[] {0, 90, 0, 0, 0});
        String jobs = get(key, "/jobs").body().toString();
        assertThat(jobs).as("the plan and the run, listed like API calls").contains("\"operation\":\"edit-plan\"").contains("\"operation\":\"workflow\"");
        assertThat(aiOperationsUsed(key)).as("applying is no AI operation").isEqualTo(before + 1);

        // a plan naming a page the (new, 5-page) file does not have: refused with the reason, nothing shown to apply
        MODEL.script(ScriptedModelServer.openAiJson("""
                {"summary":"Removes page 99.","steps":[{"operation":"remove-pages","options":{"pages":[99]}}]}"""));
        plan("remove page 99");
        String refusal = job().until(ExpectedConditions.visibilityOfElementLocated(By.id("ai-problem"))).getText();
        assertThat(refusal).startsWith("No plan: ").contains("page 99").contains("5 pages");
        assertThat(browser.findElement(By.id("ai-plan")).isDisplayed()).isFalse();
        assertThat(browser.findElements(By.cssSelector("#pages li.page")).size()).isEqualTo(5);

        // unsaved changes: the box asks to save or undo first
        assertThat(browser.findElement(By.id("ai-unsaved")).isDisplayed()).isFalse();
        browser.findElement(By.cssSelector("#pages li.page:nth-child(1) [aria-label='Rotate right page 1']")).click();
        assertThat(browser.findElement(By.id("ai-unsaved")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("plan")).isEnabled()).isFalse();
        checkPage("editor-ai-unsaved");
    }
}
