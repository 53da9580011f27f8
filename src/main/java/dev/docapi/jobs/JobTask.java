package dev.docapi.jobs;

import dev.docapi.files.StoredFile;
import dev.docapi.operations.OperationContext;
import dev.docapi.operations.OperationResult;
import java.util.List;

/** The work of one job: an operation, a workflow run or an agent run. */
@FunctionalInterface
public interface JobTask {

    /** What a finished task produced: its output files (in order) and its other output members. */
    record Outcome(List<StoredFile> files, OperationResult result) {
    }

    /**
     * Runs the task. Anything thrown fails the job: an {@link dev.docapi.operations.OperationFailure} or
     * {@link dev.docapi.api.ApiException} with its code and message, anything else as {@code internal_error}.
     */
    Outcome run(String jobId, OperationContext.ProgressListener progress) throws Exception;
}
