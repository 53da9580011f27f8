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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
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
 * {@code /js/editor.js}) to reorder, rotate, delete and duplicate, with pages of the account's other PDFs inserted,
 * saved as ONE workflow run through the API's own path ({@link WorkflowService#runAdHoc}: validated, counted and
 * listed like {@code POST /v1/workflows/run}). The result is a new file; the original stays. Another account's file
 * answers 404 like an unknown one. The page's document tools are {@link EditorToolsController}'s.
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
    private final DocumentTools tools;

    EditorController(FileService files, WorkflowService workflows, JobRunner runner, JsonMapper json, CurrentAccount current,
                     DocumentTools tools) {
        this.tools = tools;
        this.files = files;
        this.workflows = workflows;
        this.runner = runner;
        this.json = json;
        this.current = current;
    }

    @GetMapping("/files/{id}/edit")
    String page(Principal principal, @PathVariable String id, Model model) {
        Account account = current.of(principal);
        StoredFile file = ownPdf(account, id);
        model.addAttribute("file", file);
        // the bytes by their signed link, not by /files/{id}/download's redirect to it: one round trip less before the
        // first thumbnail (bench/editor.sh); the page is drawn within the link's hour
        model.addAttribute("pdf", files.downloadPath(file));
        // the PDFs whose pages can be inserted: any other of the account that opens without a password
        model.addAttribute("others", files.list(account, FilesPageController.RECENT).stream()
                .filter(f -> f.kind() == FileKind.PDF && !f.encrypted() && !f.id().equals(id)).toList());
        model.addAttribute("tools", tools.all());
        return "editor";
    }

    /**
     * {@code {pages: [{page, rotation, file?}]}} (source page numbers from 1, in the new order; rotation 0, 90, 180 or
     * 270 clockwise, added to the page's own; {@code file} the id of another PDF of the account whose page this is,
     * absent for this file's pages) → 200 {@code {job, file}} (the new file's id), 202 {@code {job}} when the job is
     * still running after {@value #SAVE_WAIT} s, or the API's status with {@code {error: {code, message}, job?}}: 404
     * for another account's or an unknown file, 400 for a file that is not a PDF or a page it does not have.
     */
    @PostMapping("/files/{id}/edit")
    ResponseEntity<ObjectNode> save(Principal principal, @PathVariable String id, @RequestBody(required = false) JsonNode body)
            throws InterruptedException {
        Account account = current.of(principal);
        try {
            // the API's own answers (404, 410) as JSON here: the page shows them and keeps the arrangement
            StoredFile file = pdf(account, id);
            List<Placement> arrangement = arrangement(body, id);
            // every file checked before the job: the merge step would check them too, but only once the job runs
            Map<String, StoredFile> sources = new LinkedHashMap<>();
            sources.put(id, file);
            for (Placement p : arrangement) if (!sources.containsKey(p.file())) sources.put(p.file(), pdf(account, p.file()));
            Job job = runner.await(workflows.runAdHoc(account, steps(arrangement, sources), List.copyOf(sources.keySet()), null), SAVE_WAIT);
            return EditorAnswers.of(job, json, (done, answer) -> answer.put("file", done.output().path("files").get(0).asString()));
        } catch (ApiException refused) {
            return EditorAnswers.refused(refused, json);
        }
    }

    /** The account's PDF; 404 {@code file_not_found} (another account's too), 410, 400 when it is not a PDF. */
    private StoredFile pdf(Account account, String id) {
        StoredFile f = files.get(account, id);
        if (f.kind() != FileKind.PDF) throw ApiException.invalid("file '" + id + "' is not a PDF");
        return f;
    }

    /** One page of the arrangement: the file it comes from, its number there (from 1) and the rotation added to it. */
    record Placement(String file, int page, int rotation) {
    }

    /** The placements of {@code body}; a page without {@code file} is one of {@code fileId}'s. */
    private static List<Placement> arrangement(JsonNode body, String fileId) {
        JsonNode pages = body == null ? null : body.get("pages");
        if (pages == null || !pages.isArray()) throw ApiException.invalid("'pages' must be an array of {page, rotation, file?}");
        List<Placement> out = new ArrayList<>();
        for (JsonNode p : pages) {
            if (!p.path("page").isIntegralNumber() || !p.path("rotation").isIntegralNumber()) {
                throw ApiException.invalid("each page must be {page, rotation} with integers");
            }
            if (p.has("file") && !p.get("file").isString()) throw ApiException.invalid("a page's 'file' must be a file id");
            int rotation = Math.floorMod(p.get("rotation").asInt(), 360);
            if (rotation % 90 != 0) throw ApiException.invalid("'rotation' must be a multiple of 90");
            out.add(new Placement(p.has("file") ? p.get("file").asString() : fileId, p.get("page").asInt(), rotation));
        }
        return out;
    }

    /**
     * The smallest chain of the spec's operations giving {@code arrangement}: when pages of other files are in it,
     * {@code merge} of {@code sources} in their order (the edited file first); then {@code organize} with the pages in
     * their new order (duplicates and deletions included; numbers offset into the merged document) unless that order
     * is the document's own; then one {@code rotate} per angle over the output's page numbers.
     *
     * @param sources the files of the arrangement by id, in order: the edited one first
     * @throws ApiException 400 when nothing changes, or, with other files, for a page a file does not have (alone, the
     *                      edited file's pages are checked by organize itself, as the API does)
     */
    ArrayNode steps(List<Placement> arrangement, Map<String, StoredFile> sources) {
        ArrayNode steps = json.createArrayNode();
        boolean merged = sources.size() > 1;
        if (merged) steps.addObject().put("operation", "merge");
        // where each file's pages start in the merged document
        Map<String, Integer> offsets = new HashMap<>();
        int total = 0;
        for (StoredFile f : sources.values()) {
            offsets.put(f.id(), total);
            if (f.pages() == null) {
                if (merged) throw ApiException.invalid("file '" + f.id() + "' needs a password to open; unlock it first");
                continue;
            }
            total += f.pages();
        }
        List<Integer> order = new ArrayList<>();
        for (Placement p : arrangement) {
            if (merged && (p.page() < 1 || p.page() > sources.get(p.file()).pages())) {
                throw ApiException.invalid("file '" + p.file() + "' has no page " + p.page());
            }
            order.add(offsets.get(p.file()) + p.page());
        }
        boolean same = order.size() == total
                && IntStream.range(0, order.size()).allMatch(i -> order.get(i) == i + 1);
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
