package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

@Tag("database")
class AuthAndJobsTest extends ApiTestBase {

    @Test
    void requestsWithoutAKeyOrWithABadOneAre401() {
        assertThat(get(null, "/files").code()).isEqualTo("missing_api_key");
        assertThat(get(null, "/files").status()).isEqualTo(401);
        assertThat(get("dk_nope_nope", "/files").code()).isEqualTo("invalid_api_key");
        Response viaHeader = send(null, HttpRequest.newBuilder(URI.create(base() + "/files")).header("X-API-Key", newKey()).GET());
        assertThat(viaHeader.status()).isEqualTo(200);
    }

    @Test
    void theBasePathNeedsNoKey() {
        JsonNode body = get(null, "").body();
        assertThat(body.get("object").asString()).isEqualTo("service");
        assertThat(body.get("version").asString()).isEqualTo("1.0.0");
        assertThat(body.get("openapi_url").asString()).isEqualTo(base() + "/openapi.json");
    }

    @Test
    void aRevokedKeyStopsWorkingAtOnce() {
        String key = newKey();
        assertThat(get(key, "/jobs").status()).isEqualTo(200);
        assertThat(accounts.revokeKey(key.substring(0, key.lastIndexOf('_')))).isTrue();
        assertThat(get(key, "/jobs").code()).isEqualTo("invalid_api_key");
    }

    @Test
    void unknownOperationIs404() {
        Response r = post(newKey(), "/frobnicate", Map.of("file", "file_x"));
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.code()).isEqualTo("unknown_operation");
    }

    @Test
    void validationFailuresCreateNoJob() {
        String key = newKey();
        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        String image = uploadId(key, corpus("images/DA-1p.png"));
        assertThat(post(key, "/rotate", Map.of("file", image, "angle", 90)).code()).isEqualTo("invalid_request");
        assertThat(post(key, "/rotate", Map.of("file", "file_doesnotexist", "angle", 90)).code()).isEqualTo("file_not_found");
        assertThat(post(key, "/rotate", Map.of("file", pdf)).code()).isEqualTo("invalid_request");
        assertThat(post(key, "/rotate", Map.of("file", pdf, "angle", 90, "colour", "red")).code()).isEqualTo("invalid_request");
        assertThat(post(key, "/rotate", Map.of("file", pdf, "angle", 90, "wait", 301)).code()).isEqualTo("invalid_request");
        assertThat(post(key, "/rotate", "{not json").code()).isEqualTo("invalid_request");
        assertThat(post(key, "/merge", Map.of("files", java.util.List.of(pdf))).code()).isEqualTo("invalid_request");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    @Test
    void waitZeroAnswers202WithLocationAndTheJobCanBePolledToTheEnd() throws Exception {
        String key = newKey();
        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        Response r = post(key, "/test-sleep", Map.of("file", pdf, "seconds", 3, "wait", 0));
        assertThat(r.status()).isEqualTo(202);
        String id = r.body().get("id").asString();
        assertThat(r.headers().firstValue("Location")).hasValue("/v1/jobs/" + id);
        assertThat(r.body().get("status").asString()).isIn("queued", "running");

        JsonNode job = r.body();
        boolean sawProgress = false;
        for (int i = 0; i < 1200 && !job.get("status").asString().equals("succeeded"); i++) { // up to 2 min on a loaded machine
            Thread.sleep(100);
            job = get(key, "/jobs/" + id).body();
            sawProgress |= job.has("progress") && job.at("/progress/unit").asString().equals("seconds");
        }
        assertThat(job.get("status").asString()).isEqualTo("succeeded");
        assertThat(sawProgress).as("progress shown while running").isTrue();
        assertThat(job.has("progress")).isFalse();
        assertThat(job.at("/output/note").asString()).isEqualTo("slept 3 s");
        assertThat(job.get("started_at").isNull()).isFalse();
        assertThat(job.get("finished_at").isNull()).isFalse();
    }

    @Test
    void aJobThatFailsAnswers502WithErrorAndJob() {
        String key = newKey();
        Response r = post(key, "/test-fail", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf"))));
        assertThat(r.status()).isEqualTo(502);
        assertThat(r.code()).isEqualTo("internal_error");
        assertThat(r.body().at("/job/status").asString()).isEqualTo("failed");
        assertThat(r.body().at("/job/error/message").asString()).contains("page 1");
        assertThat(r.body().at("/job/output").isNull()).isTrue();
    }

    @Test
    void jobsAreListedNewestFirstAndOnlyToTheirAccount() {
        String key = newKey();
        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        String first = run(key, "rotate", Map.of("file", pdf, "angle", 90)).get("id").asString();
        String second = run(key, "rotate", Map.of("file", pdf, "angle", 180)).get("id").asString();
        JsonNode list = get(key, "/jobs?limit=1").body();
        assertThat(list.at("/data/0/id").asString()).isEqualTo(second);
        assertThat(get(key, "/jobs").body().at("/data/1/id").asString()).isEqualTo(first);
        assertThat(get(key, "/jobs?limit=101").code()).isEqualTo("invalid_request");
        assertThat(get(newKey(), "/jobs/" + first).code()).isEqualTo("job_not_found");
        assertThat(get(key, "/jobs/job_unknown").status()).isEqualTo(404);
    }

    @Test
    void passwordsAreNeverStoredOnTheJob() {
        String key = newKey();
        JsonNode job = run(key, "protect", Map.of("file", uploadId(key, corpus("pdf-text/rotated-page-90.pdf")), "password", "s3cret-pw"));
        assertThat(job.at("/input/options").has("password")).isFalse();
        assertThat(get(key, "/jobs/" + job.get("id").asString()).raw()).asString().doesNotContain("s3cret-pw");
    }
}
