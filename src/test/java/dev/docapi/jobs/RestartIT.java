package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.PackagedService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The packaged service, stopped (killed) while a job runs and started again: the job fails with
 * {@code interrupted} (spec §3) and is not counted. Also proves {@code bin/docapi admin} works beside the service.
 */
@Tag("database")
class RestartIT {

    @Test
    void aJobRunningWhenTheServiceStopsIsInterruptedAtTheNextStart() throws Exception {
        PackagedService service = new PackagedService().start();
        String jobId;
        String key;
        try {
            key = service.newKey("restart@example.com", "pro");
            String file = service.upload(key, ApiTestBase.corpus("pdf-text/geotopo-117p-linearized-links.pdf"));
            List<List<Integer>> ranges = new ArrayList<>();
            for (int i = 0; i < 600; i++) ranges.add(List.of(1, 117));
            jobId = service.post(key, "/split", Map.of("file", file, "ranges", ranges, "wait", 0), 202).get("id").asString();
            service.awaitRunning(key, jobId);
        } finally {
            ProcessRunner.killTree(service.process());
        }
        service.start();
        try {
            JsonNode job = service.get(key, "/jobs/" + jobId);
            assertThat(job.path("status").asString("")).as(job.toString()).isEqualTo("failed");
            assertThat(job.at("/error/code").asString()).isEqualTo("interrupted");
            assertThat(job.get("finished_at").isNull()).isFalse();
        } finally {
            ProcessRunner.killTree(service.process());
        }
    }
}
