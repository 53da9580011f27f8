package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import dev.docapi.support.PackagedService;
import dev.docapi.support.TablePdf;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * One packaged node on the embedded database through a life: running, killed while a job runs, its master key rotated
 * while it is down, started again. The steps share the node because each start of the packaged jar costs CI time
 * (issue 41); each step is its own test and says what it proves:
 * <ol>
 *   <li>only its HTTP and management ports listen beyond loopback (issue 10, 24), the admin CLI reaches it, and an
 *       engine run as a child JVM of the packaged jar (Tabula) works;</li>
 *   <li>a job running when the node is killed fails with {@code interrupted} at the next start (spec §3);</li>
 *   <li>{@code bin/docapi admin rotate-master-key} re-seals every stored secret (issue 10), and the node starts and
 *       authenticates on the rotated data.</li>
 * </ol>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeLifecycleIT {
    private static final String EMAIL = "lifecycle@example.com";
    private static PackagedService service;
    private static String key;
    private static String webhookSecret;
    private static String interruptedJob;

    @BeforeAll
    static void start() throws Exception {
        service = new PackagedService().start();
        key = service.newKey(EMAIL, "pro");
        webhookSecret = service.admin("show-webhook-secret", "--email", EMAIL);
        assertThat(webhookSecret).startsWith("whsec_");
    }

    @AfterAll
    static void stop() {
        if (service != null && service.process() != null) ProcessRunner.killTree(service.process());
    }

    @Test
    @Order(1)
    void onlyTheHttpAndManagementPortsListenBeyondLoopbackAndTabulaRunsFromThePackagedJar() throws Exception {
        assertThat(service.cli("list-accounts")).as("the admin CLI reaches the running service through its admin API").contains(EMAIL);
        String pid = String.valueOf(service.process().pid());
        List<String> listeners = Independent.run("ss", "-Hltnp").output().lines().filter(l -> l.contains("pid=" + pid + ",")).toList();
        assertThat(listeners).as("listeners of the service").isNotEmpty();
        String httpPort = service.base().replaceAll(".*:(\\d+)/v1", "$1");
        for (String line : listeners) {
            String local = line.trim().split("\\s+")[3];
            boolean loopback = local.startsWith("127.") || local.startsWith("[::1]") || local.startsWith("[::ffff:127.");
            assertThat(loopback || local.endsWith(":" + httpPort) || local.endsWith(":" + service.managementPort())).as("listener %s", line).isTrue();
        }

        Path pdf = Files.createTempFile("table-", ".pdf");
        try (PDDocument doc = new PDDocument()) {
            TablePdf.ruledTable(doc, "Maple Leafs", "13");
            doc.save(pdf.toFile());
        }
        JsonNode job = service.post(key, "/convert", Map.of("file", service.upload(key, pdf), "to", "xlsx", "wait", 300), 200);
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("succeeded");
        Path xlsx = Files.createTempFile("table-", ".xlsx");
        HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(job.at("/output/files/0/download_url").asString())).build(),
                HttpResponse.BodyHandlers.ofFile(xlsx));
        try (XSSFWorkbook book = new XSSFWorkbook(Files.newInputStream(xlsx))) {
            Sheet sheet = book.getSheetAt(0);
            assertThat(sheet.getSheetName()).isEqualTo("Page 1 table 1");
            assertThat(sheet.getRow(1).getCell(0).getStringCellValue()).isEqualTo("Maple Leafs");
            assertThat(sheet.getRow(1).getCell(1).getNumericCellValue()).isEqualTo(13.0);
        }
        Files.delete(pdf);
        Files.delete(xlsx);
    }

    @Test
    @Order(2)
    void aJobRunningWhenTheNodeIsKilledIsInterruptedAtTheNextStart() throws Exception {
        String file = service.upload(key, ApiTestBase.corpus("pdf-text/geotopo-117p-linearized-links.pdf"));
        List<List<Integer>> ranges = new ArrayList<>();
        for (int i = 0; i < 600; i++) ranges.add(List.of(1, 117));
        interruptedJob = service.post(key, "/split", Map.of("file", file, "ranges", ranges, "wait", 0), 202).get("id").asString();
        service.awaitRunning(key, interruptedJob);
        ProcessRunner.killTree(service.process());
        // checked after the next start, in the last step
    }

    @Test
    @Order(3)
    void rotatingTheMasterKeyWhileTheNodeIsDownKeepsEverySecretAndTheNodeStartsOnIt() throws Exception {
        String before = master(service.dataDir());
        assertThat(service.cli("rotate-master-key")).contains("re-sealed under the new master key");
        assertThat(master(service.dataDir())).isNotEqualTo(before);
        assertThat(service.cli("show-webhook-secret", "--email", EMAIL)).isEqualTo(webhookSecret);

        service.start();
        assertThat(service.get(key, "/usage").has("plan")).as("the key authenticates on the rotated data").isTrue();
        JsonNode job = service.get(key, "/jobs/" + interruptedJob);
        assertThat(job.path("status").asString("")).as(job.toString()).isEqualTo("failed");
        assertThat(job.at("/error/code").asString()).isEqualTo("interrupted");
        assertThat(job.get("finished_at").isNull()).isFalse();
    }

    private static String master(Path dataDir) throws Exception {
        return Files.readAllLines(dataDir.resolve("secrets.key")).stream().filter(l -> l.startsWith("master=")).findFirst().orElseThrow();
    }
}
