package dev.docapi.api;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.jobs.Job;
import dev.docapi.limits.Admission;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationService;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one way an operation request becomes a job, for {@code POST /v1/{operation}} and the MCP tools (spec §4.4):
 * validation against the real files ({@link OperationService#prepare}), {@code wait} and {@code webhook_url}, then
 * admission against the job cap and quota ({@link Admission#submit}). The caller waits up to {@link Submitted#waitSeconds}
 * seconds and answers in its own form. Workflow runs are submitted by {@code WorkflowService}; the agent runs its
 * steps inside its own job.
 */
@Component
public class OperationSubmitter {
    private final OperationService operations;
    private final Admission admission;
    private final WebhookUrls webhookUrls;
    private final JsonMapper json;

    public OperationSubmitter(OperationService operations, Admission admission, WebhookUrls webhookUrls, JsonMapper json) {
        this.operations = operations;
        this.admission = admission;
        this.webhookUrls = webhookUrls;
        this.json = json;
    }

    /** An admitted job and the seconds (0-300) the request asked to wait for it. */
    public record Submitted(Job job, int waitSeconds) {
    }

    /**
     * A request whose input member holds file ids ({@code POST /v1/{operation}}).
     *
     * @throws ApiException 404 {@code unknown_operation}, the 4xx of validation (nothing counted), or what admission refuses
     */
    public Submitted submit(Account account, String operation, ObjectNode body) {
        return admit(account, operations.prepare(account, operation, body), body);
    }

    /**
     * @param fileIds how the input member becomes file ids (over MCP: ids, imported URLs and uploads)
     * @throws ApiException the 4xx of validation (nothing counted), or what admission refuses
     */
    public Submitted submit(Account account, Operation<?> op, ObjectNode body, OperationService.FileIds fileIds) {
        return admit(account, operations.prepare(account, op, body, fileIds), body);
    }

    private Submitted admit(Account account, OperationService.Submission s, ObjectNode body) {
        int wait = JobResponses.waitSeconds(body.get("wait"));
        String webhook = webhookUrls.check(body.get("webhook_url"));
        Job job = admission.submit(account, 1, s.aiOperations(), s.operation().name(), s.storedInput(json.createObjectNode()), s.payload(json.createObjectNode()), webhook);
        return new Submitted(job, wait);
    }
}
