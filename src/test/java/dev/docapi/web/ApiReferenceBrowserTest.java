package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.support.ui.ExpectedConditions;
import tools.jackson.databind.JsonNode;

/**
 * The rendered API reference (issue 39): /reference.html, without signing in, shows every operation of the served
 * OpenAPI document, rendered in the browser by Swagger UI from the service's own webjar.
 */
class ApiReferenceBrowserTest extends AreaBrowserTestBase {
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    @Test
    void theReferencePageRendersEveryOperationOfTheServedDocument() throws Exception {
        JsonNode doc = get(null, "/openapi.json").body();
        int operations = 0;
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : path.getValue().propertyNames()) {
                if (METHODS.contains(method)) operations++;
            }
        }
        browser.get(site("/reference.html"));
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".opblock")));
        assertThat(browser.findElement(By.cssSelector(".info .title")).getText()).contains(doc.at("/info/title").asString());
        assertThat(browser.findElements(By.cssSelector(".opblock"))).as("one block per operation").hasSize(operations);
        assertThat(browser.findElement(By.id("operations-Operations-rotate_pdf")).getText()).contains("/rotate");
        Path shot = Path.of("target", "screenshots", "api-reference.png");
        Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }
}
