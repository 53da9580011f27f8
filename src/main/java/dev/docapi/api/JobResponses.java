package dev.docapi.api;

import dev.docapi.core.ApiException;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobRunner;
import dev.docapi.jobs.JobStatus;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The answer to a request that started a job (spec §3 "wait behaviour", §4.4 common responses): waits up to
 * {@code wait} seconds, then 200 with the succeeded job, 502 {@code {error, job}} with a failed one, or 202 with the
 * job and a {@code Location} header to poll.
 */
@Component
public class JobResponses {
    /** Seconds a request waits for its job when {@code wait} is not given, over HTTP and MCP (spec §4.4). */
    public static final int DEFAULT_WAIT = 60;
    /** The longest {@code wait} a request may ask for, in seconds. */
    public static final int MAX_WAIT = 300;
    private final JobRunner runner;
    private final Views views;

    public JobResponses(JobRunner runner, Views views) {
        this.runner = runner;
        this.views = views;
    }

    /**
     * @throws ApiException 400 {@code invalid_request} when {@code wait} is not an integer from 0 to 300
     */
    public static int waitSeconds(JsonNode wait) {
        if (wait == null || wait.isNull()) return DEFAULT_WAIT;
        if (!wait.isIntegralNumber() || !wait.canConvertToInt() || wait.asInt() < 0 || wait.asInt() > MAX_WAIT) {
            throw ApiException.invalid("'wait' must be an integer number of seconds from 0 to " + MAX_WAIT);
        }
        return wait.asInt();
    }

    public ResponseEntity<JsonNode> respond(Job job, int waitSeconds) throws InterruptedException {
        Job current = waitSeconds > 0 ? runner.await(job, waitSeconds) : job;
        if (current.status() == JobStatus.SUCCEEDED) return ResponseEntity.ok(views.job(current));
        if (current.status() == JobStatus.FAILED) return ResponseEntity.status(502).body(views.failed(current));
        return ResponseEntity.accepted().location(URI.create("/v1/jobs/" + current.id())).body(views.job(current));
    }
}
