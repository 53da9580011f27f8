package dev.docapi.api;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.http.Authenticated;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code POST /v1/{operation}} (spec §4.4): validate at once, run as a job, answer within {@code wait}. */
@RestController
public class OperationsController {
    private final OperationSubmitter submitter;
    private final JobResponses responses;

    public OperationsController(OperationSubmitter submitter, JobResponses responses) {
        this.submitter = submitter;
        this.responses = responses;
    }

    @PostMapping(path = "/v1/{operation}")
    ResponseEntity<JsonNode> run(HttpServletRequest request, @PathVariable String operation, @RequestBody(required = false) JsonNode body)
            throws InterruptedException {
        Account account = Authenticated.account(request);
        if (body == null || !body.isObject()) throw ApiException.invalid("the request body must be a JSON object");
        OperationSubmitter.Submitted submitted = submitter.submit(account, operation, (ObjectNode) body);
        return responses.respond(submitted.job(), submitted.waitSeconds());
    }
}
