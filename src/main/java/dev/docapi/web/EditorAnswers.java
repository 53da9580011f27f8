package dev.docapi.web;

import dev.docapi.core.ApiException;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobStatus;
import java.util.function.BiConsumer;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The editor's answers to its script about a job it submitted and waited for (issue 26): 200 {@code {job, …}} when
 * it succeeded, 202 {@code {job}} while it still runs, 502 {@code {job, error: {code, message}}} when it failed, and
 * the API's own status with {@code {error}} when the request was refused before any job.
 */
final class EditorAnswers {
    private EditorAnswers() {
    }

    /** @param succeeded adds what a succeeded job gives the page (e.g. the new file's id) to the answer */
    static ResponseEntity<ObjectNode> of(Job job, JsonMapper json, BiConsumer<Job, ObjectNode> succeeded) {
        ObjectNode answer = json.createObjectNode().put("job", job.id());
        if (job.status() == JobStatus.SUCCEEDED) {
            succeeded.accept(job, answer);
            return ResponseEntity.ok(answer);
        }
        if (job.status() != JobStatus.FAILED) return ResponseEntity.accepted().body(answer);
        answer.set("error", json.createObjectNode().put("code", job.errorCode()).put("message", job.errorMessage()));
        return ResponseEntity.status(502).body(answer);
    }

    static ResponseEntity<ObjectNode> refused(ApiException refused, JsonMapper json) {
        ObjectNode answer = json.createObjectNode();
        answer.set("error", json.createObjectNode().put("code", refused.code().code()).put("message", refused.getMessage()));
        return ResponseEntity.status(refused.code().status()).body(answer);
    }
}
