package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Independent;
import dev.docapi.support.PackagedService;
import dev.docapi.support.TablePdf;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A port scan of the machine while the packaged service runs on the embedded database (issue 10): the only
 * listeners of the service's process reachable from outside are its HTTP port and its management port (issue 24); the
 * embedded database listens on no port and the LibreOffice relays on loopback only. Also proves that an engine run as a child JVM of the
 * service (Tabula, through Spring Boot's {@code PropertiesLauncher}) starts from the packaged jar: pdf → xlsx keeps a
 * ruled table's cells.
 */
class ListenersIT {

    @Test
    void onlyTheHttpAndManagementPortsListenBeyondLoopback() throws Exception {
        PackagedService service = new PackagedService().start();
        try {
            service.admin("list-accounts"); // the admin CLI reaches the running service through its admin API
            String pid = String.valueOf(service.process().pid());
            List<String> listeners = Independent.run("ss", "-Hltnp").output().lines().filter(l -> l.contains("pid=" + pid + ",")).toList();
            assertThat(listeners).as("listeners of the service").isNotEmpty();
            String httpPort = service.base().replaceAll(".*:(\\d+)/v1", "$1");
            for (String line : listeners) {
                String local = line.trim().split("\\s+")[3];
                boolean loopback = local.startsWith("127.") || local.startsWith("[::1]") || local.startsWith("[::ffff:127.");
                assertThat(loopback || local.endsWith(":" + httpPort) || local.endsWith(":" + service.managementPort())).as("listener %s", line).isTrue();
            }

            String key = service.newKey("listeners@example.com", "pro");
            Path pdf = Files.createTempFile("table-", ".pdf");
            try (PDDocument doc = new PDDocument()) {
                TablePdf.ruledTable(doc, "Maple Leafs", "13");
                doc.save(pdf.toFile());
            }
            JsonNode job = service.post(key, "/convert", Map.of("file", service.upload(key, pdf), "to", "xlsx", "wait", 60), 200);
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
        } finally {
            service.terminate();
        }
    }
}
