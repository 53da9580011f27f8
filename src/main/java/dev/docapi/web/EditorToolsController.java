package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.api.OperationSubmitter;
import dev.docapi.core.ApiException;
import dev.docapi.files.FileService;
import dev.docapi.files.StoredFile;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobRunner;
import dev.docapi.jobs.JobStatus;
import dev.docapi.operations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The page editor's side panel of document tools (issue 26 item 3): a {@link DocumentTools} operation applied to the
 * open file as saved, its options in Try it's form ({@link OperationForm}, template fragment {@code try :: options}),
 * run as ONE job through the API's own submit path ({@link OperationSubmitter}: validated, counted and listed like
 * {@code POST /v1/{operation}}). Both answers are the form fragment {@code editor :: tool} for htmx; on success the
 * browser is sent (header {@code HX-Redirect}) to the new file in the editor, or to the job's page when it is still
 * running after {@value EditorController#SAVE_WAIT} s. Another account's file answers 404 like an unknown one.
 */
@Controller
class EditorToolsController {
    private final DocumentTools tools;
    private final OperationForm form;
    private final OperationSubmitter submitter;
    private final JobRunner runner;
    private final FileService files;
    private final CurrentAccount current;

    EditorToolsController(DocumentTools tools, OperationForm form, OperationSubmitter submitter, JobRunner runner, FileService files,
                          CurrentAccount current) {
        this.tools = tools;
        this.form = form;
        this.submitter = submitter;
        this.runner = runner;
        this.files = files;
        this.current = current;
    }

    /** The tool's form, empty. */
    @GetMapping("/files/{id}/tools")
    String form(Principal principal, @PathVariable String id, @RequestParam String operation, Model model) {
        model.addAttribute("file", own(current.of(principal), id));
        form.show(tools.get(operation), Map.of(), model);
        return "editor :: tool";
    }

    /**
     * Runs the tool on the file with the options typed (form fields named after them). A request the operation
     * refuses, or a job that fails, comes back as the form with the reason and the API's status (502 for a failed job).
     */
    @PostMapping("/files/{id}/tools/{operation}")
    String run(Principal principal, @PathVariable String id, @PathVariable String operation, @RequestParam Map<String, String> values,
               HttpServletRequest request, HttpServletResponse response, Model model) throws InterruptedException {
        Account account = current.of(principal);
        StoredFile file = own(account, id);
        Operation<?> op = tools.get(operation);
        model.addAttribute("file", file);
        form.show(op, values, model);
        try {
            Job job = runner.await(submitter.submit(account, op.name(), form.body(op, List.of(file.id()), values)).job(), EditorController.SAVE_WAIT);
            if (job.status() == JobStatus.FAILED) {
                response.setStatus(502);
                model.addAttribute("problem", job.errorMessage());
                return "editor :: tool";
            }
            response.setHeader("HX-Redirect", request.getContextPath() + (job.status() == JobStatus.SUCCEEDED
                    ? "/files/" + job.output().path("files").get(0).asString() + "/edit?saved" : "/try/jobs/" + job.id()));
            return null;
        } catch (ApiException refused) {
            response.setStatus(refused.code().status());
            model.addAttribute("problem", refused.getMessage());
            return "editor :: tool";
        }
    }

    private StoredFile own(Account account, String id) {
        try {
            return files.get(account, id);
        } catch (ApiException notOwn) {
            throw CurrentAccount.notFound();
        }
    }
}
