package dev.docapi.engines.ocrmypdf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.config.DocapiProperties;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real OCRmyPDF, run under {@link LanguageOrder}'s environment, calls Tesseract with its languages in the order
 * asked, both orders of English and Arabic (without it the order is the process's hash order: either one, by chance).
 */
class LanguageOrderTest {
    @Test
    void ocrmypdfGivesTesseractTheLanguagesInTheOrderAsked(@TempDir Path data) throws Exception {
        DocapiProperties props = new DocapiProperties(0, data, null, null, null, null, 1, false, Duration.ofSeconds(1), 0, 0, null);
        ProcessRunner runner = new ProcessRunner(new Sandbox(props, false, 0, 0, 0));
        Path work = runner.sandbox().newScratchDir("order-");
        Path pdf = work.resolve("page.pdf");
        try (PDDocument doc = new PDDocument()) {
            doc.addPage(new PDPage(new PDRectangle(144, 72)));
            doc.save(pdf.toFile());
        }
        LanguageOrder order = new LanguageOrder(runner);
        for (String languages : List.of("eng+ara", "ara+eng")) {
            Map<String, String> env = new HashMap<>(order.environment(languages));
            assertThat(env).containsKey("PYTHONHASHSEED");
            env.put("OMP_THREAD_LIMIT", "1");
            ProcessRunner.Result r = runner.run(List.of("ocrmypdf", "-v1", "-l", languages, "--output-type", "none", "--sidecar",
                    work.resolve("sidecar.txt").toString(), "--jobs", "1", pdf.toString(), "-"), Duration.ofSeconds(120),
                    Sandbox.Access.of(work), env, ProcessRunner.Expect.success(0));
            String log = r.stdout() + r.stderr();
            assertThat(log).as("OCRmyPDF's log of its Tesseract call").contains("'tesseract', '-l', '" + languages + "'");
            String[] two = languages.split("\\+");
            assertThat(log).doesNotContain("'-l', '" + two[1] + "+" + two[0] + "'");
        }
    }
}
