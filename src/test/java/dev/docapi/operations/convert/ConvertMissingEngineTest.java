package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.docapi.accounts.AccountService;
import dev.docapi.accounts.Plan;
import dev.docapi.core.ApiException;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.node.ObjectNode;

/**
 * A node without LibreOffice or Chromium answers 503 {@code service_unavailable} at validation, before any job. The
 * convert operation of such a node is built here from engines pointed at paths where nothing is installed, and its
 * requests are validated by the shared service's own {@link OperationService} (no second Spring context).
 */
class ConvertMissingEngineTest extends ApiTestBase {
    @Autowired
    OperationService operations;
    @Autowired
    Sandbox sandbox;
    @Autowired
    MemoryCaps caps;
    @Autowired
    ProcessRunner runner;
    @Autowired
    OfficePool office;
    @Autowired
    ImageToPdfConverter images;

    @Test
    void conversionsWhoseEngineIsMissingAnswer503BeforeAnyJob() throws Exception {
        OfficeProperties s = office.settings();
        OfficePool noOffice = new OfficePool(new OfficeProperties(1, s.memoryMb(), s.taskTimeout(), s.queueTimeout(), s.maxTasks(), false,
                "/nonexistent/libreoffice"), sandbox, caps, runner);
        Chromium noChromium = new Chromium(sandbox, caps, "/nonexistent/chromium", Duration.ofSeconds(60), 1, 512, runner);
        ConvertOperation convert = new ConvertOperation(List.of(new OfficeToPdfConverter(noOffice), new HtmlToPdfConverter(noChromium),
                new MarkdownToPdfConverter(noChromium), new TextToPdfConverter(noChromium), images));

        AccountService.Created account = accounts.createAccount("test-" + UUID.randomUUID() + "@example.com", Plan.PRO);
        String key = account.apiKey();
        ObjectNode options = convert.options().validate(json().put("to", "pdf"), "convert");
        for (String f : new String[] {"office/fake.docx", "html-md-txt/fake-html.html", "html-md-txt/simple-table.md", "html-md-txt/norwich-city.txt"}) {
            String id = uploadId(key, corpus(f));
            ApiException e = catchThrowableOfType(ApiException.class, () -> operations.prepare(account.account(), convert, List.of(id), options));
            assertThat(e).as(f).isNotNull();
            assertThat(e.code()).as(f).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
            assertThat(e.getMessage()).as(f).endsWith("needs an engine that is not installed on this service");
        }
        // an image needs no external engine and still validates here, and converts on the service
        String png = uploadId(key, corpus("images/DA-1p.png"));
        assertThat(operations.prepare(account.account(), convert, List.of(png), options).inputs()).hasSize(1);
        assertThat(run(key, "convert", Map.of("file", png, "to", "pdf")).at("/output/files/0/name").asString()).isEqualTo("DA-1p.pdf");

        // an engine that went missing after validation fails its job as service_unavailable, not as the file's fault
        Path dir = Files.createTempDirectory(DATA_DIR, "missing-");
        EngineFailure f = catchThrowableOfType(EngineFailure.class, () -> noOffice.convert(corpus("office/fake.docx"), dir.resolve("out.pdf")));
        assertThat(f.kind()).isEqualTo(EngineFailure.Kind.ENGINE_MISSING);
        assertThat(OperationService.failure(f).code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
        f = catchThrowableOfType(EngineFailure.class, () -> noChromium.print("<p>hi</p>", Chromium.PageSetup.A4, dir.resolve("out.pdf"), null));
        assertThat(f.kind()).isEqualTo(EngineFailure.Kind.ENGINE_MISSING);
    }
}
