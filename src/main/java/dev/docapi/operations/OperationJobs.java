package dev.docapi.operations;

import dev.docapi.accounts.Account;
import dev.docapi.contract.OperationContext;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobWork;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/** Runs operation jobs on whichever node claims them (issue 15): payload {@code {files, options}}, counted once. */
@Component
public class OperationJobs implements JobWork {
    private final OperationRegistry registry;
    private final OperationService operations;

    public OperationJobs(OperationRegistry registry, OperationService operations) {
        this.registry = registry;
        this.operations = operations;
    }

    @Override
    public boolean runs(String operation) {
        return registry.exists(operation);
    }

    /** The operation's declared deadline when longer than {@code standard} (issue 40 item 1). */
    @Override
    public java.time.Duration deadline(Job job, ObjectNode payload, java.time.Duration standard) {
        return longer(registry.get(job.operation()).spec().deadline(), standard);
    }

    /** The longer of an operation's declared deadline (may be null) and {@code standard}. */
    public static java.time.Duration longer(java.time.Duration declared, java.time.Duration standard) {
        return declared != null && declared.compareTo(standard) > 0 ? declared : standard;
    }

    @Override
    public Outcome run(Account account, Job job, ObjectNode payload, OperationContext.ProgressListener progress, Meter meter) throws Exception {
        OperationService.Submission s = operations.resume(account, registry.get(job.operation()), JobWork.fileIds(payload),
                (ObjectNode) payload.get("options"));
        OperationService.Execution e = operations.execute(account, s, job.id(), progress, 0);
        meter.succeeded(1);
        return new Outcome(e.files(), e.result());
    }
}
