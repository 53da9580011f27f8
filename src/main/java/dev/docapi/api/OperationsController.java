package dev.docapi.api;

import dev.docapi.accounts.Account;
import dev.docapi.jobs.Job;
import dev.docapi.limits.Admission;
import dev.docapi.operations.OperationService;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** {@code POST /v1/{operation}} (spec §4.4): validate at once, run as a job, answer within {@code wait}. */
@RestController
public class OperationsController {
    private final OperationService operations;
    private final Admission admission;
    private final JobResponses responses;
    private final WebhookUrls webhookUrls;
    private final JsonMapper json;

    public OperationsController(OperationService operations, Admission admission, JobResponses responses, WebhookUrls webhookUrls, JsonMapper json) {
        this.operations = operations;
        this.admission = admission;
        this.responses = responses;
        this.webhookUrls = webhookUrls;
        this.json = json;
    }

    @PostMapping(path = "/v1/{operation}")
    ResponseEntity<JsonNode> run(HttpServletRequest request, @PathVariable String operation, @RequestBody(required = false) JsonNode body)
            throws InterruptedException {
        Account account = Authenticated.account(request);
        if (body == null || !body.isObject()) throw ApiException.invalid("the request body must be a JSON object");
        ObjectNode req = (ObjectNode) body;
        OperationService.Submission s = operations.prepare(account, operation, req);
        int wait = JobResponses.waitSeconds(req.get("wait"));
        String webhook = webhookUrls.check(req.get("webhook_url"));
        Job job = admission.submit(account, 1, s.operation().name(), s.storedInput(json.createObjectNode()), s.payload(json.createObjectNode()), webhook);
        return responses.respond(job, wait);
    }
}
