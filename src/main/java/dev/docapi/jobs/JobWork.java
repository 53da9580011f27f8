package dev.docapi.jobs;

import dev.docapi.accounts.Account;
import dev.docapi.contract.OperationContext;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a claimed job back into its work, on whichever node claimed it (issue 15): a job row carries the operation
 * name and its sealed payload, never code. One implementation runs operations, one runs workflows.
 */
public interface JobWork {

    /** What a finished job produced: its output files (in order) and its other output members. */
    record Outcome(java.util.List<dev.docapi.files.StoredFile> files, dev.docapi.contract.OperationResult result) {
    }

    /** True when this implementation runs jobs whose {@code operation} is this ({@code workflow} or an operation name). */
    boolean runs(String operation);

    /**
     * Runs the job. Anything thrown fails the job: an {@link dev.docapi.contract.OperationFailure} or
     * {@link dev.docapi.core.ApiException} with its code and message, anything else as {@code internal_error}.
     *
     * @param payload what the admitting node sealed: {@code {files, options}} or {@code {files, steps}}, secrets included
     * @param meter   counts each successful operation against the job's reservation (spec §8)
     */
    Outcome run(Account account, Job job, ObjectNode payload, OperationContext.ProgressListener progress, Meter meter) throws Exception;

    /**
     * How long the job may run (issue 40 item 1): {@code standard} ({@code DOCAPI_JOB_DEADLINE}), or longer where
     * the operations it runs declare a longer deadline ({@link dev.docapi.operations.OperationSpec#deadline}).
     */
    default java.time.Duration deadline(Job job, ObjectNode payload, java.time.Duration standard) {
        return standard;
    }

    /** The {@code files} member of a payload: the input file ids, in order. */
    static java.util.List<String> fileIds(ObjectNode payload) {
        java.util.List<String> ids = new java.util.ArrayList<>();
        payload.get("files").forEach(n -> ids.add(n.asString()));
        return ids;
    }

    /** Counts a job's successful operations against the operations reserved for it. */
    @FunctionalInterface
    interface Meter {
        /** Counts {@code operations} successful operations (spec §8: only successful operations count). */
        void succeeded(int operations);
    }

    /** The operations reserved for jobs at admission, as the runner sees them. */
    interface Reserved {
        /** The meter of {@code jobId}'s reservation. */
        Meter meter(String jobId);

        /** Gives back what is left of {@code jobId}'s reservation once the job is over. Idempotent. */
        void release(String jobId);
    }
}
