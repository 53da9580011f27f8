package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.core.ErrorCode;
import dev.docapi.engines.libreoffice.OfficePool;
import dev.docapi.operations.OperationService;
import dev.docapi.operations.convert.ConvertHangTest;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The shared warm engines stopped mid-work. A job stopped at its deadline interrupts its work's thread (issue 40 item
 * 1); a warm LibreOffice process busy with that work's document is then abandoned and replaced, not handed to the next
 * document half-way through it. A LibreOffice process or a Chromium killed from outside fails only the job it served,
 * as {@code internal_error} in our words (issue 40 item 4), and the next conversion succeeds.
 */
@Isolated("stops the shared LibreOffice and Chromium mid-work")
class WarmEngineStopTest extends ApiTestBase {
    /** A Java class or method name, an exception's or error's: what a library's own text shows. */
    private static final String LIBRARY_TEXT = "(?s).*(\\b(java|javax|eu|org)\\.[a-z]+\\.|Exception|Error\\b|Cannot invoke).*";
    @Autowired
    OfficePool office;
    @Autowired
    dev.docapi.engines.chromium.Chromium chromium;

    @Test
    void aLibreOfficeConversionInterruptedWithItsJobReplacesItsProcessAndTheNextConversionSucceeds() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "stop-");
        Path huge = ConvertHangTest.hugeDocx(dir.resolve("long.docx"), 60_000);
        office.start();
        long restarts = office.restarts();
        Set<Long> before = office.processes().stream().map(ProcessHandle::pid).collect(Collectors.toSet());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread work = Thread.ofPlatform().name("stopped-conversion").start(() -> {
            try {
                office.convert(huge, dir.resolve("long.pdf"));
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        Thread.sleep(2500); // LibreOffice is now loading the document (it takes it minutes)
        assertThat(work.isAlive()).as("the conversion still runs").isTrue();
        work.interrupt();
        work.join(Duration.ofSeconds(90)); // the process is replaced before the thread lets go
        assertThat(work.isAlive()).isFalse();
        assertThat(thrown.get()).as("what the stopped conversion threw").isNotNull().hasMessageContaining("stopped");
        assertThat(Files.exists(dir.resolve("long.pdf"))).isFalse();
        assertThat(office.restarts()).isGreaterThan(restarts);
        Set<Long> after = office.processes().stream().map(ProcessHandle::pid).collect(Collectors.toSet());
        assertThat(before).as("a process that had the document is gone").isNotEmpty().anyMatch(pid -> !after.contains(pid));

        Path out = dir.resolve("next.pdf");
        office.convert(corpus("office/fake.docx"), out);
        assertThat(Independent.pdftotext(out)).contains("Lorem ipsum dolor sit amet");
    }

    /**
     * A print interrupted with its job ends at once, and the browser serves the next print. (That the stopped page's
     * tab is closed is not observed here: Chromium's renderers were not found among this JVM's descendants.)
     */
    @Test
    void aChromiumPrintInterruptedWithItsJobEndsAtOnceAndTheNextPrintSucceeds() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "stop-print-");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread work = Thread.ofPlatform().name("stopped-print").start(() -> {
            try {
                chromium.print("<!DOCTYPE html><html><body><p>never printed</p><script>for(;;){}</script></body></html>",
                        dev.docapi.engines.chromium.Chromium.PageSetup.A4, dir.resolve("loop.pdf"), null);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        Thread.sleep(5000); // the browser is started and the page's script loops (the print's own timeout is 60 s)
        assertThat(work.isAlive()).as("the print still runs").isTrue();
        work.interrupt();
        work.join(Duration.ofSeconds(10));
        assertThat(work.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(Files.exists(dir.resolve("loop.pdf"))).isFalse();

        Path out = dir.resolve("next.pdf");
        chromium.print("<!DOCTYPE html><html><body><p>printed after a stopped job</p></body></html>",
                dev.docapi.engines.chromium.Chromium.PageSetup.A4, out, null);
        assertThat(Independent.pdftotext(out)).contains("printed after a stopped job");
    }

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
