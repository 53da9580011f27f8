package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.FileKind;
import dev.docapi.files.FileService;
import dev.docapi.files.StoredFile;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobRunner;
import dev.docapi.workflows.WorkflowService;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The page editor (issue 26): a PDF of the account as thumbnails (rendered in the browser by PDF.js, script
 * {@code /js/editor.js}) to reorder, rotate, delete and duplicate, saved as ONE workflow run through the API's own
 * path ({@link WorkflowService#runAdHoc}: validated, counted and listed like {@code POST /v1/workflows/run}). The
 * result is a new file; the original stays. Another account's file answers 404 like an unknown one.
 */
@Controller
class EditorController {
    /** Seconds a save waits for its job before answering that it is still running. */
    static final int SAVE_WAIT = 60;
    private final FileService files;
    private final WorkflowService workflows;
    private final JobRunner runner;
    private final JsonMapper json;
    private final CurrentAccount current;

    EditorController(FileService files, WorkflowService workflows, JobRunner runner, JsonMapper json, CurrentAccount current) {
        this.files = files;
        this.workflows = workflows;
        this.runner = runner;
        this.json = json;
        this.current = current;
    }

    @GetMapping("/files/{id}/edit")
    String page(Principal principal, @PathVariable String id, Model model) {
        model.addAttribute("file", ownPdf(current.of(principal), id));
        return "editor";
    }

    /**
     * {@code {pages: [{page, rotation}]}} (source page numbers from 1, in the new order; rotation 0, 90, 180 or 270
     * clockwise, added to the page's own) → 200 {@code {job, file}} (the new file's id), 202 {@code {job}} when the job
     * is still running after {@value #SAVE_WAIT} s, or the API's status with {@code {error: {code, message}, job?}}.
     */
    @PostMapping("/files/{id}/edit")
    ResponseEntity<ObjectNode> save(Principal principal, @PathVariable String id, @RequestBody(required = false) JsonNode body)
            throws InterruptedException {
        Account account = current.of(principal);
        try {
            // the API's own answers (404, 410) as JSON here: the page shows them and keeps the arrangement
            StoredFile file = files.get(account, id);
            if (file.kind() != FileKind.PDF) throw ApiException.invalid("file '" + id + "' is not a PDF");
            Job job = runner.await(workflows.runAdHoc(account, steps(arrangement(body), file.pages()), List.of(file.id()), null), SAVE_WAIT);
            return EditorAnswers.of(job, json, (done, answer) -> answer.put("file", done.output().path("files").get(0).asString()));
        } catch (ApiException refused) {
            return EditorAnswers.refused(refused, json);
        }
    }

    /** One page of the arrangement: its number in the source file (from 1) and the rotation added to it. */
    record Placement(int page, int rotation) {
    }

    private static List<Placement> arrangement(JsonNode body) {
        JsonNode pages = body == null ? null : body.get("pages");
        if (pages == null || !pages.isArray()) throw ApiException.invalid("'pages' must be an array of {page, rotation}");
        List<Placement> out = new ArrayList<>();
        for (JsonNode p : pages) {
            if (!p.path("page").isIntegralNumber() || !p.path("rotation").isIntegralNumber()) {
                throw ApiException.invalid("each page must be {page, rotation} with integers");
            }
            int rotation = Math.floorMod(p.get("rotation").asInt(), 360);
            if (rotation % 90 != 0) throw ApiException.invalid("'rotation' must be a multiple of 90");
            out.add(new Placement(p.get("page").asInt(), rotation));
        }
        return out;
    }

    /**
     * The smallest chain of the spec's operations giving {@code arrangement}: {@code organize} with the pages in their
     * new order (duplicates and deletions included) unless the order is the file's own, then one {@code rotate} per
     * angle over the output's page numbers. Page numbers are checked by the operations themselves (400 as the API).
     *
     * @param pageCount the source's number of pages, null when unknown (then organize is always kept)
     * @throws ApiException 400 when nothing changes
     */
    ArrayNode steps(List<Placement> arrangement, Integer pageCount) {
        ArrayNode steps = json.createArrayNode();
        List<Integer> order = arrangement.stream().map(Placement::page).toList();
        boolean same = pageCount != null && order.size() == pageCount
                && java.util.stream.IntStream.range(0, order.size()).allMatch(i -> order.get(i) == i + 1);
        if (!same) {
            ObjectNode organize = steps.addObject().put("operation", "organize");
            organize.putObject("options").set("pages", json.valueToTree(order));
        }
        Map<Integer, List<Integer>> byAngle = new TreeMap<>();
        for (int i = 0; i < arrangement.size(); i++) {
            int r = arrangement.get(i).rotation();
            if (r != 0) byAngle.computeIfAbsent(r, k -> new ArrayList<>()).add(i + 1);
        }
        byAngle.forEach((angle, pages) -> {
            ObjectNode options = steps.addObject().put("operation", "rotate").putObject("options").put("angle", angle);
            options.set("pages", json.valueToTree(pages));
        });
        if (steps.isEmpty()) throw ApiException.invalid("nothing to save: the arrangement is the file as it is");
        return steps;
    }

    private StoredFile ownPdf(Account account, String id) {
        StoredFile f;
        try {
            f = files.get(account, id);
        } catch (ApiException notOwn) {
            throw CurrentAccount.notFound();
        }
        if (f.kind() != FileKind.PDF) throw CurrentAccount.notFound();
        return f;
    }
}
