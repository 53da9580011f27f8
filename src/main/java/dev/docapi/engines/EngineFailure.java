package dev.docapi.engines;

/**
 * An engine (qpdf, Ghostscript, OCRmyPDF, PDFBox, ...) that could not do what it was asked, with a client-safe
 * message (no server path: {@code ProcessRunner} cuts the sandbox's folders from the engine's output). The operation
 * layer maps its {@link Kind} to the API's error code in one place ({@code operations.OperationService}).
 */
public class EngineFailure extends Exception {

    /** Why the engine failed, in the terms the operation layer maps to error codes (spec §7). */
    public enum Kind {
        /** The input is not what the engine can read: damaged, not of its type ({@code invalid_file}). */
        INVALID_INPUT,
        /** The input is encrypted and needs a password the engine was not given ({@code invalid_file}). */
        PASSWORD_NEEDED,
        /** A component the engine needs is not installed on this node ({@code service_unavailable}). */
        ENGINE_MISSING,
        /** The engine ran past its timeout and was killed with its process group ({@code internal_error}). */
        TIMEOUT,
        /** The engine hit one of its sandbox's bounds: memory, CPU time or output size ({@code internal_error}). */
        BOUND_EXCEEDED,
        /** Anything else: the engine could not start, crashed or exited with a failure ({@code internal_error}). */
        FAILED
    }

    private final Kind kind;

    public EngineFailure(Kind kind, String message) {
        this(kind, message, null);
    }

    public EngineFailure(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
