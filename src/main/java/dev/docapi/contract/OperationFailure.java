package dev.docapi.contract;

import dev.docapi.core.ErrorCode;

/** An operation that ran and failed, with a client-safe message; the job fails with {@code code}. */
public class OperationFailure extends Exception {
    private final ErrorCode code;
    private final OperationResult partial;

    public OperationFailure(String message) {
        this(ErrorCode.INTERNAL_ERROR, message, null);
    }

    public OperationFailure(ErrorCode code, String message, Throwable cause) {
        this(code, message, cause, null);
    }

    /**
     * A failure that still has output to show on the failed job (e.g. a workflow's {@code output.steps} up to and
     * including the step that failed); {@code partial} may be null.
     */
    public OperationFailure(ErrorCode code, String message, Throwable cause, OperationResult partial) {
        super(message, cause);
        this.code = code;
        this.partial = partial;
    }

    /** Output members recorded on the failed job, or null. */
    public OperationResult partial() {
        return partial;
    }

    public ErrorCode code() {
        return code;
    }
}
