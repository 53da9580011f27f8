package dev.docapi.operations;

import dev.docapi.api.ErrorCode;

/** An operation that ran and failed, with a client-safe message; the job fails with {@code code}. */
public class OperationFailure extends Exception {
    private final ErrorCode code;

    public OperationFailure(String message) {
        this(ErrorCode.INTERNAL_ERROR, message, null);
    }

    public OperationFailure(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
