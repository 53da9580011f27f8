package dev.docapi.engines.pdfbox;

import dev.docapi.engines.EngineFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.filespecification.PDComplexFileSpecification;
import org.apache.pdfbox.pdmodel.common.filespecification.PDFileSpecification;
import org.apache.pdfbox.pdmodel.interactive.action.PDAction;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionLaunch;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionRemoteGoTo;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionURI;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationFileAttachment;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationMarkup;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationWidget;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDField;
import org.apache.pdfbox.pdmodel.interactive.form.PDTerminalField;
import org.springframework.stereotype.Component;

/**
 * The redaction of what a page holds besides its content (issue 27): annotations whose text matches (contents, title,
 * subject, a link's URI or file, an attachment's file name and description) are removed, and form fields whose value
 * matches lose the value and their widgets' appearance. PDFBox reads annotations however they are stored (PyMuPDF
 * 1.21 cannot load an annotation written inline in a page's {@code /Annots}).
 */
@Component
public class AnnotationRedactor {
    private final PdfBox pdfBox;

    public AnnotationRedactor(PdfBox pdfBox) {
        this.pdfBox = pdfBox;
    }

    /** What was removed: per page (index 0 = page 1) the annotations and links removed, and the form fields emptied. */
    public record Removed(int[] annotations, int[] links, int formFields) {
        /** Nothing removed from a PDF of {@code pages} pages. */
        public static Removed none(int pages) {
            return new Removed(new int[pages], new int[pages], 0);
        }

        public boolean any() {
            return formFields > 0 || java.util.Arrays.stream(annotations).sum() + java.util.Arrays.stream(links).sum() > 0;
        }
    }

    /**
     * Removes from {@code pdf} what {@code matches} (true when a text holds something to redact) and, when anything
     * was, writes the result to {@code out}.
     *
     * @param scratchDir for PDFBox's repair of a file it cannot parse
     * @throws EngineFailure when the PDF cannot be read or written
     */
    public Removed redact(Path pdf, Predicate<String> matches, Path out, Path scratchDir) throws EngineFailure, InterruptedException {
        try (PDDocument doc = pdfBox.open(pdf, null, scratchDir)) {
            int n = doc.getNumberOfPages();
            int[] annotations = new int[n], links = new int[n];
            for (int i = 0; i < n; i++) {
                PDPage page = doc.getPage(i);
                List<PDAnnotation> kept = new ArrayList<>();
                for (PDAnnotation a : page.getAnnotations()) {
                    if (a instanceof PDAnnotationWidget || !matches.test(text(a))) kept.add(a);
                    else if (a instanceof PDAnnotationLink) links[i]++;
                    else annotations[i]++;
                }
                if (annotations[i] + links[i] > 0) page.setAnnotations(kept);
            }
            int fields = 0;
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            if (form != null) {
                for (PDField f : form.getFieldTree()) {
                    if (!(f instanceof PDTerminalField t) || !matches.test(t.getValueAsString())) continue;
                    t.getCOSObject().removeItem(COSName.V);
                    for (PDAnnotationWidget w : t.getWidgets()) w.getCOSObject().removeItem(COSName.AP);
                    fields++;
                }
            }
            Removed removed = new Removed(annotations, links, fields);
            if (removed.any()) {
                doc.setAllSecurityToBeRemoved(true);
                PdfBox.save(doc, out);
            }
            return removed;
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the PDF's annotations could not be redacted: " + e.getMessage(), e);
        }
    }

    /** Every text an annotation holds, one per line. */
    private static String text(PDAnnotation a) throws IOException {
        List<String> parts = new ArrayList<>();
        parts.add(a.getContents());
        if (a instanceof PDAnnotationMarkup m) {
            parts.add(m.getTitlePopup());
            parts.add(m.getSubject());
        }
        if (a instanceof PDAnnotationLink l) {
            PDAction action = l.getAction();
            if (action instanceof PDActionURI uri) parts.add(uri.getURI());
            if (action instanceof PDActionLaunch launch) parts.add(file(launch.getFile()));
            if (action instanceof PDActionRemoteGoTo remote) parts.add(file(remote.getFile()));
        }
        if (a instanceof PDAnnotationFileAttachment f) parts.add(file(f.getFile()));
        return String.join("\n", parts.stream().filter(p -> p != null && !p.isEmpty()).toList());
    }

    private static String file(PDFileSpecification spec) {
        if (spec == null) return null;
        if (spec instanceof PDComplexFileSpecification c) {
            return String.join("\n", java.util.stream.Stream.of(c.getFilename(), c.getFileUnicode(), c.getFileDescription())
                    .filter(s -> s != null).toList());
        }
        return spec.getFile();
    }
}
