package dev.docapi.workflows;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.http.Authenticated;
import dev.docapi.api.JobResponses;
import dev.docapi.api.Views;
import dev.docapi.api.WebhookUrls;
import dev.docapi.operations.Step;
import dev.docapi.operations.StepValidator;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Workflows (spec §4.3): save, list, get, delete, and run (saved or ad hoc) as one job with operation
 * {@code workflow}. A run answers like an operation: 200 finished, 202 still running, 502 {@code {error, job}}.
 */
@RestController
class WorkflowsController {
    private static final Set<String> RUN_MEMBERS = Set.of("file", "files", "wait", "webhook_url");

    private final WorkflowStore store;
    private final StepValidator validator;
    private final WorkflowService workflows;
    private final JobResponses responses;
    private final WebhookUrls webhookUrls;
    private final Views views;
    private final JsonMapper json;

    WorkflowsController(WorkflowStore store, StepValidator validator, WorkflowService workflows, JobResponses responses,
                        WebhookUrls webhookUrls, Views views, JsonMapper json) {
        this.store = store;
        this.validator = validator;
        this.workflows = workflows;
        this.responses = responses;
        this.webhookUrls = webhookUrls;
        this.views = views;
        this.json = json;
    }

    /** {@code {name, steps}} → 201 Workflow with {@code Location: /v1/workflows/{id}}. */
    @PostMapping("/v1/workflows")
    ResponseEntity<ObjectNode> create(HttpServletRequest request, @RequestBody(required = false) JsonNode body) {
        Account account = Authenticated.account(request);
        ObjectNode req = object(body);
        for (String m : req.propertyNames()) {
            if (!m.equals("name") && !m.equals("steps")) throw ApiException.invalid("unknown member '" + m + "'; a workflow has 'name' and 'steps'");
        }
        JsonNode name = req.get("name");
        if (name == null || !name.isString() || name.asString().isBlank()) throw ApiException.invalid("'name' is required (a non-empty string)");
        if (name.asString().length() > 200) throw ApiException.invalid("'name' must be at most 200 characters");
        List<Step> steps = validator.validate(req.get("steps"));
        ArrayNode stored = json.createArrayNode();
        for (Step s : steps) stored.addObject().put("operation", s.operation().name()).set("options", s.options());
        Workflow w = store.create(account.id(), name.asString().strip(), stored);
        return ResponseEntity.created(java.net.URI.create("/v1/workflows/" + w.id())).body(workflows.view(w));
    }

    @GetMapping("/v1/workflows")
    ObjectNode list(HttpServletRequest request) {
        return views.list(store.list(Authenticated.account(request).id()).stream().map(workflows::view).toList());
    }

    @GetMapping("/v1/workflows/{id}")
    ObjectNode get(HttpServletRequest request, @PathVariable String id) {
        return workflows.view(store.get(Authenticated.account(request).id(), id));
    }

    /** → {@code {object: "workflow", id, deleted: true}} (DESIGN §4). */
    @DeleteMapping("/v1/workflows/{id}")
    ObjectNode delete(HttpServletRequest request, @PathVariable String id) {
        store.delete(Authenticated.account(request).id(), id);
        ObjectNode n = json.createObjectNode();
        n.put("object", "workflow");
        n.put("id", id);
        n.put("deleted", true);
        return n;
    }

    /** {@code {file? | files?, wait?, webhook_url?}} → one Job. */
    @PostMapping("/v1/workflows/{id}/run")
    ResponseEntity<JsonNode> runSaved(HttpServletRequest request, @PathVariable String id, @RequestBody(required = false) JsonNode body)
            throws InterruptedException {
        Account account = Authenticated.account(request);
        ObjectNode req = object(body);
        checkMembers(req, RUN_MEMBERS);
        store.get(account.id(), id); // 404 before the request's other checks
        List<String> ids = fileIds(req);
        int wait = JobResponses.waitSeconds(req.get("wait"));
        String webhook = webhookUrls.check(req.get("webhook_url"));
        return responses.respond(workflows.runSaved(account, id, ids, webhook), wait);
    }

    /** {@code {steps, file? | files?, wait?, webhook_url?}} → one Job, without saving the workflow. */
    @PostMapping("/v1/workflows/run")
    ResponseEntity<JsonNode> runAdHoc(HttpServletRequest request, @RequestBody(required = false) JsonNode body) throws InterruptedException {
        Account account = Authenticated.account(request);
        ObjectNode req = object(body);
        Set<String> allowed = new java.util.HashSet<>(RUN_MEMBERS);
        allowed.add("steps");
        checkMembers(req, allowed);
        validator.validate(req.get("steps")); // step errors first: they are the likeliest mistake
        List<String> ids = fileIds(req);
        int wait = JobResponses.waitSeconds(req.get("wait"));
        String webhook = webhookUrls.check(req.get("webhook_url"));
        return responses.respond(workflows.runAdHoc(account, req.get("steps"), ids, webhook), wait);
    }

    private static List<String> fileIds(ObjectNode req) {
        JsonNode file = req.get("file");
        JsonNode files = req.get("files");
        boolean hasFile = file != null && !file.isNull();
        // an empty 'files' is absent, as an empty optional selector of an operation is (issue 13)
        boolean hasFiles = files != null && !files.isNull() && !(files.isArray() && files.isEmpty());
        if (!hasFile && !hasFiles) throw ApiException.invalid("give the workflow its input as 'file' (one file id) or 'files' (an array of file ids)");
        if (hasFile && hasFiles) throw ApiException.invalid("give the workflow its input as 'file' or 'files', not both");
        if (hasFile) {
            if (!file.isString()) throw ApiException.invalid("'file' must be a file id (a string)");
            return List.of(file.asString());
        }
        if (!files.isArray()) throw ApiException.invalid("'files' must be an array of file ids");
        List<String> ids = new ArrayList<>();
        for (JsonNode n : files) {
            if (!n.isString()) throw ApiException.invalid("'files' must contain file ids (strings)");
            ids.add(n.asString());
        }
        return ids;
    }

    private static void checkMembers(ObjectNode req, Set<String> allowed) {
        for (String m : req.propertyNames()) {
            if (!allowed.contains(m)) throw ApiException.invalid("unknown member '" + m + "'; a run takes " + allowed.stream().sorted().toList());
        }
    }

    private static ObjectNode object(JsonNode body) {
        if (body == null || !body.isObject()) throw ApiException.invalid("the request body must be a JSON object");
        return (ObjectNode) body;
    }
}
