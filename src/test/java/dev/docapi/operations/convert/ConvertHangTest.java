package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import dev.docapi.engines.libreoffice.OfficePool;
import org.springframework.beans.factory.annotation.Autowired;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A conversion that does not finish is stopped, fails its own job with a clear message, and the next conversion
 * through the same engine succeeds. Runs its own service with short per-conversion limits (LibreOffice 15 s: a cold restarted process must still convert a small file in time; Chromium 4 s).
 */
@TestPropertySource(properties = {"docapi.office.task-timeout=15s", "docapi.chromium.timeout=4s", "docapi.office.warm-at-start=true"})
public class ConvertHangTest extends ApiTestBase {
    @Autowired
    OfficePool office;
    @Autowired
    dev.docapi.engines.chromium.Chromium chromium;

    @Test
    void anOfficeFileThatRunsPastTheTimeoutFailsItsJobAndTheNextConversionSucceeds() throws Exception {
        String key = newKey();
        Path huge = hugeDocx(Files.createTempDirectory(DATA_DIR, "hang-").resolve("endless.docx"), 60_000);
        Response r = post(key, "/convert", Map.of("file", uploadId(key, huge), "to", "pdf", "wait", 120));
        // a failed job answers with an error status and {error, job} (spec §3 job states)
        assertThat(r.status()).as("%s", r).isEqualTo(502);
        assertThat(r.body().at("/job/status").asString()).isEqualTo("failed");
        assertThat(r.body().at("/error/message").asString()).contains("within 15 s");
        assertThat(r.body().at("/job/output/files").size()).isZero();

        JsonNode ok = run(key, "convert", Map.of("file", uploadId(key, corpus("office/fake.docx")), "to", "pdf"));
        Path out = downloadOutput(ok, 0);
        assertThat(Independent.pdftotext(out)).contains("Lorem ipsum dolor sit amet");
    }

    @Test
    void anOfficeProcessThatDiesMidConversionFailsOnlyThatJob() throws Exception {
        String key = newKey();
        Path huge = hugeDocx(Files.createTempDirectory(DATA_DIR, "crash-").resolve("crash.docx"), 60_000);
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
        List<ProcessHandle> procs = office.processes();
        assertThat(procs).isNotEmpty();
        procs.forEach(ProcessHandle::destroyForcibly); // a crash of the office process, by its id

        JsonNode job = null;
        for (int i = 0; i < 120; i++) {
            job = get(key, "/jobs/" + jobId).body();
            if (job.get("status").asString().matches("succeeded|failed")) break;
            Thread.sleep(500);
        }
        assertThat(job.get("status").asString()).as("%s", job).isEqualTo("failed");
        assertThat(job.at("/error/message").asString()).contains("LibreOffice");

        JsonNode ok = run(key, "convert", Map.of("file", uploadId(key, corpus("office/stanley-cups.xlsx")), "to", "pdf", "wait", 120));
        assertThat(Independent.pdftotext(downloadOutput(ok, 0))).contains("Maple Leafs");
    }

    @Test
    void anHtmlPageThatNeverFinishesLoadingFailsItsJobAndTheNextPrintSucceeds() throws Exception {
        String key = newKey();
        Path dir = Files.createTempDirectory(DATA_DIR, "loop-");
        Path loop = dir.resolve("loop.html");
        Files.writeString(loop, "<!DOCTYPE html><html><body><p>never printed</p><script>for(;;){}</script></body></html>");
        Response r = post(key, "/convert", Map.of("file", uploadId(key, loop), "to", "pdf", "wait", 120));
        assertThat(r.status()).as("%s", r).isEqualTo(502);
        assertThat(r.body().at("/job/status").asString()).isEqualTo("failed");
        assertThat(r.body().at("/error/message").asString()).contains("within 4 s");

        JsonNode ok = run(key, "convert", Map.of("file", uploadId(key, corpus("html-md-txt/fake-html.html")), "to", "pdf"));
        assertThat(Independent.pdftotext(downloadOutput(ok, 0))).contains("My First Heading");
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
