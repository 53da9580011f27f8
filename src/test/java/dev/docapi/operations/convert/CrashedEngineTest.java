package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.engines.chromium.Chromium;
import dev.docapi.engines.libreoffice.OfficePool;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The shared warm engines killed from outside mid-work (issue 40 item 4): a LibreOffice process or a Chromium that
 * dies fails only the job it served, as {@code internal_error} in our words, and the next conversion succeeds. Apart
 * from {@link ConvertHangTest} (private engines, run beside other classes) because it kills the shared ones.
 */
@Isolated("kills a busy process of the shared LibreOffice pool and the shared Chromium")
class CrashedEngineTest extends ApiTestBase {
    /** A Java class or method name, an exception's or error's: what a library's own text shows. */
    private static final String LIBRARY_TEXT = "(?s).*(\\b(java|javax|eu|org)\\.[a-z]+\\.|Exception|Error\\b|Cannot invoke).*";

    @Autowired
    OfficePool office;
    @Autowired
    Chromium chromium;

    @Test
    void anOfficeProcessKilledMidConversionFailsOnlyThatJobAsAnInternalError() throws Exception {
        String key = newKey();
        Path huge = ConvertHangTest.hugeDocx(Files.createTempDirectory(DATA_DIR, "crash-").resolve("crash.docx"), 60_000);
        office.start();
        Response started = post(key, "/convert", Map.of("file", uploadId(key, huge), "to", "pdf", "wait", 0));
        assertThat(started.status()).isEqualTo(202);
        String jobId = started.body().get("id").asString();
        Thread.sleep(2500); // LibreOffice is now loading the document
        JsonNode running = get(key, "/jobs/" + jobId).body();
        assertThat(running.get("status").asString()).isEqualTo("running");
        assertThat(running.at("/progress/done").asInt(-1)).isZero();
        assertThat(running.at("/progress/total").asInt()).isEqualTo(1);
        assertThat(running.at("/progress/unit").asString()).isEqualTo("files");

        // a crash of the process converting it (the other slot's is left alone), by its ids
        List<ProcessHandle> procs = busyOfficeProcesses();
        assertThat(procs).isNotEmpty();
        procs.forEach(ProcessHandle::destroyForcibly);
        long killedAt = System.nanoTime();
        JsonNode job = null;
        for (int i = 0; i < 240; i++) {
            job = get(key, "/jobs/" + jobId).body();
            if (job.get("status").asString().matches("succeeded|failed")) break;
            Thread.sleep(500);
        }
        // noticed when the process is gone, not at the task timeout (120 s), which JODConverter alone waited for
        assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(90));
        assertThat(job.get("status").asString()).as("%s", job).isEqualTo("failed");
        assertThat(job.at("/error/code").asString()).isEqualTo("internal_error");
        assertThat(job.at("/error/message").asString()).startsWith("'crash.docx': LibreOffice stopped while converting the document")
                .doesNotMatch(LIBRARY_TEXT);

        JsonNode ok = run(key, "convert", Map.of("file", uploadId(key, corpus("office/stanley-cups.xlsx")), "to", "pdf", "wait", 120));
        assertThat(Independent.pdftotext(downloadOutput(ok, 0))).contains("Maple Leafs");
    }

    /** The LibreOffice processes of the slot whose exchange folder holds a document being converted. */
    private List<ProcessHandle> busyOfficeProcesses() {
        java.util.regex.Pattern slot = java.util.regex.Pattern.compile("UserInstallation=file://(\\S+?/office-[^/\\s]+)/");
        return office.processes().stream().filter(ph -> {
            java.util.regex.Matcher m = slot.matcher(ph.info().commandLine().orElse(""));
            return m.find() && Files.exists(Path.of(m.group(1), "exchange", "document.docx"));
        }).toList();
    }

    @Test
    void aChromiumThatDiesIsRestartedForTheNextDocument() throws Exception {
        String key = newKey();
        run(key, "convert", Map.of("file", uploadId(key, corpus("html-md-txt/simple-table.md")), "to", "pdf"));
        long pid = chromium.pid().orElseThrow();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly(); // a browser crash, by its process id
        ProcessHandle.of(pid).ifPresent(ph -> ph.onExit().join());

        JsonNode ok = run(key, "convert", Map.of("file", uploadId(key, corpus("html-md-txt/fake-html.html")), "to", "pdf"));
        assertThat(Independent.pdftotext(downloadOutput(ok, 0))).contains("My First Heading");
        assertThat(chromium.pid().orElseThrow()).isNotEqualTo(pid);
    }
}
