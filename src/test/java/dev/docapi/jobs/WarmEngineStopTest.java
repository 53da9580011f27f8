package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.engines.libreoffice.OfficePool;
import dev.docapi.operations.convert.ConvertHangTest;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A job stopped at its deadline interrupts its work's thread (issue 40 item 1); a warm LibreOffice process busy with
 * that work's document is then abandoned and replaced, not handed to the next document half-way through it.
 */
@Isolated("stops the shared LibreOffice and Chromium mid-work")
class WarmEngineStopTest extends ApiTestBase {
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
        work.join(Duration.ofSeconds(240)); // the process is replaced before the thread lets go (a bound on "it lets go", not on speed)
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
}
