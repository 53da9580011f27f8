package dev.docapi.operations.compress;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.poppler.Poppler;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentNameDictionary;
import org.apache.pdfbox.pdmodel.PDEmbeddedFilesNameTreeNode;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDNameTreeNode;
import org.apache.pdfbox.pdmodel.common.filespecification.PDComplexFileSpecification;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineNode;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDField;
import org.springframework.stereotype.Component;

/**
 * Decides whether a compressed candidate kept everything of the original that a reader relies on (issue 16
 * "compress never loses content"): the page count, the words of the text layer (≥ 99 % of them, as {@code pdftotext}
 * reads them), every AcroForm field with its value, the annotations of each kind (links included), the embedded
 * files and the outline items. Ghostscript's pdfwrite can drop forms and annotations or re-encode fonts so that text
 * no longer extracts; such a candidate must not win.
 */
@Component
public class ContentCheck {
    /** The share of the original's words a candidate must still have. */
    static final double MIN_WORD_SIMILARITY = 0.99;

    private final Poppler poppler;

    public ContentCheck(Poppler poppler) {
        this.poppler = poppler;
    }

    /** What is compared; {@code words} is null when the text layer could not be read. */
    public record Content(int pages, Map<String, String> fields, Map<String, Integer> annotations, int embeddedFiles,
                          int outlineItems, List<String> words) {
    }

    /**
     * Reads the content of {@code pdf}, or null when PDFBox cannot open it (then nothing can be compared and only
     * a lossless rewrite is trusted).
     */
    public Content read(Path pdf) throws InterruptedException {
        Content c;
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            Map<String, String> fields = new TreeMap<>();
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            if (form != null) {
                for (PDField f : form.getFieldTree()) fields.put(f.getFullyQualifiedName(), f.getValueAsString());
            }
            Map<String, Integer> annotations = new TreeMap<>();
            for (PDPage page : doc.getPages()) {
                for (PDAnnotation a : page.getAnnotations()) annotations.merge(String.valueOf(a.getSubtype()), 1, Integer::sum);
            }
            c = new Content(doc.getNumberOfPages(), fields, annotations, embeddedFiles(doc), outlineItems(doc.getDocumentCatalog().getDocumentOutline()), null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        try {
            List<String> words = List.of(poppler.text(pdf).split("\\s+"));
            return new Content(c.pages(), c.fields(), c.annotations(), c.embeddedFiles(), c.outlineItems(),
                    words.stream().filter(w -> !w.isEmpty()).toList());
        } catch (EngineFailure e) {
            return c;
        }
    }

    /**
     * What {@code candidate} lost of {@code original}, in words for the job's note ("the form fields and their
     * values"), or null when it kept everything. A candidate that cannot be read lost everything.
     */
    public String lost(Content original, Content candidate) {
        if (candidate == null) return "everything (the result could not be read)";
        List<String> lost = new ArrayList<>();
        if (candidate.pages() != original.pages()) lost.add("pages (" + original.pages() + " → " + candidate.pages() + ")");
        if (!candidate.fields().equals(original.fields())) lost.add("the form fields and their values");
        for (var e : original.annotations().entrySet()) {
            int kept = candidate.annotations().getOrDefault(e.getKey(), 0);
            if (kept < e.getValue()) lost.add(e.getValue() - kept + " of " + e.getValue() + " " + e.getKey() + " annotations");
        }
        if (candidate.embeddedFiles() < original.embeddedFiles()) lost.add("embedded files");
        if (candidate.outlineItems() < original.outlineItems()) lost.add("outline items (bookmarks)");
        if (original.words() != null && !original.words().isEmpty()
                && (candidate.words() == null || similarity(original.words(), candidate.words()) < MIN_WORD_SIMILARITY)) {
            lost.add("the text layer (its words no longer extract the same)");
        }
        return lost.isEmpty() ? null : String.join(", ", lost);
    }

    /** The share of {@code original}'s words (as a multiset) that {@code candidate} still has, 0-1. */
    static double similarity(List<String> original, List<String> candidate) {
        Map<String, Integer> left = new HashMap<>();
        for (String w : candidate) left.merge(w, 1, Integer::sum);
        long kept = 0;
        for (String w : original) {
            Integer n = left.get(w);
            if (n != null && n > 0) {
                kept++;
                left.put(w, n - 1);
            }
        }
        int extra = Math.max(0, candidate.size() - original.size());
        return (double) kept / (original.size() + extra);
    }

    private static int embeddedFiles(PDDocument doc) throws IOException {
        PDDocumentNameDictionary names = doc.getDocumentCatalog().getNames();
        PDEmbeddedFilesNameTreeNode tree = names == null ? null : names.getEmbeddedFiles();
        return tree == null ? 0 : countNames(tree);
    }

    private static int countNames(PDNameTreeNode<PDComplexFileSpecification> node) throws IOException {
        int n = node.getNames() == null ? 0 : node.getNames().size();
        if (node.getKids() != null) {
            for (PDNameTreeNode<PDComplexFileSpecification> kid : node.getKids()) n += countNames(kid);
        }
        return n;
    }

    private static int outlineItems(PDOutlineNode node) {
        if (node == null) return 0;
        int n = 0;
        for (var child : node.children()) n += 1 + outlineItems(child);
        return n;
    }
}
