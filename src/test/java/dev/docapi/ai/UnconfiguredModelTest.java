package dev.docapi.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The default service: no model configured (runs in the core's shared context). */
class UnconfiguredModelTest extends ApiTestBase {

    @Test
    void aiOperationsAnswer503WithHowToConfigureAModel() {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/libreoffice-form.pdf"));
        var extract = post(key, "/extract", json().put("file", file).set("fields", JSON.readTree("[\"first_name\"]")));
        assertThat(extract.status()).isEqualTo(503);
        assertThat(extract.code()).isEqualTo("service_unavailable");
        assertThat(extract.body().path("error").path("message").asString()).contains("DOCAPI_SERVICE_MODEL").contains("add-provider-key");
        assertThat(post(key, "/ask", json().put("file", file).put("question", "Who?")).status()).isEqualTo(503);
        assertThat(post(key, "/agent", json().put("goal", "rotate it").set("files", JSON.createArrayNode().add(file))).status()).isEqualTo(503);
        assertThat(get(key, "/jobs").body().path("data")).as("nothing ran").isEmpty();
    }

    @Test
    void modelsListsNothingAndNoPipelineModel() {
        JsonNode body = get(newKey(), "/models").body();
        assertThat(body.get("data")).isEmpty();
        assertThat(body.get("pipelines").get("extraction").isNull()).isTrue();
        assertThat(body.get("pipelines").get("agent").isNull()).isTrue();
    }
}
