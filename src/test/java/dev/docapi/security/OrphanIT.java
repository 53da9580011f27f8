package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.PackagedService;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No engine outlives the service (issue 9 "no orphans"): the packaged service is killed with SIGKILL, or stopped
 * with SIGTERM, while OCRmyPDF and Tesseract work on a scan; every sandboxed process of it is gone within seconds,
 * and the next start removes the interrupted job's work folder.
 */
class OrphanIT {

    @Test
    void killMinus9DuringOcrLeavesNoEngineAndTheNextStartCleansUp() throws Exception {
        PackagedService service = new PackagedService().start();
        String key = service.newKey("orphan-kill@example.com", "pro");
        startOcr(service, key);
        service.killJvm();
        assertNoEngineWithin(service, 10);

        service.start();
        try (Stream<java.nio.file.Path> left = Files.list(service.dataDir().resolve("work"))) {
            assertThat(left.toList()).isEmpty();
        } finally {
            service.terminate();
        }
    }

    @Test
    void sigtermDuringOcrLeavesNoEngine() throws Exception {
        PackagedService service = new PackagedService().start();
        String key = service.newKey("orphan-term@example.com", "pro");
        startOcr(service, key);
        service.terminate();
        assertNoEngineWithin(service, 10);
    }

    /** Submits an OCR of a 6-page scan and waits until its sandboxed engines run. */
    private static void startOcr(PackagedService service, String key) throws Exception {
        String file = service.upload(key, ApiTestBase.corpus("pdf-scanned/multipage-6p-mixed.pdf"));
        String job = service.post(key, "/ocr", Map.of("file", file, "wait", 0), 202).get("id").asString();
        service.awaitRunning(key, job);
        for (int i = 0; i < 200 && service.engineProcesses().stream().noneMatch(OrphanIT::isOcrEngine); i++) Thread.sleep(50);
        assertThat(service.engineProcesses()).as("OCR engines of the running job").anyMatch(OrphanIT::isOcrEngine);
    }

    private static boolean isOcrEngine(ProcessHandle ph) {
        String cmd = ph.info().commandLine().orElse("");
        return cmd.contains("ocrmypdf") || cmd.contains("tesseract");
    }

    private static void assertNoEngineWithin(PackagedService service, int seconds) throws InterruptedException {
        List<ProcessHandle> left = service.engineProcesses();
        for (int i = 0; i < seconds * 10 && !left.isEmpty(); i++) {
            Thread.sleep(100);
            left = service.engineProcesses();
        }
        assertThat(left.stream().map(ph -> ph.info().commandLine().orElse("?")).toList()).as("engine processes left").isEmpty();
    }
}
