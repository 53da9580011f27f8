package dev.docapi.workflows;

import dev.docapi.accounts.Account;
import dev.docapi.api.Views;
import dev.docapi.core.ApiException;
import dev.docapi.jobs.Job;
import dev.docapi.limits.Admission;
import dev.docapi.operations.Step;
import dev.docapi.operations.StepValidator;
import java.util.List;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Starts workflow runs (spec §4.3) for the HTTP endpoints and for the MCP tools ({@code list_workflows},
 * {@code run_workflow}) and the agent: validates the first step against the real files, admits the run (job cap,
 * quota: one operation reserved per step) and submits it as one job with operation {@code workflow}.
 */
@Service
public class WorkflowService {
    private final WorkflowStore store;
    private final StepValidator validator;
    private final WorkflowRunner runner;
    private final Admission admission;

    public WorkflowService(WorkflowStore store, StepValidator validator, WorkflowRunner runner, Admission admission) {
        this.store = store;
        this.validator = validator;
        this.runner = runner;
        this.admission = admission;
    }

    /**
     * A saved workflow as GET /v1/workflows/{id} and the MCP tool {@code list_workflows} show it:
     * {@code {object: "workflow", id, name, steps, created_at}}, secret options (passwords) not shown.
     */
    public ObjectNode view(Workflow w) {
        ObjectNode n = JsonMapper.shared().createObjectNode();
        n.put("object", "workflow");
        n.put("id", w.id());
        n.put("name", w.name());
        n.set("steps", validator.view(w.steps()));
        n.put("created_at", Views.iso(w.createdAt()));
        return n;
    }

    /** The account's saved workflows, newest first. */
    public List<Workflow> list(Account account) {
        return store.list(account.id());
    }

    /**
     * Runs a saved workflow on {@code fileIds}.
     *
     * @param webhookUrl an already checked {@code webhook_url}, or null
     * @throws ApiException 404 {@code not_found} (workflow), plus everything {@link #run} throws
     */
    public Job runSaved(Account account, String workflowId, List<String> fileIds, String webhookUrl) {
        Workflow w = store.get(account.id(), workflowId);
        // Saved steps were validated when saved; validating again applies today's rules and yields typed steps.
        return run(account, validator.validate(w.steps()), fileIds, w.id(), webhookUrl);
    }

    /**
     * Runs steps given as JSON ({@code [{operation, options}]}) without saving them.
     *
     * @throws ApiException as {@link StepValidator#validate} and {@link #run}
     */
    public Job runAdHoc(Account account, tools.jackson.databind.JsonNode steps, List<String> fileIds, String webhookUrl) {
        return run(account, validator.validate(steps), fileIds, null, webhookUrl);
    }

    /**
     * @throws ApiException 400 (first step against the files), 404/410 (files), 429 {@code too_many_jobs},
     *                      402 {@code quota_exceeded}
     */
    private Job run(Account account, List<Step> steps, List<String> fileIds, String workflowId, String webhookUrl) {
        WorkflowRunner.Prepared p = runner.prepare(account, steps, fileIds);
        return admission.submit(account, steps.size(), 0, WorkflowJobs.OPERATION, runner.storedInput(p, workflowId),
                runner.payload(p), webhookUrl);
    }
}
