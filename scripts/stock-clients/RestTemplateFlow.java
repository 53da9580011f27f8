package flow;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.openapitools.client.ApiClient;
import org.openapitools.client.api.FilesApi;
import org.openapitools.client.api.JobsApi;
import org.openapitools.client.api.OperationsApi;
import org.openapitools.client.model.CompressRequest;
import org.openapitools.client.model.FileObject;
import org.openapitools.client.model.Job;
import org.openapitools.client.model.RotateRequest;
import org.springframework.http.ResponseEntity;

/**
 * The flow of scripts/check-clients on openapi-generator's Java {@code resttemplate} client (the usual Spring choice;
 * issue 30), generated with default options: upload a PDF, rotate it without {@code pages} (an unset optional list must
 * not be sent as JsonNullable's fields), compress with {@code wait: 0} (202), poll the job, download through
 * {@code download_url} (no key). Then {@link JobShapes}: form-fields (output.data), a rotate whose
 * webhook fails (an address nothing listens on), and a jobs page (issue 39). Arguments: base URL, API key, PDF path, webhook URL.
 */
public class RestTemplateFlow {
    public static void main(String[] args) throws Exception {
        ApiClient client = new ApiClient();
        client.setBasePath(args[0]);
        client.setBearerToken(args[1]);
        OperationsApi operations = new OperationsApi(client);
        JobsApi jobs = new JobsApi(client);

        FileObject upload = new FilesApi(client).uploadFile(new File(args[2]), null, null);
        Job rotated = operations.rotatePdf(new RotateRequest()._file(upload.getId()).angle(RotateRequest.AngleEnum.NUMBER_90));
        check(rotated.getStatus() == Job.StatusEnum.SUCCEEDED, "rotate without pages succeeded: " + rotated);

        CompressRequest compress = new CompressRequest()._file(rotated.getOutput().getFiles().get(0).getId());
        compress.setWait(0); // not wait(0): that is Object.wait(long)
        ResponseEntity<Job> accepted = operations.compressPdfWithHttpInfo(compress);
        check(accepted.getStatusCode().value() == 202, "compress with wait 0 answers 202, not " + accepted.getStatusCode());
        Job job = accepted.getBody();
        for (int i = 0; i < 240 && job.getStatus() != Job.StatusEnum.SUCCEEDED && job.getStatus() != Job.StatusEnum.FAILED; i++) {
            Thread.sleep(250);
            job = jobs.getJob(job.getId());
        }
        check(job.getStatus() == Job.StatusEnum.SUCCEEDED, "compress succeeded: " + job);

        HttpResponse<byte[]> pdf = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(job.getOutput().getFiles().get(0).getDownloadUrl().toString())).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        check(pdf.statusCode() == 200 && new String(pdf.body(), 0, 5, "US-ASCII").equals("%PDF-"), "download_url gives the PDF");
        JobShapes.check(operations, jobs, upload.getId(), args[3], List.of(rotated.getId(), job.getId()));
        System.out.println("java resttemplate: upload, rotate (no pages), compress (202, polled), download, form-fields (output.data), failed webhook attempt, jobs page OK");
    }

    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
}
