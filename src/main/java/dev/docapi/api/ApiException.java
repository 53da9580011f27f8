package dev.docapi.api;

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

    public ErrorCode code() {
        return code;
    }

    /** Seconds for the {@code Retry-After} header (429), or null. */
    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
