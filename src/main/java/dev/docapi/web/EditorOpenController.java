package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.api.OperationSubmitter;
import dev.docapi.core.ApiException;
import dev.docapi.core.FileKind;
import dev.docapi.files.FileService;
import dev.docapi.files.StoredFile;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobRunner;
import dev.docapi.jobs.JobStatus;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.security.Principal;
import java.util.EnumSet;
import java.util.Set;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import tools.jackson.databind.json.JsonMapper;

/**
 * Opening a file in the page editor (issue 26 item 1) from Files, from a job's output or from a fresh upload. A PDF
 * opens as it is; an Office document, image, HTML, Markdown or text file is converted to PDF first by ONE
 * {@code convert} job through the API's own submit path (validated, counted and listed as
 * {@code POST /v1/convert {file, to: "pdf"}} would be), and its PDF opens ({@code ?converted}). A conversion that
 * fails, or still runs after {@value EditorController#SAVE_WAIT} s, is shown on its Try it job page; a file the editor
 * cannot open (a ZIP, JSON, a certificate) or a refused upload (413 over 100 MB) is said on the Files page.
 */
@Controller
class EditorOpenController {
    /** The kinds {@code convert} turns into a PDF (spec §4.4, POST /convert: images, Office files, HTML, Markdown, text). */
    static final Set<FileKind> CONVERTED = EnumSet.of(FileKind.IMAGE, FileKind.OFFICE, FileKind.HTML, FileKind.MARKDOWN, FileKind.TEXT);
    /** The file field of the Files page's upload form. */
    static final String UPLOAD = "file";

    private final OperationSubmitter submitter;
    private final JobRunner runner;
    private final FileService files;
    private final CurrentAccount current;
    private final JsonMapper json;

    EditorOpenController(OperationSubmitter submitter, JobRunner runner, FileService files, CurrentAccount current, JsonMapper json) {
        this.submitter = submitter;
        this.runner = runner;
        this.files = files;
        this.current = current;
        this.json = json;
    }

    /** A fresh upload (multipart, one file in {@value #UPLOAD}), stored as {@code POST /v1/files} stores it, then opened. */
    @PostMapping("/files/open")
    String upload(Principal principal, HttpServletRequest request, RedirectAttributes flash) throws IOException, InterruptedException {
        Account account = current.of(principal);
        try (PostedForm posted = PostedForm.read(request, UPLOAD, 1, files)) {
            if (posted.uploads().isEmpty()) throw ApiException.invalid("Choose a file to open in the editor.");
            PostedForm.Upload u = posted.uploads().getFirst();
            return open(account, files.register(account, u.received(), u.name(), "upload"));
        } catch (ApiException refused) {
            flash.addFlashAttribute("problem", refused.getMessage());
            return "redirect:/files";
        }
    }

    /** A file of the account; another account's answers 404 like an unknown one. */
    @PostMapping("/files/{id}/open")
    String existing(Principal principal, @PathVariable String id, RedirectAttributes flash) throws InterruptedException {
        Account account = current.of(principal);
        StoredFile file;
        try {
            file = files.get(account, id);
        } catch (ApiException notOwn) {
            throw CurrentAccount.notFound();
        }
        try {
            return open(account, file);
        } catch (ApiException refused) {
            flash.addFlashAttribute("problem", refused.getMessage());
            return "redirect:/files";
        }
    }

    private String open(Account account, StoredFile file) throws InterruptedException {
        if (file.kind() == FileKind.PDF) return "redirect:/files/" + file.id() + "/edit";
        if (!CONVERTED.contains(file.kind())) {
            throw ApiException.invalid("'" + file.name() + "' cannot be opened in the editor: it opens PDFs, and Office documents, "
                    + "images, HTML, Markdown and text converted to PDF.");
        }
        var body = json.createObjectNode().put("file", file.id()).put("to", "pdf");
        Job job = runner.await(submitter.submit(account, "convert", body).job(), EditorController.SAVE_WAIT);
        return job.status() == JobStatus.SUCCEEDED
                ? "redirect:/files/" + job.output().path("files").get(0).asString() + "/edit?converted"
                : "redirect:/try/jobs/" + job.id();
    }
}
