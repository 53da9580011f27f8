package dev.docapi.engines.pdfbox;

import dev.docapi.engines.fonts.FontCatalog;
import dev.docapi.engines.fonts.FontCatalog.FontFace;
import dev.docapi.engines.fonts.VisualText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fontbox.ttf.TrueTypeCollection;
import org.apache.fontbox.ttf.TrueTypeFont;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType0Font;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationWidget;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDCheckBox;
import org.apache.pdfbox.pdmodel.interactive.form.PDChoice;
import org.apache.pdfbox.pdmodel.interactive.form.PDComboBox;
import org.apache.pdfbox.pdmodel.interactive.form.PDField;
import org.apache.pdfbox.pdmodel.interactive.form.PDListBox;
import org.apache.pdfbox.pdmodel.interactive.form.PDPushButton;
import org.apache.pdfbox.pdmodel.interactive.form.PDRadioButton;
import org.apache.pdfbox.pdmodel.interactive.form.PDSignatureField;
import org.apache.pdfbox.pdmodel.interactive.form.PDTerminalField;
import org.apache.pdfbox.pdmodel.interactive.form.PDVariableText;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * A PDF's AcroForm (issue 28), read and filled with PDFBox: each terminal field with its full name, type, value,
 * options, flags and widgets; values set as each type wants them, appearance streams regenerated so every viewer
 * shows them, optionally flattened into page content. XFA-only forms (fields defined only in XFA) are reported as
 * such: PDFBox does not fill them.
 */
@Component
public class PdfForms {
    /** A field's place: its page (from 1) and box in PDF points from the page's top-left (page rotation not applied). */
    public record Widget(int page, double x, double y, double width, double height) {
    }

    /**
     * One terminal field. {@code type}: text, checkbox, radio, combo, list, button or signature. {@code value}: a
     * string (text, radio, combo: null when unset), a boolean (checkbox) or a list of strings (list). {@code options}:
     * the values a checkbox, radio, combo or list takes (export values).
     */
    public record Field(String name, String type, Object value, List<String> options, boolean required, boolean readOnly,
                        List<Widget> widgets) {
    }

    /** The fields of a PDF; {@code xfaOnly} when it has an XFA form and no AcroForm field. */
    public record Form(List<Field> fields, boolean xfaOnly) {
    }

    private final FontCatalog fonts;

    public PdfForms(FontCatalog fonts) {
        this.fonts = fonts;
    }

    /** The form of {@code pdf} (no fields: an empty list). @throws IOException when PDFBox cannot read it */
    public Form read(Path pdf) throws IOException {
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            if (form == null) return new Form(List.of(), false);
            List<Field> fields = new ArrayList<>();
            PageIndex pages = new PageIndex(doc);
            for (PDField f : form.getFieldTree()) {
                if (f instanceof PDTerminalField t) fields.add(describe(pages, t));
            }
            return new Form(fields, fields.isEmpty() && form.hasXFA());
        }
    }

    /**
     * Writes a copy of {@code in} whose form values are drawn into the page content (missing appearances made first,
     * then the form flattened), so that a text reader finds each value where it stands (pdf → docx, md, html: issue 28).
     *
     * @return false, writing nothing, when the PDF has no form field with a widget on a page
     * @throws IOException when PDFBox cannot read or write the PDF
     */
    public boolean flattenForReading(Path in, Path out) throws IOException {
        try (PDDocument doc = Loader.loadPDF(in.toFile())) {
            if (doc.isEncrypted()) doc.setAllSecurityToBeRemoved(true);
            // the default fixups make the appearances a form that asks viewers to (NeedAppearances) lacks
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm();
            if (form == null) return false;
            boolean widgets = false;
            for (PDField f : form.getFieldTree()) {
                if (f instanceof PDTerminalField t && !t.getWidgets().isEmpty()) widgets = true;
            }
            if (!widgets) return false;
            form.flatten();
            Path part = out.resolveSibling(out.getFileName() + ".part");
            doc.save(part.toFile());
            Files.move(part, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return true;
        }
    }

    /**
     * Why {@code value} cannot go into {@code field} (for a 400 naming the field), or null when it can: text takes a
     * string or number; checkbox a boolean or one of its options (or "Off"); radio and combo one of their options
     * (a combo without options any string); list one option or an array of them; buttons, signatures and read-only fields
     * none.
     */
    public static String refusal(Field field, JsonNode value) {
        String name = "'" + field.name() + "'";
        if (field.readOnly()) return "field " + name + " is read-only";
        return switch (field.type()) {
            case "text" -> value.isString() || value.isNumber() || value.isNull() ? null : "field " + name + " takes a string";
            case "checkbox" -> value.isBoolean() || value.isString() && (value.asString().equals("Off") || field.options().contains(value.asString()))
                    ? null : "field " + name + " is a checkbox: give true, false or one of " + field.options();
            case "radio", "combo" -> value.isNull() || value.isString() && (field.options().contains(value.asString()) || field.options().isEmpty())
                    ? null : "field " + name + " takes one of " + field.options();
            case "list" -> listValues(value) != null && field.options().containsAll(listValues(value))
                    ? null : "field " + name + " takes one or more of " + field.options();
            default -> "field " + name + " is a " + field.type() + " and cannot be filled";
        };
    }

    /**
     * Writes {@code in} with {@code values} (field full name → value, each accepted by {@link #refusal}) set, the
     * appearances regenerated, and the form flattened into page content when {@code flatten}. A value the field's
     * font cannot draw (Arabic, CJK) gets an installed font that can, embedded.
     *
     * @throws IOException when PDFBox cannot read or write the PDF, or no installed font draws a value
     */
    public void fill(Path in, Map<String, JsonNode> values, boolean flatten, Path out) throws IOException, InterruptedException {
        List<TrueTypeCollection> collections = new ArrayList<>();
        try (PDDocument doc = Loader.loadPDF(in.toFile())) {
            if (doc.isEncrypted()) doc.setAllSecurityToBeRemoved(true);
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            if (form == null) throw new IOException("the PDF has no form");
            // PDFBox writes appearance streams as values are set; viewers need not regenerate them
            form.setNeedAppearances(false);
            // each value's field found in a map built once, not by walking the field tree per value
            form.setCacheFields(true);
            for (Map.Entry<String, JsonNode> e : values.entrySet()) {
                PDField field = form.getField(e.getKey());
                if (field == null) throw new IOException("no field '" + e.getKey() + "'");
                set(doc, form, field, e.getValue(), collections);
            }
            if (flatten) form.flatten();
            Path part = out.resolveSibling(out.getFileName() + ".part");
            doc.save(part.toFile());
            Files.move(part, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            for (TrueTypeCollection c : collections) c.close();
        }
    }

    private void set(PDDocument doc, PDAcroForm form, PDField field, JsonNode value, List<TrueTypeCollection> collections)
            throws IOException, InterruptedException {
        switch (field) {
            case PDCheckBox c -> {
                boolean on = value.isBoolean() ? value.asBoolean() : !value.asString().equals("Off");
                if (on) c.check();
                else c.unCheck();
            }
            case PDRadioButton r -> r.setValue(value.isNull() ? "Off" : value.asString());
            case PDListBox l -> l.setValue(listValues(value));
            case PDVariableText t -> {
                String text = value.isNull() ? "" : value.isString() ? value.asString() : value.toString();
                // PDFBox draws the value's characters left to right as they are: Arabic is shaped and put in visual
                // order first (as the watermark is), and the field keeps the logical text as its value
                String drawn = t instanceof PDChoice ? text : VisualText.of(text);
                try {
                    t.setValue(drawn);
                } catch (IllegalArgumentException noGlyph) {
                    // the field's font has no glyph for a character of the value: a font that has, embedded whole
                    useFontFor(doc, form, t, drawn, collections);
                    t.setValue(drawn);
                }
                if (!drawn.equals(text)) t.getCOSObject().setString(COSName.V, text);
            }
            default -> throw new IOException("field '" + field.getFullyQualifiedName() + "' cannot be filled");
        }
    }

    /** Gives {@code field} an installed font that draws every character of {@code text}, in the form's resources. */
    private void useFontFor(PDDocument doc, PDAcroForm form, PDVariableText field, String text, List<TrueTypeCollection> collections)
            throws IOException, InterruptedException {
        // the primary font (DejaVu Sans) unless a character needs another face (CJK): then that one
        Optional<FontFace> primary = fonts.primary();
        FontFace face = primary.orElse(null);
        for (int cp : text.codePoints().filter(c -> !Character.isWhitespace(c)).distinct().toArray()) {
            Optional<FontFace> f = fonts.fontFor(cp);
            if (f.isEmpty()) throw new IOException("no installed font draws U+" + Integer.toHexString(cp).toUpperCase());
            if (!f.equals(primary)) face = f.get();
        }
        if (face == null) throw new IOException("no installed font draws the value");
        PDType0Font font;
        if (face.name() == null) {
            // whole, not subset: PDFBox subsets at save from content streams, and would miss the appearance streams' glyphs
            try (var in = Files.newInputStream(face.file())) {
                font = PDType0Font.load(doc, in, false);
            }
        } else {
            TrueTypeCollection collection = new TrueTypeCollection(face.file().toFile());
            collections.add(collection);
            TrueTypeFont ttf = collection.getFontByName(face.name());
            if (ttf == null) throw new IOException("font " + face.name() + " is no longer in " + face.file());
            font = PDType0Font.load(doc, ttf, false);
        }
        PDResources resources = form.getDefaultResources();
        if (resources == null) {
            resources = new PDResources();
            form.setDefaultResources(resources);
        }
        COSName name = resources.add(font);
        String size = field.getDefaultAppearance().replaceAll(".*?(\\d+(\\.\\d+)?) Tf.*", "$1");
        if (!size.matches("\\d+(\\.\\d+)?")) size = "0";
        field.setDefaultAppearance("/" + name.getName() + " " + size + " Tf 0 g");
    }

    /**
     * The index of each page by its dictionary, and, built the first time a widget lacks {@code /P} (or names no
     * page), by the dictionaries of its annotations: one pass over the pages and their annotation arrays, so a form
     * is read in time linear in its pages and widgets (issue 40: looking each widget up page by page was quadratic,
     * 52 s for 8,000 widgets without /P).
     */
    private static final class PageIndex {
        private final List<PDPage> pages = new ArrayList<>();
        private final Map<COSDictionary, Integer> byPage = new IdentityHashMap<>();
        private Map<COSDictionary, Integer> byAnnotation;

        PageIndex(PDDocument doc) {
            for (PDPage page : doc.getPages()) {
                byPage.putIfAbsent(page.getCOSObject(), pages.size());
                pages.add(page);
            }
        }

        /** The page (from 0) that holds {@code w}, or -1. */
        int of(PDAnnotationWidget w) {
            PDPage page = w.getPage();
            Integer index = page == null ? null : byPage.get(page.getCOSObject());
            if (index != null) return index;
            if (byAnnotation == null) byAnnotation = annotations();
            return byAnnotation.getOrDefault(w.getCOSObject(), -1);
        }

        PDPage get(int index) {
            return pages.get(index);
        }

        private Map<COSDictionary, Integer> annotations() {
            Map<COSDictionary, Integer> map = new IdentityHashMap<>();
            for (int i = 0; i < pages.size(); i++) {
                COSArray annots = pages.get(i).getCOSObject().getCOSArray(COSName.ANNOTS);
                if (annots == null) continue;
                for (int j = 0; j < annots.size(); j++) {
                    // the first page that lists an annotation holds it, as the page-by-page search found it
                    if (annots.getObject(j) instanceof COSDictionary a) map.putIfAbsent(a, i);
                }
            }
            return map;
        }
    }

    private static Field describe(PageIndex pages, PDTerminalField f) {
        String type;
        Object value;
        List<String> options = List.of();
        switch (f) {
            case PDCheckBox c -> {
                type = "checkbox";
                value = c.isChecked();
                options = new ArrayList<>(c.getOnValues());
            }
            case PDRadioButton r -> {
                type = "radio";
                String v = r.getValue();
                value = v == null || v.isEmpty() || v.equals("Off") ? null : v;
                options = new ArrayList<>(r.getOnValues());
            }
            case PDListBox l -> {
                type = "list";
                value = l.getValue();
                options = l.getOptionsExportValues();
            }
            case PDComboBox c -> {
                type = "combo";
                value = c.getValue().isEmpty() ? null : c.getValue().getFirst();
                options = c.getOptionsExportValues();
            }
            case PDPushButton b -> {
                type = "button";
                value = null;
            }
            case PDSignatureField s -> {
                type = "signature";
                value = s.getSignature() != null;
            }
            default -> {
                type = "text";
                String v = f.getValueAsString();
                value = v == null || v.isEmpty() ? null : v;
            }
        }
        List<Widget> widgets = new ArrayList<>();
        for (PDAnnotationWidget w : f.getWidgets()) {
            int index = pages.of(w);
            PDRectangle r = w.getRectangle();
            if (r == null || index < 0) continue;
            PDRectangle media = pages.get(index).getMediaBox();
            widgets.add(new Widget(index + 1, round(r.getLowerLeftX() - media.getLowerLeftX()), round(media.getUpperRightY() - r.getUpperRightY()),
                    round(r.getWidth()), round(r.getHeight())));
        }
        return new Field(f.getFullyQualifiedName(), type, value, options, f.isRequired(), f.isReadOnly(), widgets);
    }

    /** A list field's value as strings: one string or an array of strings; null for anything else. */
    private static List<String> listValues(JsonNode value) {
        if (value.isString()) return List.of(value.asString());
        if (!value.isArray()) return null;
        List<String> out = new ArrayList<>();
        for (JsonNode v : value) {
            if (!v.isString()) return null;
            out.add(v.asString());
        }
        return out;
    }

    private static double round(float v) {
        return Math.round(v * 100) / 100.0;
    }

    /** The fields as {@code name → field} (names are unique in an AcroForm). */
    public static Map<String, Field> byName(List<Field> fields) {
        Map<String, Field> m = new LinkedHashMap<>();
        for (Field f : fields) m.put(f.name(), f);
        return m;
    }
}
