package dev.docapi.core;

/**
 * A failure with a client-safe face: a stable {@link ErrorCode} (and so an HTTP status) and a message for a
 * person. The internal cause, if any, is logged and never sent.
 */
public class ApiException extends RuntimeException {
    private final ErrorCode code;
    private final Long retryAfterSeconds;

    public ApiException(ErrorCode code, String message) {
        this(code, message, null, null);
    }

    public ApiException(ErrorCode code, String message, Throwable cause) {
        this(code, message, null, cause);
    }

    public ApiException(ErrorCode code, String message, Long retryAfterSeconds, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static ApiException invalid(String message) {
        return new ApiException(ErrorCode.INVALID_REQUEST, message);
    }

    /**
     * 503 {@code service_unavailable} with {@code Retry-After: 2}: the database could not be reached, or no connection
     * was free in time (a burst beyond what the pool serves). Safe to retry; never a 500 (issue 15).
     */
    public static ApiException databaseUnavailable(Throwable cause) {
        return new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "the database is busy or not available; retry shortly", DATABASE_RETRY_AFTER, cause);
    }

    /** Seconds a client is told to wait when the database cannot be reached. */
    private static final long DATABASE_RETRY_AFTER = 2;

    public ErrorCode code() {
        return code;
    }

    /** Seconds for the {@code Retry-After} header (429), or null. */
    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
