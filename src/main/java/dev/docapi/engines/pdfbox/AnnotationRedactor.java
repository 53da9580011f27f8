package dev.docapi.engines.pdfbox;

import dev.docapi.engines.EngineFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.cos.COSString;
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

    /**
     * What was removed: per page (index 0 = page 1) the annotations and links removed, the form fields emptied, and
     * per place the other strings, streams and operators removed ({@link HiddenText}, field options, tooltips...).
     */
    public record Removed(int[] annotations, int[] links, int formFields, Map<String, Integer> places) {
        /** Nothing removed from a PDF of {@code pages} pages. */
        public static Removed none(int pages) {
            return new Removed(new int[pages], new int[pages], 0, Map.of());
        }

        public boolean any() {
            return formFields > 0 || !places.isEmpty() || java.util.Arrays.stream(annotations).sum() + java.util.Arrays.stream(links).sum() > 0;
        }
    }

    /**
     * Removes from {@code pdf} what {@code matches} (true when a text holds something to redact) and, when anything
     * was, writes the result to {@code out}. An annotation goes when any of its strings, its appearance or its
     * attached file matches; a widget loses its appearance (rebuilt by the viewer from the value) and a field its
     * value, default, tooltip, matching options and matching name; then {@link HiddenText}. With {@code sanitize},
     * hidden annotations, file attachments, rich text and field defaults go whether or not they match.
     *
     * @param scratchDir for PDFBox's repair of a file it cannot parse
     * @throws EngineFailure when the PDF cannot be read or written
     */
    public Removed redact(Path pdf, Predicate<String> matches, boolean sanitize, Path out, Path scratchDir) throws EngineFailure, InterruptedException {
        try (PDDocument doc = pdfBox.open(pdf, null, scratchDir)) {
            int n = doc.getNumberOfPages();
            int[] annotations = new int[n], links = new int[n];
            Map<String, Integer> places = new LinkedHashMap<>();
            boolean appearancesRemoved = false;
            for (int i = 0; i < n; i++) {
                PDPage page = doc.getPage(i);
                List<PDAnnotation> kept = new ArrayList<>();
                for (PDAnnotation a : page.getAnnotations()) {
                    COSDictionary d = a.getCOSObject();
                    if (sanitize && d.containsKey(COSName.RC)) {
                        d.removeItem(COSName.RC);
                        places.merge("annotation_rich_text", 1, Integer::sum);
                    }
                    if (sanitize && (d.containsKey(COSName.AA) || (d.getDictionaryObject(COSName.A) instanceof COSDictionary act
                            && COSName.JAVA_SCRIPT.equals(act.getCOSName(COSName.S))))) { // scripts of annotations and widgets
                        d.removeItem(COSName.AA);
                        if (d.getDictionaryObject(COSName.A) instanceof COSDictionary act && COSName.JAVA_SCRIPT.equals(act.getCOSName(COSName.S))) {
                            d.removeItem(COSName.A);
                        }
                        places.merge("javascript", 1, Integer::sum);
                    }
                    if (a instanceof PDAnnotationWidget) {
                        if (any(appearanceText(d.getCOSDictionary(COSName.AP)), matches)) {
                            d.removeItem(COSName.AP);
                            places.merge("widget_appearances", 1, Integer::sum);
                            appearancesRemoved = true;
                        }
                        kept.add(a);
                    } else if (!any(texts(a), matches) && !(sanitize && (a.isHidden() || a.isNoView() || a instanceof PDAnnotationFileAttachment))) {
                        kept.add(a);
                    } else if (a instanceof PDAnnotationLink) links[i]++;
                    else annotations[i]++;
                }
                if (annotations[i] + links[i] > 0) page.setAnnotations(kept);
            }
            int fields = 0;
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            if (form != null) {
                int renamed = 0;
                for (PDField f : form.getFieldTree()) {
                    COSDictionary d = f.getCOSObject();
                    if (f instanceof PDTerminalField t && matches.test(t.getValueAsString())) {
                        d.removeItem(COSName.V);
                        for (PDAnnotationWidget w : t.getWidgets()) w.getCOSObject().removeItem(COSName.AP);
                        fields++;
                    }
                    for (COSName key : List.of(COSName.DV, COSName.TU, COSName.TM)) {
                        boolean defaults = sanitize && key == COSName.DV && d.containsKey(key);
                        if (defaults || (d.getDictionaryObject(key) instanceof COSBase v && any(strings(v), matches))) {
                            d.removeItem(key);
                            places.merge(key == COSName.DV ? "field_defaults" : "field_tooltips", 1, Integer::sum);
                        }
                    }
                    if (d.getDictionaryObject(COSName.OPT) instanceof COSArray opt) {
                        for (int i = opt.size() - 1; i >= 0; i--) {
                            if (any(strings(opt.getObject(i)), matches)) {
                                opt.remove(i);
                                places.merge("field_options", 1, Integer::sum);
                            }
                        }
                    }
                    if (d.getDictionaryObject(COSName.T) instanceof COSString name && any(PdfTexts.readings(name), matches)) {
                        d.setString(COSName.T, "redacted-" + ++renamed);
                        places.merge("field_names", 1, Integer::sum);
                    }
                }
                if (appearancesRemoved) form.setNeedAppearances(true);
            }
            HiddenText hidden = new HiddenText(doc, matches, sanitize);
            hidden.run();
            hidden.removed.forEach((k, v) -> places.merge(k, v, Integer::sum));
            Removed removed = new Removed(annotations, links, fields, places);
            if (removed.any()) {
                doc.setAllSecurityToBeRemoved(true);
                PdfBox.save(doc, out);
            }
            return removed;
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the PDF's annotations could not be redacted: " + e.getMessage(), e);
        }
    }

    private static boolean any(List<String> texts, Predicate<String> matches) {
        for (String t : texts) if (t != null && !t.isEmpty() && matches.test(t)) return true;
        return false;
    }

    /** The readings of a string, or of each string in an array (an option's export and display value). */
    private static List<String> strings(COSBase v) {
        if (v instanceof COSString s) return PdfTexts.readings(s);
        List<String> out = new ArrayList<>();
        if (v instanceof COSArray a) for (int i = 0; i < a.size(); i++) out.addAll(strings(a.getObject(i)));
        return out;
    }

    /** Every text an annotation holds: its strings, its appearance's text and its attached file's content. */
    private static List<String> texts(PDAnnotation a) throws IOException {
        List<String> out = new ArrayList<>();
        out.add(text(a));
        COSDictionary d = a.getCOSObject();
        for (COSName key : List.of(COSName.RC, COSName.NM, COSName.T, COSName.SUBJ)) out.addAll(strings(d.getDictionaryObject(key)));
        out.addAll(appearanceText(d.getCOSDictionary(COSName.AP)));
        if (a instanceof PDAnnotationFileAttachment f && f.getFile() instanceof PDComplexFileSpecification c) {
            for (var ef : java.util.Arrays.asList(c.getEmbeddedFile(), c.getEmbeddedFileUnicode())) {
                if (ef != null) out.addAll(PdfTexts.readings(ef.toByteArray()));
            }
        }
        return out;
    }

    /**
     * The text an appearance dictionary draws: the strings of its streams (normal, rollover, down, in every state)
     * and of the Form XObjects they use, a {@code TJ} array's pieces joined, all pieces then joined with spaces.
     */
    private static List<String> appearanceText(COSDictionary ap) {
        List<String> out = new ArrayList<>();
        if (ap == null) return out;
        java.util.Set<COSBase> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<COSBase> todo = new java.util.ArrayDeque<>(List.of(ap));
        while (!todo.isEmpty()) {
            COSBase b = todo.pop();
            if (b instanceof COSObject o) b = o.getObject();
            if (!(b instanceof COSDictionary d) || !seen.add(d)) continue;
            if (d instanceof COSStream s) {
                out.addAll(streamText(s));
                COSDictionary xobjects = s.getCOSDictionary(COSName.RESOURCES) == null ? null
                        : s.getCOSDictionary(COSName.RESOURCES).getCOSDictionary(COSName.XOBJECT);
                if (xobjects != null) for (COSName k : xobjects.keySet()) todo.push(xobjects.getItem(k));
            } else {
                for (COSName k : d.keySet()) todo.push(d.getItem(k)); // /N, /R, /D and their states
            }
        }
        return out;
    }

    private static List<String> streamText(COSStream s) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        try (java.io.InputStream in = s.createInputStream()) {
            for (Object t : new org.apache.pdfbox.pdfparser.PDFStreamParser(in.readAllBytes()).parse()) {
                if (t instanceof COSString str) all.writeBytes(str.getBytes());
                else if (t instanceof COSArray arr) {
                    for (COSBase b : arr) if (b instanceof COSString str) all.writeBytes(str.getBytes());
                } else if (t instanceof org.apache.pdfbox.contentstream.operator.Operator op && List.of("Tj", "TJ", "'", "\"").contains(op.getName())) {
                    all.write(' ');
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        List<String> out = new ArrayList<>(PdfTexts.readings(all.toByteArray()));
        out.add(new String(all.toByteArray(), java.nio.charset.StandardCharsets.ISO_8859_1).replace(" ", ""));
        return out;
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
