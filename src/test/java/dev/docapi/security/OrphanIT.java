package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.operations.convert.ConvertHangTest;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.PackagedService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No engine outlives the service (issue 9 "no orphans"): the packaged service is killed with SIGKILL, or stopped
 * with SIGTERM, while OCRmyPDF and Tesseract work on a scan and LibreOffice and Chromium on documents that never
 * finish; every sandboxed process of it is gone within seconds, and the next start removes the interrupted job's work
 * folder.
 */
class OrphanIT {

    @Test
    void killMinus9DuringOcrOfficeAndHtmlJobsLeavesNoEngineAndTheNextStartCleansUp() throws Exception {
        PackagedService service = new PackagedService().start();
        try {
            startEngines(service, service.newKey("orphan-kill@example.com", "pro"));
        } catch (Throwable e) {
            ProcessRunner.killTree(service.process()); // a failed start leaves nothing running for later tests
            throw e;
        }
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
    void sigtermDuringOcrOfficeAndHtmlJobsLeavesNoEngine() throws Exception {
        // the jobs may drain for 1 s (DOCAPI_SHUTDOWN_GRACE), then are interrupted and their engines killed
        PackagedService service = new PackagedService().env("DOCAPI_SHUTDOWN_GRACE", "1s").start();
        try {
            startEngines(service, service.newKey("orphan-term@example.com", "pro"));
        } catch (Throwable e) {
            ProcessRunner.killTree(service.process());
            throw e;
        }
        service.terminate();
        assertNoEngineWithin(service, 10);
    }

    /**
     * Starts an endless Office conversion, an endless HTML page and, last (it ends by itself), an OCR: LibreOffice,
     * Chromium, OCRmyPDF and Tesseract all run when it returns. One node for all four engines: each start costs CI.
     */
    private static void startEngines(PackagedService service, String key) throws Exception {
        startConversions(service, key);
        startOcr(service, key);
    }

    /** Starts an endless Office conversion and an HTML page that never stops, and waits until both engines run. */
    private static void startConversions(PackagedService service, String key) throws Exception {
        Path dir = Files.createTempDirectory("orphan-");
        Path docx = ConvertHangTest.hugeDocx(dir.resolve("endless.docx"), 60_000);
        Path html = Files.writeString(dir.resolve("loop.html"), "<!DOCTYPE html><p>never printed</p><script>for(;;){}</script>");
        for (Path p : List.of(docx, html)) {
            String job = service.post(key, "/convert", Map.of("file", service.upload(key, p), "to", "pdf", "wait", 0), 202).get("id").asString();
            service.awaitRunning(key, job);
        }
        assertThat(runningWithin(service, "soffice", 30)).as("LibreOffice of the running job").isTrue();
        assertThat(runningWithin(service, "chromium", 30)).as("Chromium of the running job").isTrue();
    }

    /**
     * Whether the engine runs within {@code seconds}. Polled, not read once: LibreOffice's first start in a new profile
     * exits (code 81) and is started again, so for a moment no process of it exists.
     */
    private static boolean runningWithin(PackagedService service, String engine, int seconds) throws InterruptedException {
        for (int i = 0; i < seconds * 10; i++) {
            if (service.engineProcesses().stream().anyMatch(ph -> ph.info().commandLine().orElse("").contains(engine))) return true;
            Thread.sleep(100);
        }
        return false;
    }

    /** Submits an OCR of a 6-page scan and waits until its sandboxed engines run. */
    private static void startOcr(PackagedService service, String key) throws Exception {
        String file = service.upload(key, ApiTestBase.corpus("pdf-scanned/multipage-6p-mixed.pdf"));
        String job = service.post(key, "/ocr", Map.of("file", file, "wait", 0), 202).get("id").asString();
        service.awaitRunning(key, job);
        // up to 30 s, as for the other engines: beside the two endless ones, the job's steps before OCRmyPDF took
        // over 10 s on a loaded 2-core CI run
        for (int i = 0; i < 600 && service.engineProcesses().stream().noneMatch(OrphanIT::isOcrEngine); i++) Thread.sleep(50);
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
        assertThat(left.stream().map(OrphanIT::describe).toList()).as("engine processes left").isEmpty();
    }

    /** A process as the failure shows it: its state, parent and PID namespace ids (to tell why it outlived the node), and its command. */
    private static String describe(ProcessHandle ph) {
        String status;
        try {
            status = Files.readAllLines(Path.of("/proc", Long.toString(ph.pid()), "status")).stream()
                    .filter(l -> l.startsWith("State:") || l.startsWith("PPid:") || l.startsWith("NSpid:")).map(l -> l.replaceAll("\\s+", " "))
                    .reduce((a, b) -> a + ", " + b).orElse("");
        } catch (java.io.IOException e) {
            status = "gone";
        }
        return "[" + ph.pid() + " " + status + "] " + ph.info().commandLine().orElse("?");
    }
}
