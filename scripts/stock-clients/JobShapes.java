package flow;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.openapitools.client.api.JobsApi;
import org.openapitools.client.api.OperationsApi;
import org.openapitools.client.model.FormFieldsRequest;
import org.openapitools.client.model.Job;
import org.openapitools.client.model.JobWebhookAttemptsInner;
import org.openapitools.client.model.RotateRequest;

/**
 * The jobs every Java stock client must read (issue 39), the same source compiled into each generated client (their
 * classes have the same names): a form-fields job (output.data), a job whose webhook delivery failed (an attempt with
 * a null status_code) and a GET /jobs page holding them and {@code earlier}. Compiles as Java 8 (okhttp-gson's level).
 */
final class JobShapes {
    private JobShapes() {
    }

    /** @param deadHook a URL nothing listens on */
    static void check(OperationsApi operations, JobsApi jobs, String fileId, String deadHook, List<String> earlier) throws Exception {
        Job fields = operations.listFormFields(new FormFieldsRequest()._file(fileId));
        Object data = fields.getOutput().getData();
        require(fields.getStatus() == Job.StatusEnum.SUCCEEDED && data instanceof Map && ((Map<?, ?>) data).get("fields") instanceof List,
                "form-fields gives output.data.fields: " + fields);

        RotateRequest hookRequest = new RotateRequest()._file(fileId).angle(RotateRequest.AngleEnum.NUMBER_180);
        hookRequest.setWebhookUrl(URI.create(deadHook));
        Job hooked = operations.rotatePdf(hookRequest);
        for (int i = 0; i < 240 && (hooked.getWebhook() == null || hooked.getWebhook().getAttempts().isEmpty()); i++) {
            Thread.sleep(250);
            hooked = jobs.getJob(hooked.getId());
        }
        List<JobWebhookAttemptsInner> attempts = hooked.getWebhook() == null ? List.of() : hooked.getWebhook().getAttempts();
        require(!attempts.isEmpty() && attempts.get(0).getStatusCode() == null && attempts.get(0).getError() != null,
                "the failed webhook attempt is recorded: " + hooked);

        List<String> ids = jobs.listJobs(100).getData().stream().map(Job::getId).collect(java.util.stream.Collectors.toList());
        List<String> expected = new java.util.ArrayList<>(earlier);
        expected.add(fields.getId());
        expected.add(hooked.getId());
        require(ids.containsAll(expected), "GET /jobs lists the jobs " + expected + ": " + ids);
    }

    private static void require(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
}
