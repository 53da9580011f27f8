package dev.docapi.core;

/** The stable error codes of spec §7, each with its HTTP status. */
public enum ErrorCode {
    INVALID_REQUEST(400), INVALID_FILE(400), EMPTY_FILE(400), FETCH_FAILED(400),
    MISSING_API_KEY(401), INVALID_API_KEY(401),
    QUOTA_EXCEEDED(402),
    LINK_EXPIRED(403),
    FILE_NOT_FOUND(404), JOB_NOT_FOUND(404), UNKNOWN_OPERATION(404), NOT_FOUND(404),
    METHOD_NOT_ALLOWED(405),
    FILE_EXPIRED(410),
    FILE_TOO_LARGE(413),
    UNSUPPORTED_FILE_TYPE(415),
    RATE_LIMITED(429), TOO_MANY_JOBS(429),
    INTERNAL_ERROR(502), SERVICE_UNAVAILABLE(503), INTERRUPTED(503);

    private final int status;

    ErrorCode(int status) {
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** The code as it appears in JSON, e.g. {@code file_not_found}. */
    public String code() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
