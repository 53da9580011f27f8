package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** {@code POST /convert} to pdf: Office through the LibreOffice pool, HTML/Markdown/text through Chromium, images. */
class ConvertToPdfTest extends ApiTestBase {

    /** Converts a corpus file to pdf over HTTP; checks the name, qpdf --check and PDFBox, returns the downloaded PDF. */
    private Path convert(String key, Path input) throws Exception {
        JsonNode job = run(key, "convert", Map.of("file", uploadId(key, input), "to", "pdf"));
        String name = input.getFileName().toString();
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo(name.substring(0, name.lastIndexOf('.')) + ".pdf");
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).as("qpdf --check of %s", out).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isPositive();
        }
        return out;
    }

    private static String words(Path pdf) throws Exception {
        return Independent.pdftotext(pdf).replaceAll("\\s+", " ");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "office/fake.docx|Lorem ipsum dolor sit amet",
            "office/docx-tables.docx|Header Col 2",
            "office/docx-header-footer.docx|Main document",
            "office/stanley-cups.xlsx|Maple Leafs",
            "office/half-year-analyses-by-segment.xlsx|Analyses by segment",
            "office/fake-power-point.pptx|Adding a Bullet Slide",
            "office/sample-presentation.pptx|With a subtitle",
            "office/science-exploration-1p.pptx|Earth Sciences Division",
            "office/fake.odt|Lorem ipsum dolor sit amet"})
    void officeFilesBecomePdfsWithTheirText(String file, String expected) throws Exception {
        Path out = convert(newKey(), corpus(file));
        assertThat(words(out)).contains(expected);
    }

    @Test
    void anHtmlPageWhoseScriptAllocatesWithoutEndFailsFastSayingSoAndTheNextPrintSucceeds() throws Exception {
        String key = newKey();
        Path dir = Files.createTempDirectory(DATA_DIR, "alloc-");
        Path hog = Files.writeString(dir.resolve("hog.html"), "<!DOCTYPE html><html><body><p>never printed</p><script>"
                + "const kept = []; for (;;) kept.push(new Array(1e6).fill(1.5));</script></body></html>");
        String id = post(key, "/convert", Map.of("file", uploadId(key, hog), "to", "pdf", "wait", 0)).body().get("id").asString();
        JsonNode failed = awaitFinished(key, id);
        assertThat(failed.get("status").asString()).as("%s", failed).isEqualTo("failed");
        assertThat(failed.at("/error/message").asString()).contains("crashed", "512 MB of memory");
        // the job's own run time (the service's timestamps): no queue or tab wait of a loaded machine in it
        Duration ran = Duration.between(Instant.parse(failed.get("started_at").asString()), Instant.parse(failed.get("finished_at").asString()));
        assertThat(ran).as("ended by the memory bound, not the 60 s load timeout").isLessThan(Duration.ofSeconds(45));

        JsonNode ok = run(key, "convert", Map.of("file", uploadId(key, corpus("html-md-txt/fake-html.html")), "to", "pdf"));
        assertThat(Independent.pdftotext(downloadOutput(ok, 0))).contains("My First Heading");
    }

    @Test
    void aWordDocumentKeepsItsPictures() throws Exception {
        Path out = convert(newKey(), corpus("office/contains-pictures.docx"));
        assertThat(imageCount(out)).isPositive();
    }

    @Test
    void encryptedAndDamagedOfficeFilesAreRefusedAtUpload() {
        String key = newKey();
        for (String f : new String[] {"office/password-protected.xlsx", "office/tagged-damaged-zip.odt"}) {
            Response r = rawUpload(key, corpus(f));
            assertThat(r.status()).as(f).isEqualTo(400);
            assertThat(r.code()).as(f).isEqualTo("invalid_file");
        }
    }

    @Test
    void impossiblePairsAreRefusedBeforeAnyJobNamingThePossibleTargets() {
        String key = newKey();
        String xlsx = uploadId(key, corpus("office/stanley-cups.xlsx"));
        Response r = post(key, "/convert", Map.of("file", xlsx, "to", "docx"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(r.body().at("/error/message").asString()).contains("xlsx").contains("to docx").contains("pdf");

        String jpg = uploadId(key, corpus("images/DA-1p.jpg"));
        r = post(key, "/convert", Map.of("file", jpg, "to", "xlsx"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");
        assertThat(r.body().at("/error/message").asString()).contains("pdf");

        String pdf = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        r = post(key, "/convert", Map.of("file", pdf, "to", "pdf"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_request");

        r = post(key, "/convert", Map.of("file", xlsx, "to", "odt"));
        assertThat(r.status()).isEqualTo(400);
        r = post(key, "/convert", Map.of("file", xlsx));
        assertThat(r.status()).isEqualTo(400);
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "html-md-txt/fake-html.html|Row 2, Cell 2",
            "html-md-txt/example-10k-1p.html|Galaxy Gaming, Inc.",
            "html-md-txt/html-with-base64-image.html|Test page",
            "html-md-txt/html-cp1252.html|Die schöne Frau",
            "html-md-txt/simple-table.md|Juicy Apples",
            "html-md-txt/codeblock.md|Don't forget me this weekend!",
            "html-md-txt/ocrmypdf-README.md|OCRmyPDF",
            "html-md-txt/eng-spa-multilingual.md|razón",
            "html-md-txt/norwich-city.txt|Iwan Roberts"})
    void htmlMarkdownAndTextBecomePdfsWithTheirText(String file, String expected) throws Exception {
        Path out = convert(newKey(), corpus(file));
        assertThat(words(out)).contains(expected);
    }

    @Test
    void markdownTablesBecomeTableRowsAndCodeBlocksKeepTheirLines() throws Exception {
        String key = newKey();
        String table = Independent.run("pdftotext", "-layout", convert(key, corpus("html-md-txt/simple-table.md")).toString(), "-").output();
        // one row of the GFM table lies on one line, its cells in order
        assertThat(table).containsPattern("Juicy Apples\\s+1\\.99\\s+739");
        assertThat(table).doesNotContain("---|");
        String code = Independent.run("pdftotext", "-layout", convert(key, corpus("html-md-txt/codeblock.md")).toString(), "-").output();
        assertThat(code).containsPattern("<to>Tove</to>").contains("<!DOCTYPE html>");
    }

    @Test
    void anInlineBase64ImageIsRendered() throws Exception {
        assertThat(imageCount(convert(newKey(), corpus("html-md-txt/html-with-base64-image.html")))).isPositive();
    }

    @Test
    void htmlCannotReachTheNetworkNorLocalFiles() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            hits.incrementAndGet();
            byte[] b = "<h1>LEAKED-FROM-SERVER</h1>".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/html");
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
        try {
            String local = "http://127.0.0.1:" + server.getAddress().getPort();
            String html = """
                    <!DOCTYPE html><html><head><meta charset="utf-8">
                    <link rel="stylesheet" href="%1$s/style.css"></head><body>
                    <p>VISIBLE-MARKER</p>
                    <img src="%1$s/pixel.png"><img src="http://example.com/logo.png">
                    <iframe src="%1$s/frame.html"></iframe>
                    <iframe src="file:///etc/passwd" width="600" height="400"></iframe>
                    <iframe src="file:///etc/hostname"></iframe>
                    <script>fetch("%1$s/fetch").catch(() => {}); new Image().src = "%1$s/js.png";</script>
                    </body></html>
                    """.formatted(local);
            Path file = Files.createTempDirectory(DATA_DIR, "net-").resolve("network.html");
            Files.writeString(file, html);
            Path out = convert(newKey(), file);
            String text = words(out);
            assertThat(text).contains("VISIBLE-MARKER");
            assertThat(text).doesNotContain("LEAKED-FROM-SERVER").doesNotContain("root:x:0");
            assertThat(text).doesNotContain(Files.readString(Path.of("/etc/hostname")).strip().isEmpty() ? "VISIBLE-MARKER-NONE"
                    : Files.readString(Path.of("/etc/hostname")).strip());
            Thread.sleep(500);
            assertThat(hits.get()).as("requests that reached the local server").isZero();
        } finally {
            server.stop(0);
        }
    }

    /**
     * What the storage tests' pages share: {@code hold()} keeps the load event (so the print) waiting until
     * {@code settled} is set — each turn is a parser-blocking script from a {@code blob:} URL (no request), so the
     * page's asynchronous work (IndexedDB, BroadcastChannel) gets done before it is printed — and IndexedDB helpers.
     */
    private static final String STORAGE_PAGE = """
            <!DOCTYPE html><html><body><p id="p">NOT-SETTLED</p><script>
            const p = document.getElementById("p"), started = Date.now();
            let settled = false, turns = 0;
            function hold() {
              if (!settled && turns++ < 50000) document.write('<script src="' + URL.createObjectURL(new Blob(["hold()"], {type: "text/javascript"})) + '"><\\/script>');
            }
            function idbWrite() {
              return new Promise(done => {
                const r = indexedDB.open("secret", 1);
                r.onupgradeneeded = () => r.result.createObjectStore("s");
                r.onsuccess = () => {
                  const tx = r.result.transaction("s", "readwrite");
                  tx.objectStore("s").put("IDB-OF-ANOTHER-JOB", "k");
                  tx.oncomplete = () => done("written");
                };
                r.onerror = () => done("failed");
              });
            }
            function idbNames() {
              return indexedDB.databases().then(dbs => dbs.length ? dbs.map(d => d.name).join(",") : "none", () => "failed");
            }
            function writeAll() {
              localStorage.setItem("secret", "STORED-BY-ANOTHER-JOB");
              sessionStorage.setItem("secret", "STORED-BY-ANOTHER-JOB");
              document.cookie = "secret=COOKIE-OF-ANOTHER-JOB; max-age=3600";
              document.cookie = "site=SITE-COOKIE-OF-ANOTHER-JOB; max-age=3600; domain=document.invalid";
              window.name = "NAME-OF-ANOTHER-JOB";
              history.pushState(null, "", "#1"); history.pushState(null, "", "#2"); history.pushState(null, "", "#3");
              return idbWrite();
            }
            function written(idb) {
              return "WROTE local=" + localStorage.getItem("secret") + " session=" + sessionStorage.getItem("secret")
                  + " idb=" + idb + " name=" + window.name;
            }
            function seen() {
              return "local=" + (localStorage.getItem("secret") || "none") + " session=" + (sessionStorage.getItem("secret") || "none")
                  + " cookie=" + (document.cookie || "none") + " name=" + (window.name || "none");
            }
            </script>
            """;

    /** A later document is served at another random origin of the same site, in a reused tab: it reads nothing. */
    @Test
    void aDocumentSeesNothingAnEarlierDocumentStored() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "storage-");
        Path writer = Files.writeString(dir.resolve("writer.html"), STORAGE_PAGE + """
                <script>writeAll().then(idb => { p.textContent = written(idb); settled = true; }); hold();</script></body></html>
                """);
        Path reader = Files.writeString(dir.resolve("reader.html"), STORAGE_PAGE + """
                <script>idbNames().then(idb => { p.textContent = "READ " + seen() + " idb=" + idb + " history=" + history.length;
                  settled = true; }); hold();</script></body></html>
                """);
        assertThat(words(convert(newKey(), writer))).as("the writer's storage works")
                .contains("WROTE local=STORED-BY-ANOTHER-JOB session=STORED-BY-ANOTHER-JOB idb=written name=NAME-OF-ANOTHER-JOB");
        for (int i = 0; i < 3; i++) { // whichever warm tab the reader gets, the writer's among them
            // history: the reused tab's blank page and the document, whatever came before
            assertThat(words(convert(newKey(), reader)))
                    .containsPattern("READ local=none session=none cookie=none name=none idb=none history=[12]\\b");
        }
    }

    /**
     * Two documents printed at the same time, in two tabs of the one browser: the writer stores everything and
     * broadcasts for 3 s while the reader, for 3 s, looks for any of it; their time spans must overlap.
     */
    @Test
    void twoDocumentsPrintedAtOnceSeeNothingOfEachOther() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "concurrent-");
        Path writer = Files.writeString(dir.resolve("writer.html"), STORAGE_PAGE + """
                <script>
                const channel = new BroadcastChannel("secret");
                let idb = "pending";
                writeAll().then(r => idb = r);
                hold = (turn => () => {
                  channel.postMessage("BROADCAST-OF-ANOTHER-JOB");
                  if (Date.now() - started > 3000 && idb !== "pending") {
                    p.textContent = written(idb) + " from " + started + " to " + Date.now();
                    settled = true;
                  }
                  turn();
                })(hold);
                hold();
                </script></body></html>
                """);
        Path reader = Files.writeString(dir.resolve("reader.html"), STORAGE_PAGE + """
                <script>
                let heard = "none", found = "", asked = false;
                new BroadcastChannel("secret").onmessage = e => heard = e.data;
                hold = (turn => () => {
                  if (seen() !== "local=none session=none cookie=none name=none") found = seen();
                  if (Date.now() - started > 3000 && !asked) {
                    asked = true;
                    idbNames().then(idb => {
                      p.textContent = "READ " + (found || seen()) + " idb=" + idb + " heard=" + heard + " from " + started + " to " + Date.now();
                      settled = true;
                    });
                  }
                  turn();
                })(hold);
                hold();
                </script></body></html>
                """);
        String key = newKey();
        String writerFile = uploadId(key, writer), readerFile = uploadId(key, reader);
        List<String> spans = new ArrayList<>();
        // a loaded machine may start the reader's tab after the writer's 3 s: such a pair proves nothing, so it is
        // run again (isolation is asserted on every pair); three pairs none of which overlapped fail the test
        for (int attempt = 0; attempt < 3; attempt++) {
            String writerJob = post(key, "/convert", Map.of("file", writerFile, "to", "pdf", "wait", 0)).body().get("id").asString();
            String readerJob = post(key, "/convert", Map.of("file", readerFile, "to", "pdf", "wait", 0)).body().get("id").asString();
            String wrote = words(downloadOutput(finished(key, writerJob), 0));
            String read = words(downloadOutput(finished(key, readerJob), 0));
            assertThat(wrote).contains("WROTE local=STORED-BY-ANOTHER-JOB session=STORED-BY-ANOTHER-JOB idb=written name=NAME-OF-ANOTHER-JOB");
            assertThat(read).contains("READ local=none session=none cookie=none name=none idb=none heard=none");
            long[] w = span(wrote), r = span(read);
            if (w[0] < r[1] && r[0] < w[1]) return;
            spans.add("writer " + w[0] + "-" + w[1] + ", reader " + r[0] + "-" + r[1]);
        }
        throw new AssertionError("the writer and the reader never ran at the same time: " + spans);
    }

    /** {@code from <ms> to <ms>} of a storage page, as printed. */
    private static long[] span(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("from (\\d+) to (\\d+)").matcher(text);
        assertThat(m.find()).as("a time span in %s", text).isTrue();
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    /** The job once it has finished, checked to have succeeded. */
    private JsonNode finished(String key, String jobId) throws InterruptedException {
        JsonNode job = awaitFinished(key, jobId);
        assertThat(job.get("status").asString()).as("%s", job).isEqualTo("succeeded");
        return job;
    }

    @Test
    void plainTextInUtf16AndWindows1252WithArabicAndCjkBecomesPdf() throws Exception {
        String key = newKey();
        Path dir = Files.createTempDirectory(DATA_DIR, "txt-");
        String multilingual = "English line with Café\nمرحبا بالعالم\n日本語のテキスト 中文文本\n";
        Path utf16 = dir.resolve("utf16.txt");
        byte[] body = multilingual.getBytes(StandardCharsets.UTF_16LE);
        byte[] withBom = new byte[body.length + 2];
        withBom[0] = (byte) 0xFF;
        withBom[1] = (byte) 0xFE;
        System.arraycopy(body, 0, withBom, 2, body.length);
        Files.write(utf16, withBom);
        String text = words(convert(key, utf16));
        assertThat(text).contains("English line with Café").contains("日本語のテキスト").contains("中文文本");
        // the Arabic line comes back whole and in logical (reading) order, not reversed and not as missing glyphs
        String arabic = java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKC).replaceAll("[\\u200e\\u200f\\u202a-\\u202e]", "");
        assertThat(arabic).contains("مرحبا بالعالم");

        Path cp1252 = dir.resolve("legacy.txt");
        Files.write(cp1252, "Prix: 15,50 € — déjà vu, naïve façade\n".getBytes(Charset.forName("windows-1252")));
        assertThat(words(convert(key, cp1252))).contains("15,50 €").contains("déjà vu").contains("naïve façade");
    }

    @Test
    void imagesBecomeOnePagePerFrame() throws Exception {
        String key = newKey();
        for (String f : new String[] {"images/DA-1p.jpg", "images/DA-1p.png", "images/DA-1p.webp", "images/smile-lzw.tiff"}) {
            Path out = convert(key, corpus(f));
            assertThat(imageCount(out)).as(f).isPositive();
        }
    }

    private static int imageCount(Path pdf) throws Exception {
        int n = 0;
        try (PDDocument doc = Independent.pdfbox(pdf)) {
            for (PDPage page : doc.getPages()) {
                for (COSName name : page.getResources().getXObjectNames()) {
                    if (page.getResources().getXObject(name) instanceof PDImageXObject) n++;
                    else if (page.getResources().getXObject(name) instanceof org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject form
                            && form.getResources() != null) {
                        for (COSName inner : form.getResources().getXObjectNames()) {
                            if (form.getResources().getXObject(inner) instanceof PDImageXObject) n++;
                        }
                    }
                }
            }
        }
        return n;
    }

    private Response rawUpload(String key, Path file) {
        try {
            return send(key, HttpRequest.newBuilder(URI.create(base() + "/files?name=" + file.getFileName()))
                    .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofFile(file)));
        } catch (java.io.FileNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
