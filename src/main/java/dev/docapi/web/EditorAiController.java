package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.api.OperationSubmitter;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.FileKind;
import dev.docapi.files.FileService;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobRunner;
import dev.docapi.jobs.JobStatus;
import dev.docapi.jobs.JobStore;
import dev.docapi.operations.editplan.EditPlanOperation;
import dev.docapi.workflows.WorkflowService;
import java.security.Principal;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The editor's AI edits (issue 26 item 4): an instruction becomes an {@code edit-plan} job for the open file through
 * the API's own submit path ({@link OperationSubmitter}: validated, one AI operation reserved and counted, listed in
 * Jobs, as {@code POST /v1/edit-plan}); applying a plan runs its steps as ONE workflow run on that file
 * ({@link WorkflowService#runAdHoc}, as a save does). Answers as {@link EditorAnswers}; both wait up to
 * {@value EditorController#SAVE_WAIT} s.
 */
@Controller
class EditorAiController {
    private final OperationSubmitter submitter;
    private final WorkflowService workflows;
    private final JobRunner runner;
    private final JobStore jobs;
    private final FileService files;
    private final JsonMapper json;
    private final CurrentAccount current;

    EditorAiController(OperationSubmitter submitter, WorkflowService workflows, JobRunner runner, JobStore jobs, FileService files, JsonMapper json,
                       CurrentAccount current) {
        this.submitter = submitter;
        this.workflows = workflows;
        this.runner = runner;
        this.jobs = jobs;
        this.files = files;
        this.json = json;
        this.current = current;
    }

    /**
     * {@code {instruction}} → 200 {@code {job, plan: {summary, steps, pages?, deleted_pages?}}} (the job's
     * {@code output.data}), 202 {@code {job}}, 502 {@code {job, error}} (a refused plan: the reason), or the API's
     * 4xx {@code {error}} (a blank instruction, the AI quota spent, no model).
     */
    @PostMapping("/files/{id}/edit/plan")
    ResponseEntity<ObjectNode> plan(Principal principal, @PathVariable String id, @RequestBody(required = false) JsonNode body)
            throws InterruptedException {
        Account account = current.of(principal);
        try {
            ObjectNode request = json.createObjectNode().put("file", id);
            if (body != null && body.has("instruction")) request.set("instruction", body.get("instruction"));
            Job job = runner.await(submitter.submit(account, EditPlanOperation.NAME, request).job(), EditorController.SAVE_WAIT);
            return EditorAnswers.of(job, json, (done, answer) -> answer.set("plan", done.output().path("data")));
        } catch (ApiException refused) {
            return EditorAnswers.refused(refused, json);
        }
    }

    /**
     * {@code {job}} (a succeeded edit plan of this file) → 200 {@code {job, file?}} ({@code file}: the new PDF, absent
     * when the result is not one PDF, e.g. split's ZIP), 202 {@code {job}}, 502 {@code {job, error}}, or a 4xx
     * {@code {error}}.
     */
    @PostMapping("/files/{id}/edit/apply")
    ResponseEntity<ObjectNode> apply(Principal principal, @PathVariable String id, @RequestBody(required = false) JsonNode body)
            throws InterruptedException {
        Account account = current.of(principal);
        try {
            Job plan = planOf(account, id, body == null ? "" : body.path("job").asString(""));
            Job job = runner.await(workflows.runAdHoc(account, plan.output().path("data").path("steps"), List.of(id), null), EditorController.SAVE_WAIT);
            return EditorAnswers.of(job, json, (done, answer) -> {
                JsonNode out = done.output().path("files");
                if (out.size() == 1 && files.get(account, out.get(0).asString()).kind() == FileKind.PDF) answer.put("file", out.get(0).asString());
            });
        } catch (ApiException refused) {
            return EditorAnswers.refused(refused, json);
        }
    }

    /** @throws ApiException 404 {@code job_not_found} (another account's too), 400 when it is not a succeeded plan of {@code fileId} */
    private Job planOf(Account account, String fileId, String jobId) {
        Job plan = jobs.find(jobId).filter(j -> j.accountId().equals(account.id()))
                .orElseThrow(() -> new ApiException(ErrorCode.JOB_NOT_FOUND, "there is no job '" + jobId + "'"));
        boolean ofThisFile = plan.input().path("files").path(0).asString("").equals(fileId);
        if (!plan.operation().equals(EditPlanOperation.NAME) || plan.status() != JobStatus.SUCCEEDED || !ofThisFile) {
            throw ApiException.invalid("job '" + jobId + "' is not a finished edit plan of file '" + fileId + "'");
        }
        return plan;
    }
}
