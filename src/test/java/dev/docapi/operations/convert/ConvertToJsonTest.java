package dev.docapi.operations.convert;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.docapi.document.DocumentModel;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import dev.docapi.support.Words;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /convert {to: "json"}} (an addition, issue 36 item 3): the document model as a file, valid against the
 * one {@code DocumentModel} schema the OpenAPI document publishes (checked with networknt json-schema-validator),
 * its elements' words those pdftotext reads.
 */
class ConvertToJsonTest extends ApiTestBase {

    @Test
    void thePapersModelIsValidAgainstThePublishedSchemaAndHoldsItsWords() throws Exception {
        Path pdf = corpus("pdf-text/two-column-paper-2p.pdf");
        String key = newKey();
        JsonNode job = run(key, "convert", Map.of("file", uploadId(key, pdf), "to", "json"));
        assertThat(job.at("/status").asString()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("two-column-paper-2p.json");
        assertThat(job.at("/output/files/0/content_type").asString()).isEqualTo("application/json");
        JsonNode model = JSON.readTree(Files.readString(downloadOutput(job, 0)));

        JsonNode published = get(null, "/openapi.json").body().at("/components/schemas/DocumentModel");
        assertThat(published.get("description").asString()).contains("Version " + DocumentModel.VERSION);
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(published);
        assertThat(schema.validate(model)).extracting(Error::getMessage).isEmpty();
        // the schema is closed, so it can fail: a member it does not know is refused
        ObjectNode changed = (ObjectNode) model.deepCopy();
        ((ObjectNode) changed.at("/pages/0/elements/0")).put("colour", "red");
        assertThat(schema.validate(changed)).isNotEmpty();

        assertThat(model.get("version").asInt()).isEqualTo(DocumentModel.VERSION);
        assertThat(model.get("pages").size()).isEqualTo(2);
        List<String> words = new ArrayList<>();
        int index = 0;
        for (JsonNode page : model.get("pages")) {
            for (JsonNode e : page.get("elements")) {
                assertThat(e.get("index").asInt()).isEqualTo(index++);
                assertThat(e.get("page").asInt()).isEqualTo(page.get("number").asInt());
                words.addAll(Words.of(e.get("text").asString()));
            }
        }
        assertThat(model.at("/pages/0/elements").values()).anySatisfy(e -> assertThat(e.get("type").asString()).isEqualTo("heading"));
        // every word pdftotext reads is in the model, and the model has no words of its own
        List<String> source = Words.of(Independent.pdftotext(pdf));
        assertThat(Words.share(source, words)).as("missing e.g. %s", Words.missing(source, words, 20)).isGreaterThanOrEqualTo(0.98);
        assertThat(Words.share(words, source)).as("not in the PDF e.g. %s", Words.missing(words, source, 20)).isGreaterThanOrEqualTo(0.98);
    }

    /**
     * A page that shows nothing beyond its text layer (a report's empty page, a page with only its number) is not
     * OCR'd: OCRmyPDF's start costs seconds and finds nothing there; a scanned page of the same file still is.
     */
    @Test
    void anEmptyPageIsNotOcrdButAScanBesideItIs() throws Exception {
        Path pdf = Files.createTempDirectory("blank").resolve("mixed.pdf");
        try (PDDocument out = new PDDocument();
             PDDocument paper = Loader.loadPDF(corpus("pdf-text/two-column-paper-2p.pdf").toFile());
             PDDocument report = Loader.loadPDF(Path.of("bench/structure/pdf/redp5110_sampled.pdf").toFile());
             PDDocument scan = Loader.loadPDF(corpus("pdf-scanned/huckfinn-page-c02-22.pdf").toFile())) {
            out.importPage(paper.getPage(0));
            // the report's page 17: an empty content stream
            out.importPage(report.getPage(16));
            PDPage numbered = new PDPage(PDRectangle.LETTER);
            out.addPage(numbered);
            try (PDPageContentStream cs = new PDPageContentStream(out, numbered)) {
                cs.beginText();
                cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 10);
                cs.newLineAtOffset(300, 40);
                cs.showText("3");
                cs.endText();
            }
            out.importPage(scan.getPage(0));
            out.save(pdf.toFile());
        }
        String key = newKey();
        JsonNode job = run(key, "convert", Map.of("file", uploadId(key, pdf), "to", "json"));
        JsonNode pages = JSON.readTree(Files.readString(downloadOutput(job, 0))).get("pages");
        assertThat(pages.values()).extracting(p -> p.get("ocr").asBoolean()).containsExactly(false, false, false, true);
        assertThat(pages.get(1).get("elements").size()).isZero();
        assertThat(Words.of(pages.get(3).get("elements").values().stream().map(e -> e.get("text").asString()).reduce("", String::concat)))
                .hasSizeGreaterThan(50);
    }
}
