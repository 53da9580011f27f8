package dev.docapi.operations.pdfa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.VeraPDFFoundry;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.ValidationResult;
import tools.jackson.databind.JsonNode;

/**
 * pdfa and validate-pdfa (issue 27) on the corpus: a born-digital paper with links, a Word file, an OCR'd scan and an
 * Acrobat-filled form each come out as PDF/A-2b that veraPDF, run here in the test's own JVM on the downloaded file
 * (not the service's child or its answer), accepts; their text (pdftotext) and links (PDFBox) are still there.
 */
@Heavy
class PdfaTest extends ApiTestBase {

    @BeforeAll
    static void veraPdf() {
        VeraGreenfieldFoundryProvider.initialise();
    }

    @Test
    void aBornDigitalPaperAWordFileAnOcrdScanAndAFormBecomePdfA2bThatVeraPdfAccepts() throws Exception {
        String key = newKey();

        JsonNode paperJob = run(key, "pdfa", Map.of("file", uploadId(key, corpus("pdf-text/two-column-paper-2p.pdf")), "wait", 300));
        Path paper = downloadOutput(paperJob, 0);
        assertThat(independentFailures(paper, "2b")).isEmpty();
        assertThat(Independent.pdftotext(paper)).contains("Dense Passage Retrieval");
        // 44 links, most to named destinations (Ghostscript alone keeps 5); those naming a page of this 2-page excerpt are kept
        int dead = paperJob.at("/output/note").asString().contains("removed")
                ? Integer.parseInt(paperJob.at("/output/note").asString().replaceAll("(?s).* (\\d+) links? to a destination.*", "$1")) : 0;
        assertThat(links(paper)).isEqualTo(44 - dead).isGreaterThan(5);

        Path word = pdfa(key, uploadId(key, corpus("office/fake.docx")), "2b");
        assertThat(independentFailures(word, "2b")).isEmpty();
        assertThat(Independent.pdftotext(word)).contains("Lorem ipsum");

        JsonNode ocr = run(key, "ocr", Map.of("file", uploadId(key, corpus("pdf-scanned/huckfinn-page-c02-22.pdf")), "wait", 300));
        Path ocrd = downloadOutput(ocr, 0);
        Path scan = pdfa(key, ocr.at("/output/files/0/id").asString(), "2b");
        assertThat(independentFailures(scan, "2b")).isEmpty();
        List<String> ocrWords = List.of(Independent.pdftotext(ocrd).strip().split("\\s+"));
        assertThat(ocrWords).hasSizeGreaterThan(50);
        assertThat(Independent.pdftotext(scan).strip().split("\\s+")).as("the OCR layer kept").containsSubsequence(ocrWords.subList(0, 20));

        JsonNode formJob = run(key, "pdfa", Map.of("file", uploadId(key, corpus("pdf-text/libreoffice-form.pdf")), "wait", 300));
        Path form = downloadOutput(formJob, 0);
        assertThat(independentFailures(form, "2b")).isEmpty();
        assertThat(formJob.at("/output/note").asString()).contains("flattened");
        assertThat(formJob.at("/output/data/compliant").asBoolean()).isTrue();
        try (PDDocument doc = Independent.pdfbox(form)) {
            assertThat(doc.getDocumentCatalog().getAcroForm(null)).as("flattened, as PDF/A's printable form").isNull();
        }
    }

    @Test
    void aFileThatCannotBeMadeConformantFailsNamingVeraPdfsRulesAndValidatePdfaListsAFilesFailedRules() throws Exception {
        String key = newKey();
        // InDesign's DeviceCMYK survives in Ghostscript's rewrite, and kept as it is the file breaks more rules
        String indesign = uploadId(key, corpus("pdf-text/indesign-2p-linearized-pdf17.pdf"));
        Response failed = post(key, "/pdfa", Map.of("file", indesign, "conformance", "2b", "wait", 300));
        assertThat(failed.status()).as("%s", failed).isEqualTo(502);
        assertThat(failed.body().at("/job/status").asString()).isEqualTo("failed");
        assertThat(failed.body().at("/error/message").asString()).contains("could not be made PDF/A-2b", "6.2.4.3-3", "Kept as it was instead");
        assertThat(failed.body().at("/job/output/data/failed_rules/0/rule").asString()).isNotEmpty();

        // Ghostscript's rewrite of Google Docs' fonts loses their Unicode mapping; kept as they are, they have it: 2u
        String docs = uploadId(key, corpus("pdf-text/google-docs-pdf14.pdf"));
        JsonNode unicode = run(key, "pdfa", Map.of("file", docs, "conformance", "2u", "wait", 300));
        assertThat(unicode.at("/output/note").asString()).contains("kept as it was");
        assertThat(independentFailures(downloadOutput(unicode, 0), "2u")).isEmpty();

        JsonNode verdict = run(key, "validate-pdfa", Map.of("file", docs, "wait", 300));
        assertThat(verdict.at("/output/data/compliant").asBoolean()).isFalse();
        assertThat(verdict.at("/output/data/conformance").asString()).isEqualTo("2b");
        assertThat(verdict.at("/output/data/declared").isNull()).isTrue();
        List<String> rules = new ArrayList<>();
        verdict.at("/output/data/failed_rules").forEach(r -> rules.add(r.get("rule").asString()));
        assertThat(rules).contains("6.6.2.1-1"); // no XMP metadata stream
        assertThat(verdict.at("/output/note").asString()).contains("does not conform to PDF/A-2b", "6.6.2.1-1");
        assertThat(verdict.at("/output/files").size()).isZero();
    }

    /**
     * Files Ghostscript's PDF/A rewrite failed on (issue 37): Google Docs' fonts re-encoded so the text no longer
     * extracts, a text note, highlight and ink without appearance streams (6.3.3-1), a LibreOffice-exported deck whose
     * text Ghostscript lost, an Arabic file whose TrueType CID fonts lack /CIDToGIDMap (6.2.11.3.2-1), a mixed scan
     * whose OCR text Ghostscript lost and whose images ask for interpolation (6.2.8-3). Each comes out PDF/A-2b that veraPDF in this JVM accepts, with the words pdftotext reads
     * in the input (for the deck, in LibreOffice's own PDF of it) in the same order.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pdf-text/google-docs-pdf14.pdf", "pdf-text/annotations-text-highlight-ink.pdf", "office/fake-power-point.pptx",
            "pdf-text/arabic-habibi.pdf", "pdf-scanned/multipage-6p-mixed.pdf"})
    void filesWhoseTextOrAnnotationsGhostscriptWouldLoseBecomePdfA2bWithTheirWordsKept(String file) throws Exception {
        String key = newKey();
        String id = uploadId(key, corpus(file));
        JsonNode job = run(key, "pdfa", Map.of("file", id, "wait", 300));
        Path pdfa = downloadOutput(job, 0);
        assertThat(independentFailures(pdfa, "2b")).isEmpty();
        Path reference = file.endsWith(".pdf") ? corpus(file) : downloadOutput(run(key, "convert", Map.of("file", id, "to", "pdf", "wait", 300)), 0);
        List<String> words = List.of(Independent.pdftotext(reference).strip().split("\\s+"));
        assertThat(words).hasSizeGreaterThanOrEqualTo(3);
        assertThat(Independent.pdftotext(pdfa).strip().split("\\s+")).containsSubsequence(words.subList(0, Math.min(40, words.size())));
        if (file.contains("annotations")) {
            try (PDDocument in = Independent.pdfbox(corpus(file)); PDDocument out = Independent.pdfbox(pdfa)) {
                int annotations = in.getPage(0).getAnnotations().size();
                assertThat(annotations).isPositive();
                assertThat(out.getPage(0).getAnnotations()).hasSize(annotations)
                        .allSatisfy(a -> assertThat(a.getSubtype().equals("Popup") || a.getAppearance() != null).as(a.getSubtype()).isTrue());
            }
        }
    }

    @Test
    void aRepairedFileKeepsEveryOutlineItemQpdfSeesInItsPdfA() throws Exception {
        String key = newKey();
        // junk before the header and RC4 encryption: Ghostscript drops outline items of the repaired file
        Path input = corpus("pdf-broken/leading-junk-rc4.pdf");
        Path pdfa = downloadOutput(run(key, "pdfa", Map.of("file", uploadId(key, input), "wait", 300)), 0);
        assertThat(independentFailures(pdfa, "2b")).isEmpty();
        int items = qpdfOutlineItems(input);
        assertThat(items).isGreaterThan(3);
        assertThat(qpdfOutlineItems(pdfa)).isEqualTo(items);
    }

    /** Outline items qpdf's JSON lists, counted through every level. */
    private static int qpdfOutlineItems(Path pdf) throws Exception {
        Independent.Run r = Independent.run("qpdf", "--json", "--json-key=outlines", pdf.toString());
        return count(JSON.readTree(r.output().substring(r.output().indexOf('{'))).get("outlines"));
    }

    private static int count(JsonNode items) {
        int n = 0;
        for (JsonNode item : items) n += 1 + count(item.get("kids"));
        return n;
    }

    @Test
    void validatePdfaAnswersNotCompliantWithTheReasonForAReadableFileVeraPdfCannotParse(@TempDir Path dir) throws Exception {
        String key = newKey();
        // PDFBox's lenient parser reads a file cut off before its cross-reference table; veraPDF's parser does not
        byte[] whole;
        try (PDDocument doc = new PDDocument(); var out = new ByteArrayOutputStream()) {
            PDPage page = new PDPage();
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.beginText();
                cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                cs.newLineAtOffset(72, 700);
                cs.showText("Damaged but readable");
                cs.endText();
            }
            doc.save(out);
            whole = out.toByteArray();
        }
        String text = new String(whole, StandardCharsets.ISO_8859_1);
        Path truncated = Files.write(dir.resolve("truncated.pdf"), Arrays.copyOf(whole, text.lastIndexOf("xref")));
        assertThat(Independent.pdfboxText(truncated)).contains("Damaged but readable");
        // and the corpus's file whose xref points at the wrong offsets (qpdf and PDFBox recover it)
        for (Path file : List.of(truncated, corpus("pdf-broken/bad-xref.pdf"))) {
            Response r = post(key, "/validate-pdfa", Map.of("file", uploadId(key, file), "wait", 300));
            assertThat(r.status()).as("%s: %s", file.getFileName(), r).isEqualTo(200);
            JsonNode data = r.body().at("/output/data");
            assertThat(data.get("compliant").asBoolean()).isFalse();
            assertThat(data.get("conformance").asString()).isEqualTo("2b");
            assertThat(data.get("unreadable").asString()).as("%s", file.getFileName()).isNotBlank();
            String note = r.body().at("/output/note").asString();
            assertThat(note).startsWith("The PDF does not conform to PDF/A-2b: ").doesNotContain("Exception", "dev.docapi", "java.", " at ");
        }

        // a file that no reader opens (cut inside its first stream) is refused at upload with the spec's code
        Path headless = Files.write(dir.resolve("half.pdf"), Arrays.copyOf(whole, text.indexOf("endstream") - 5));
        Response refused = send(key, HttpRequest.newBuilder(URI.create(base() + "/files?name=half.pdf"))
                .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofFile(headless)));
        assertThat(refused.status()).as("%s", refused).isEqualTo(400);
        assertThat(refused.code()).isEqualTo("invalid_file");
    }

    private Path pdfa(String key, String fileId, String level) throws IOException {
        JsonNode job = run(key, "pdfa", Map.of("file", fileId, "conformance", level, "wait", 300));
        assertThat(job.at("/output/data/compliant").asBoolean()).isTrue();
        return downloadOutput(job, 0);
    }

    /** veraPDF's failed rules (clause-test) for {@code pdf} at {@code level}, validated in this JVM. */
    private static List<String> independentFailures(Path pdf, String level) throws Exception {
        PDFAFlavour flavour = PDFAFlavour.fromString(level);
        try (VeraPDFFoundry foundry = Foundries.defaultInstance(); PDFAParser parser = foundry.createParser(pdf.toFile(), flavour)) {
            ValidationResult r = foundry.createValidator(flavour, false).validate(parser);
            List<String> failed = r.getFailedChecks().keySet().stream().map(id -> id.getClause() + "-" + id.getTestNumber()).toList();
            assertThat(r.isCompliant()).as("veraPDF on %s: %s", pdf.getFileName(), failed).isEqualTo(failed.isEmpty());
            return failed;
        }
    }

    private static int links(Path pdf) throws IOException {
        int n = 0;
        try (PDDocument doc = Independent.pdfbox(pdf)) {
            for (PDPage page : doc.getPages()) {
                for (PDAnnotation a : page.getAnnotations()) if (a instanceof PDAnnotationLink) n++;
            }
        }
        return n;
    }
}
