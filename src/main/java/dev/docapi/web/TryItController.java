package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.api.OperationSubmitter;
import dev.docapi.api.Views;
import dev.docapi.files.FileService;
import dev.docapi.files.StoredFile;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobStore;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * "Try it" (issue 11, page 6): upload files or pick the account's own, pick an operation, fill its options in a form
 * made from its declaration ({@link OperationForm}), run it as the signed-in owner's account through the API's own
 * submit path ({@link OperationSubmitter}: validated, counted and listed like any API job), follow the job live and
 * download its outputs, with the equivalent {@code curl} commands ({@link CurlCommands}). A request the operation
 * refuses comes back as the form with the API's message and status (spec §7); another account's file or job answers
 * 404 like an unknown one.
 */
@Controller
class TryItController {
    /** The form's field of uploaded files, and of the ids of the account's files picked. */
    static final String UPLOAD = "upload";
    static final String PICKED = "file";
    private final OperationRegistry registry;
    private final OperationSubmitter submitter;
    private final OperationForm form;
    private final CurlCommands curl;
    private final FileService files;
    private final JobStore jobs;
    private final Views views;
    private final JsonMapper json;
    private final CurrentAccount current;

    TryItController(OperationRegistry registry, OperationSubmitter submitter, OperationForm form, CurlCommands curl, FileService files,
                    JobStore jobs, Views views, JsonMapper json, CurrentAccount current) {
        this.registry = registry;
        this.submitter = submitter;
        this.form = form;
        this.curl = curl;
        this.files = files;
        this.jobs = jobs;
        this.views = views;
        this.json = json;
        this.current = current;
    }

    /** The operations to choose from; with {@code operation}, its form. */
    @GetMapping("/try")
    String page(Principal principal, @RequestParam(required = false) String operation, Model model) {
        model.addAttribute("operations", registry.all());
        if (operation == null || operation.isBlank()) return "try";
        showForm(current.of(principal), operation(operation), Map.of(), List.of(), model);
        return "try";
    }

    /**
     * Stores the uploads as the account's files, then submits the operation as {@code POST /v1/{operation}} would;
     * on success, to the job's page. Uploads are kept when the operation refuses the request, and come back picked.
     */
    @PostMapping("/try/{operation}")
    String run(Principal principal, @PathVariable String operation, HttpServletRequest request, HttpServletResponse response,
               Model model) throws IOException {
        Account account = current.of(principal);
        Operation<?> op = operation(operation);
        model.addAttribute("operations", registry.all());
        List<String> fileIds = new ArrayList<>();
        Map<String, String> values = Map.of();
        try (PostedForm posted = PostedForm.read(request, UPLOAD, op.inputs().max(), files)) {
            values = posted.firstValues();
            fileIds.addAll(posted.values(PICKED));
            for (PostedForm.Upload u : posted.uploads()) fileIds.add(files.register(account, u.received(), u.name(), "upload").id());
            Job job = submitter.submit(account, op.name(), form.body(op, fileIds, values)).job();
            return "redirect:/try/jobs/" + job.id();
        } catch (ApiException refused) {
            response.setStatus(refused.code().status());
            model.addAttribute("problem", refused.getMessage());
            showForm(account, op, values, fileIds, model);
            return "try";
        }
    }

    /** A job run from here (or any operation job of the account): its live status, outputs and the curl commands. */
    @GetMapping("/try/jobs/{id}")
    String job(Principal principal, @PathVariable String id, Model model) {
        Job job = ownJob(principal, id, model);
        List<CurlCommands.Input> inputs = new ArrayList<>();
        for (var fileId : job.input().path("files")) {
            String name = files.find(fileId.asString()).map(StoredFile::name).orElse(fileId.asString());
            inputs.add(new CurlCommands.Input(fileId.asString(), name));
        }
        ObjectNode options = job.input().path("options").isObject() ? (ObjectNode) job.input().get("options") : json.createObjectNode();
        model.addAttribute("curl", curl.of(registry.get(job.operation()), inputs, options));
        return "try-job";
    }

    /** The job's status part alone, what htmx swaps in every second while the job is queued or running. */
    @GetMapping("/try/jobs/{id}/status")
    String jobStatus(Principal principal, @PathVariable String id, Model model) {
        ownJob(principal, id, model);
        return "try-job :: status";
    }

    /** The account's operation job, its status, outputs and output data in the model. */
    private Job ownJob(Principal principal, String id, Model model) {
        Job job;
        try {
            job = jobs.get(current.of(principal).id(), id);
        } catch (ApiException notOwn) {
            throw CurrentAccount.notFound();
        }
        // workflow runs have no single operation to try again: their page is the job's own
        if (!registry.exists(job.operation())) throw CurrentAccount.notFound();
        ObjectNode view = views.job(job);
        ObjectNode data = view.path("output").isObject() ? ((ObjectNode) view.get("output")).deepCopy() : json.createObjectNode();
        data.remove("files");
        model.addAttribute("job", job);
        model.addAttribute("live", !job.status().finished());
        model.addAttribute("outputs", view.path("output").path("files"));
        model.addAttribute("data", data.isEmpty() ? null : json.writerWithDefaultPrettyPrinter().writeValueAsString(data));
        return job;
    }

    private Operation<?> operation(String name) {
        if (!registry.exists(name)) throw CurrentAccount.notFound();
        return registry.get(name);
    }

    /** The operation's form, with the values sent (secrets never repeated) and the files picked or uploaded. */
    private void showForm(Account account, Operation<?> op, Map<String, String> values, Collection<String> picked, Model model) {
        form.show(op, values, model);
        model.addAttribute("picked", picked);
        model.addAttribute("kinds", op.inputs().kinds().stream().map(FileKind::id).sorted().collect(Collectors.joining(", ")));
        model.addAttribute("files", files.list(account, FilesPageController.RECENT).stream()
                .filter(f -> op.inputs().kinds().contains(f.kind())).toList());
    }
}
