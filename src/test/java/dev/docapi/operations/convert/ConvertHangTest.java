package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.docapi.core.ErrorCode;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.chromium.Chromium;
import dev.docapi.engines.libreoffice.OfficePool;
import dev.docapi.engines.libreoffice.OfficeProperties;
import dev.docapi.engines.process.MemoryCaps;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import dev.docapi.operations.OperationService;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The warm engines' failures (issue 40 item 4): a conversion that does not finish is stopped, and a Chromium that
 * cannot start fails with {@code internal_error} (neither is the input's fault) and a message that says what happened
 * in our words, and the next conversion through the same engine succeeds. The engines with short limits (LibreOffice
 * 15 s: a cold restarted process must still convert a small file in time; Chromium 10 s, likewise) are built here, beside the
 * shared service's own, so that no second Spring context is started and other classes may run beside this one; the
 * shared engines killed mid-work are {@link CrashedEngineTest}'s.
 */
public class ConvertHangTest extends ApiTestBase {

    @Autowired
    OfficePool office;
    @Autowired
    Sandbox sandbox;
    @Autowired
    MemoryCaps caps;
    @Autowired
    ProcessRunner runner;

    /** A pool of one process with a 15 s task timeout, started on first use. */
    private OfficePool shortOffice() {
        OfficeProperties s = office.settings();
        return new OfficePool(new OfficeProperties(1, s.memoryMb(), Duration.ofSeconds(15), s.queueTimeout(), s.maxTasks(), false, s.officeHome()),
                sandbox, caps, runner);
    }

    private Chromium chromium(String binary, Duration timeout) {
        return new Chromium(sandbox, caps, binary, timeout, 1, 512, runner);
    }

    @Test
    void anOfficeFileThatRunsPastTheTimeoutFailsAsATimeoutAndTheNextConversionSucceeds() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "hang-");
        Path huge = hugeDocx(dir.resolve("endless.docx"), 60_000);
        OfficePool pool = shortOffice();
        try {
            EngineFailure f = catchThrowableOfType(EngineFailure.class, () -> pool.convert(huge, dir.resolve("endless.pdf")));
            assertThat(f.kind()).isEqualTo(EngineFailure.Kind.TIMEOUT);
            assertThat(f.getMessage()).isEqualTo("LibreOffice did not finish converting the document within 15 s (DOCAPI_OFFICE_TASK_TIMEOUT) "
                    + "and was stopped: the document needs more time than one conversion may take");
            // not the input's fault: a 502 internal_error, which a client may retry
            assertThat(OperationService.failure(f).code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
            assertThat(Files.exists(dir.resolve("endless.pdf"))).isFalse();

            Path small = Files.copy(corpus("office/fake.docx"), dir.resolve("fake.docx"));
            pool.convert(small, dir.resolve("fake.pdf"));
            assertThat(Independent.pdftotext(dir.resolve("fake.pdf"))).contains("Lorem ipsum dolor sit amet");
        } finally {
            pool.stop();
        }
    }

    @Test
    void anHtmlPageThatNeverFinishesLoadingFailsAsATimeoutAndTheNextPrintSucceeds() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "loop-");
        // 10 s: the next print, in a browser started afresh, must fit in it too on a loaded machine
        Chromium browser = chromium("/usr/bin/chromium", Duration.ofSeconds(10));
        try {
            String loop = "<!DOCTYPE html><html><body><p>never printed</p><script>for(;;){}</script></body></html>";
            EngineFailure f = catchThrowableOfType(EngineFailure.class,
                    () -> browser.print(loop, Chromium.PageSetup.A4, dir.resolve("loop.pdf"), null));
            assertThat(f.kind()).isEqualTo(EngineFailure.Kind.TIMEOUT);
            assertThat(f.getMessage()).isEqualTo("the page did not finish loading within 10 s (DOCAPI_CHROMIUM_TIMEOUT): "
                    + "its scripts or layout need more time than one print may take");
            assertThat(OperationService.failure(f).code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
            assertThat(Files.exists(dir.resolve("loop.pdf"))).isFalse();

            browser.print(Files.readString(corpus("html-md-txt/fake-html.html")), Chromium.PageSetup.A4, dir.resolve("ok.pdf"), null);
            assertThat(Independent.pdftotext(dir.resolve("ok.pdf"))).contains("My First Heading");
        } finally {
            browser.stopBrowser();
        }
    }

    /** A browser that exits as it starts (a broken install, a missing library): an internal error, said as such. */
    @Test
    void aChromiumThatCannotStartFailsAsAnInternalError() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "nostart-");
        Chromium browser = chromium("/bin/false", Duration.ofSeconds(4));
        try {
            assertThat(browser.available()).isTrue(); // installed, as far as the node can tell
            EngineFailure f = catchThrowableOfType(EngineFailure.class,
                    () -> browser.print("<p>hello</p>", Chromium.PageSetup.A4, dir.resolve("out.pdf"), null));
            assertThat(f.kind()).isEqualTo(EngineFailure.Kind.FAILED);
            assertThat(f.getMessage()).isEqualTo("the browser that prints HTML could not be started on this node; the document was not printed");
            assertThat(OperationService.failure(f).code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
            assertThat(Files.exists(dir.resolve("out.pdf"))).isFalse();
            assertThat(browser.pid()).isEmpty();
        } finally {
            browser.stopBrowser();
        }
    }

    /** Tabs are reused (issue 16): one whose page hangs as it is left is replaced, and no later document waits on it. */
    @Test
    void aPageThatHangsWhenItIsLeftDoesNotHoldBackTheNextDocuments() throws Exception {
        String key = newKey();
        Path dir = Files.createTempDirectory(DATA_DIR, "leave-");
        Path sticky = Files.writeString(dir.resolve("sticky.html"), """
                <!DOCTYPE html><html><body><p>STICKY-PRINTED</p><script>
                addEventListener("pagehide", () => { for (;;) {} });
                </script></body></html>""");
        JsonNode first = run(key, "convert", Map.of("file", uploadId(key, sticky), "to", "pdf"));
        assertThat(Independent.pdftotext(downloadOutput(first, 0))).contains("STICKY-PRINTED");
        String next = uploadId(key, corpus("html-md-txt/fake-html.html"));
        for (int i = 0; i < 3; i++) { // more documents than tabs: the sticky page's tab comes round
            JsonNode ok = run(key, "convert", Map.of("file", next, "to", "pdf"));
            assertThat(Independent.pdftotext(downloadOutput(ok, 0))).contains("My First Heading");
        }
    }

    /** A valid .docx of {@code paragraphs} paragraphs: LibreOffice needs far longer than 15 s (about 40 s on 2 cores) to lay it out. */
    public static Path hugeDocx(Path file, int paragraphs) throws Exception {
        try (OutputStream os = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(os)) {
            put(zip, "[Content_Types].xml", """
                    <?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
                    <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
                    <Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" \
                    ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>""");
            put(zip, "_rels/.rels", """
                    <?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
                    <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" \
                    Target="word/document.xml"/></Relationships>""");
            StringBuilder doc = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
                    + "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>");
            for (int i = 0; i < paragraphs; i++) {
                doc.append("<w:p><w:r><w:t>Paragraph ").append(i)
                        .append(" of a very long generated document that keeps LibreOffice busy laying out pages.</w:t></w:r></w:p>");
            }
            put(zip, "word/document.xml", doc.append("</w:body></w:document>").toString());
        }
        return file;
    }

    private static void put(ZipOutputStream zip, String name, String text) throws Exception {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(text.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
    }
}
