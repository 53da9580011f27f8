package dev.docapi.operations.compress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import dev.docapi.support.Words;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDField;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Compress never loses content (issue 16): on corpus files with forms, annotations and Arabic text, with a level and
 * with a target that forces the Ghostscript ladder, the output keeps the pages, every form field and value, every
 * annotation and the words of the text layer — checked here with PDFBox and pdftotext, independently of the
 * service's own check — and is never larger than the input.
 */
class CompressKeepsContentTest extends ApiTestBase {

    @ParameterizedTest
    @CsvSource({
            "pdf-text/form-filled-by-acrobat-3p.pdf, level, ebook",
            "pdf-text/form-filled-by-acrobat-3p.pdf, target_mb, 0.05",
            "pdf-text/libreoffice-form.pdf, level, screen",
            "pdf-text/openoffice-form-objstm-pdf16.pdf, target_mb, 0.05",
            "pdf-text/pdflatex-forms.pdf, level, ebook",
            "pdf-text/annotations-text-highlight-ink.pdf, level, screen",
            "pdf-text/indesign-2p-linearized-pdf17.pdf, target_mb, 0.05",
            "pdf-text/arabic-habibi.pdf, level, ebook",
            "pdf-text/arabic-habibi.pdf, target_mb, 0.05"})
    void theOutputKeepsPagesFormsAnnotationsAndText(String file, String option, String value) throws Exception {
        Path input = corpus(file);
        String key = newKey();
        Object v = option.equals("target_mb") ? (Object) Double.parseDouble(value) : value;
        JsonNode job = run(key, "compress", Map.of("file", uploadId(key, input), option, v, "wait", 300));
        Path out = downloadOutput(job, 0);

        assertThat(Files.size(out)).isLessThanOrEqualTo(Files.size(input));
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        Seen before = seen(input);
        Seen after = seen(out);
        assertThat(after.pages).isEqualTo(before.pages);
        assertThat(after.fields).as("form fields and values").isEqualTo(before.fields);
        assertThat(after.annotations).as("annotations by kind").isEqualTo(before.annotations);
        assertThat(Words.share(before.words, after.words)).as("words of the text layer kept").isGreaterThanOrEqualTo(0.99);
        assertThat(job.at("/output/note").asString()).isNotBlank();
    }

    private record Seen(int pages, Map<String, String> fields, Map<String, Integer> annotations, List<String> words) {
    }

    private static Seen seen(Path pdf) throws Exception {
        try (PDDocument doc = Independent.pdfbox(pdf)) {
            Map<String, String> fields = new TreeMap<>();
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            if (form != null) for (PDField f : form.getFieldTree()) fields.put(f.getFullyQualifiedName(), f.getValueAsString());
            Map<String, Integer> annotations = new TreeMap<>();
            for (PDPage p : doc.getPages()) for (PDAnnotation a : p.getAnnotations()) annotations.merge(a.getSubtype(), 1, Integer::sum);
            List<String> words = Arrays.stream(Independent.pdftotext(pdf).split("\\s+")).filter(w -> !w.isEmpty()).toList();
            return new Seen(doc.getNumberOfPages(), fields, annotations, words);
        }
    }

}
