package dev.docapi.workflows;

import dev.docapi.accounts.Account;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobWork;
import dev.docapi.contract.OperationContext;
import dev.docapi.operations.StepValidator;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs workflow jobs on whichever node claims them (issue 15): payload {@code {files, steps}} with the steps' full
 * options; the steps are validated again with today's rules, as a saved workflow is when it runs.
 */
@Component
public class WorkflowJobs implements JobWork {
    static final String OPERATION = "workflow";
    private final StepValidator validator;
    private final WorkflowRunner runner;
    private final dev.docapi.operations.OperationRegistry registry;

    public WorkflowJobs(StepValidator validator, WorkflowRunner runner, dev.docapi.operations.OperationRegistry registry) {
        this.validator = validator;
        this.runner = runner;
        this.registry = registry;
    }

    /** The longest deadline among its steps' operations, at least {@code standard} (issue 40 item 1). */
    @Override
    public java.time.Duration deadline(Job job, ObjectNode payload, java.time.Duration standard) {
        java.time.Duration longest = standard;
        for (var step : payload.path("steps")) {
            String name = step.path("operation").asString("");
            if (registry.exists(name)) longest = dev.docapi.operations.OperationJobs.longer(registry.get(name).spec().deadline(), longest);
        }
        return longest;
    }

    @Override
    public boolean runs(String operation) {
        return OPERATION.equals(operation);
    }

    @Override
    public Outcome run(Account account, Job job, ObjectNode payload, OperationContext.ProgressListener progress, Meter meter) throws Exception {
        WorkflowRunner.Prepared p = runner.prepare(account, validator.validate(payload.get("steps")), JobWork.fileIds(payload));
        return runner.run(account, p, job.id(), progress, meter);
    }
}
