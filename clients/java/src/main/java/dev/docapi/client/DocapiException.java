package dev.docapi.client;

import dev.docapi.client.generated.model.ErrorCode;
import dev.docapi.client.generated.model.Job;
import java.time.Duration;
import java.util.Optional;

/**
 * An error answer of the service, {@code {error: {code, message}}} (spec §2.7), or a job that finished
 * {@code failed}. {@link #status()} is the HTTP status (for a failed job the status the service answers for it: 502,
 * or 503 for {@code interrupted} and {@code service_unavailable}); {@link #job()} is present when a job ran and failed;
 * {@link #retryAfter()} when the answer carried {@code Retry-After} (429).
 */
public class DocapiException extends RuntimeException {
    private final int status;
    private final ErrorCode code;
    private final Job job;
    private final Duration retryAfter;

    public DocapiException(int status, ErrorCode code, String message, Job job, Duration retryAfter) {
        super(code.getValue() + ": " + message);
        this.status = status;
        this.code = code;
        this.job = job;
        this.retryAfter = retryAfter;
    }

    /** From a job whose status is {@code failed}: its {@code error} and the job. */
    static DocapiException failed(Job job) {
        ErrorCode code = job.getError() == null ? ErrorCode.INTERNAL_ERROR : job.getError().getCode();
        int status = code == ErrorCode.INTERRUPTED || code == ErrorCode.SERVICE_UNAVAILABLE ? 503 : 502;
        return new DocapiException(status, code, job.getError() == null ? "job " + job.getId() + " failed" : job.getError().getMessage(), job, null);
    }

    /** The HTTP status, e.g. 404. */
    public int status() {
        return status;
    }

    /** The stable code of spec §7, e.g. {@link ErrorCode#FILE_NOT_FOUND}. */
    public ErrorCode code() {
        return code;
    }

    /** The job that ran and failed, if this is about one. */
    public Optional<Job> job() {
        return Optional.ofNullable(job);
    }

    /** How long the service asked to wait (429), if it said. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
