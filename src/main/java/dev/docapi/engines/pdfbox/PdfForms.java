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
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType0Font;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAppearanceCharacteristicsDictionary;
import org.apache.pdfbox.pdmodel.PDAppearanceContentStream;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAppearanceStream;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationWidget;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDButton;
import org.apache.pdfbox.pdmodel.interactive.form.PDCheckBox;
import org.apache.pdfbox.pdmodel.interactive.form.PDChoice;
import org.apache.pdfbox.pdmodel.interactive.form.PDComboBox;
import org.apache.pdfbox.pdmodel.interactive.form.PDField;
import org.apache.pdfbox.pdmodel.interactive.form.PDListBox;
import org.apache.pdfbox.pdmodel.interactive.form.PDPushButton;
import org.apache.pdfbox.pdmodel.interactive.form.PDRadioButton;
import org.apache.pdfbox.pdmodel.interactive.form.PDSignatureField;
import org.apache.pdfbox.pdmodel.interactive.form.PDTerminalField;
import org.apache.pdfbox.pdmodel.interactive.form.PDTextField;
import org.apache.pdfbox.pdmodel.interactive.form.PDVariableText;
import org.apache.pdfbox.text.PDFTextStripperByArea;
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
    /**
     * A field's place: its page (from 1) and box in PDF points from the page's top-left (page rotation not applied);
     * {@code on}, for a checkbox's or radio button's widget, whether it shows an on-state ({@code /AS} not Off), else null.
     */
    public record Widget(int page, double x, double y, double width, double height, Boolean on) {
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
            return read(doc);
        }
    }

    /** The form of an open PDF (no fields: an empty list), as {@link #read(Path)}; the document is not changed. */
    public static Form read(PDDocument doc) {
        PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
        if (form == null) return new Form(List.of(), false);
        List<Field> fields = new ArrayList<>();
        PageIndex pages = new PageIndex(doc);
        for (PDField f : form.getFieldTree()) {
            if (f instanceof PDTerminalField t) fields.add(describe(pages, t));
        }
        return new Form(fields, fields.isEmpty() && form.hasXFA());
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
     * What a fill did beyond setting the values.
     *
     * @param fallbackFonts field full name → the installed font (family name) embedded, as a subset, to draw a value
     *                      the field's own font has no glyph for
     * @param autoSized     the text fields whose {@code /DA} font size did not fit their box, drawn at auto size (0)
     */
    public record Filled(Map<String, String> fallbackFonts, List<String> autoSized) {
    }

    /**
     * Writes {@code in} with {@code values} (field full name → value, each accepted by {@link #refusal}) set, the
     * appearances regenerated, and the form flattened into page content when {@code flatten}. A value the field's
     * font cannot draw (Arabic, CJK) gets an installed font that can, embedded as a subset of the glyphs drawn. A text
     * whose {@code /DA} size is taller than its box, or wider on one line, is drawn at auto size. A checkbox or radio
     * button whose on-state appearances are not streams (pdfLaTeX's {@code /AP /N << /Yes << >> >>}) gets drawn ones
     * (its {@code /MK} caption, border and background). Push buttons are not drawn into the page by {@code flatten}
     * when the page already shows text under them (pdfLaTeX typesets the caption in the page and again in the
     * button). The written file is read back by a fresh parse: each changed field's value, and each widget's
     * appearance state naming a drawn appearance.
     *
     * @throws IOException when PDFBox cannot read or write the PDF, no installed font draws a value, or the file read
     *                     back does not hold the values set
     */
    public Filled fill(Path in, Map<String, JsonNode> values, boolean flatten, Path out) throws IOException, InterruptedException {
        List<TrueTypeCollection> collections = new ArrayList<>();
        Map<String, String> fallbackFonts = new LinkedHashMap<>();
        List<String> autoSized = new ArrayList<>();
        List<PDFont> subsets = new ArrayList<>();
        Map<String, String> expected = new LinkedHashMap<>();
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
                String font = set(doc, form, field, e.getValue(), collections, subsets, autoSized);
                if (font != null) fallbackFonts.put(field.getFullyQualifiedName(), font);
                expected.put(field.getFullyQualifiedName(), field instanceof PDButton ? field.getCOSObject().getNameAsString(COSName.V)
                        : field.getCOSObject().getString(COSName.V));
            }
            if (flatten) {
                hideCoveredPushButtons(doc, form);
                form.flatten();
            }
            for (PDFont font : subsets) font.subset();
            Path part = out.resolveSibling(out.getFileName() + ".part");
            doc.save(part.toFile());
            readBack(part, flatten ? Map.of() : expected);
            Files.move(part, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            for (TrueTypeCollection c : collections) c.close();
        }
        return new Filled(fallbackFonts, autoSized);
    }

    /**
     * Reads {@code pdf} afresh and checks that each field of {@code expected} holds its value ({@code /V}: the text,
     * or a button's state name) and that each widget of a button shows a state it has a drawn appearance for; with
     * no expectation (a flattened fill) that no field is left.
     */
    private static void readBack(Path pdf, Map<String, String> expected) throws IOException {
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            if (expected.isEmpty()) {
                for (PDField f : form == null ? List.<PDField>of() : form.getFieldTree()) {
                    if (f instanceof PDTerminalField t && !t.getWidgets().isEmpty()) {
                        throw new IOException("field '" + f.getFullyQualifiedName() + "' is still there after flattening");
                    }
                }
                return;
            }
            if (form == null) throw new IOException("the written file has no form");
            for (Map.Entry<String, String> e : expected.entrySet()) {
                PDField f = form.getField(e.getKey());
                if (f == null) throw new IOException("field '" + e.getKey() + "' is missing from the written file");
                boolean button = f instanceof PDButton;
                String value = button ? f.getCOSObject().getNameAsString(COSName.V) : f.getCOSObject().getString(COSName.V);
                if (!java.util.Objects.equals(value, e.getValue())) {
                    throw new IOException("field '" + e.getKey() + "' reads back as " + value + ", not " + e.getValue());
                }
                if (!button) continue;
                for (PDAnnotationWidget w : ((PDButton) f).getWidgets()) {
                    COSName state = w.getCOSObject().getCOSName(COSName.AS);
                    if (state == null || state.equals(OFF)) continue;
                    if (!(normalStates(w).getDictionaryObject(state) instanceof COSStream)) {
                        throw new IOException("field '" + e.getKey() + "' shows state " + state.getName() + ", which it has no appearance for");
                    }
                }
            }
        }
    }

    /**
     * Takes out of the form, before flattening, each push button whose box already has text of the page under it:
     * such a page typesets the caption itself (pdfLaTeX's hyperref), and drawing the button's appearance too would
     * print the caption twice. A push button carries no value, so nothing filled is lost.
     */
    private static void hideCoveredPushButtons(PDDocument doc, PDAcroForm form) throws IOException {
        PageIndex pages = new PageIndex(doc);
        for (PDField f : form.getFieldTree()) {
            if (!(f instanceof PDPushButton b)) continue;
            for (PDAnnotationWidget w : b.getWidgets()) {
                int index = pages.of(w);
                PDRectangle r = w.getRectangle();
                if (index < 0 || r == null) continue;
                PDPage page = pages.get(index);
                PDFTextStripperByArea stripper = new PDFTextStripperByArea();
                PDRectangle crop = page.getCropBox();
                stripper.addRegion("button", new java.awt.geom.Rectangle2D.Float(r.getLowerLeftX() - crop.getLowerLeftX(),
                        crop.getUpperRightY() - r.getUpperRightY(), r.getWidth(), r.getHeight()));
                stripper.extractRegions(page);
                // hidden: flatten draws no hidden widget, and the page's own caption stays
                if (!stripper.getTextForRegion("button").isBlank()) w.setHidden(true);
            }
        }
    }

    /** Sets one field; returns the family of the fallback font it needed, else null. */
    private String set(PDDocument doc, PDAcroForm form, PDField field, JsonNode value, List<TrueTypeCollection> collections,
                       List<PDFont> subsets, List<String> autoSized) throws IOException, InterruptedException {
        switch (field) {
            case PDCheckBox c -> {
                boolean on = value.isBoolean() ? value.asBoolean() : !value.asString().equals("Off");
                if (pdfboxReadsStates(c)) {
                    if (!on) c.unCheck();
                    else if (value.isString()) c.setValue(value.asString());
                    else c.check();
                } else {
                    setState(doc, c, !on ? null : value.isString() ? value.asString() : onStates(c).getFirst());
                }
            }
            case PDRadioButton r -> {
                String state = value.isNull() || value.asString().equals("Off") ? null : value.asString();
                if (pdfboxReadsStates(r)) r.setValue(state == null ? "Off" : state);
                else setState(doc, r, state);
            }
            case PDListBox l -> l.setValue(listValues(value));
            case PDVariableText t -> {
                String text = value.isNull() ? "" : value.isString() ? value.asString() : value.toString();
                // PDFBox draws the value's characters left to right as they are: Arabic is shaped and put in visual
                // order first (as the watermark is), and the field keeps the logical text as its value
                String drawn = t instanceof PDChoice ? text : VisualText.of(text);
                String fallback = null;
                if (t instanceof PDTextField box && fitFontSize(form, box, drawn)) autoSized.add(t.getFullyQualifiedName());
                try {
                    t.setValue(drawn);
                } catch (IllegalArgumentException noGlyph) {
                    // the field's font has no glyph for a character of the value: a font that has, embedded
                    fallback = useFontFor(doc, form, t, drawn, collections, subsets);
                    t.setValue(drawn);
                }
                if (!drawn.equals(text)) t.getCOSObject().setString(COSName.V, text);
                return fallback;
            }
            default -> throw new IOException("field '" + field.getFullyQualifiedName() + "' cannot be filled");
        }
        return null;
    }

    private static final COSName OFF = COSName.getPDFName("Off");

    /** The {@code /AP /N} dictionary of a button widget (state name → appearance), empty when it has none. */
    private static COSDictionary normalStates(PDAnnotationWidget w) {
        COSDictionary ap = w.getCOSObject().getCOSDictionary(COSName.AP);
        return ap != null && ap.getDictionaryObject(COSName.N) instanceof COSDictionary n && !(n instanceof COSStream) ? n : new COSDictionary();
    }

    /**
     * The on-states of a checkbox or radio button: the names other than {@code Off} in its widgets' {@code /AP /N}
     * and {@code /AP /D}, whatever object each names (PDFBox's {@code getOnValues} counts only streams, and lists
     * pdfLaTeX's {@code /Yes << >>} as {@code ""}), in widget order.
     */
    static List<String> onStates(PDButton b) {
        java.util.Set<String> states = new java.util.LinkedHashSet<>();
        for (PDAnnotationWidget w : b.getWidgets()) {
            COSDictionary ap = w.getCOSObject().getCOSDictionary(COSName.AP);
            if (ap == null) continue;
            for (COSName key : List.of(COSName.N, COSName.D)) {
                if (!(ap.getDictionaryObject(key) instanceof COSDictionary d) || d instanceof COSStream) continue;
                for (COSName state : d.keySet()) if (!state.equals(OFF)) states.add(state.getName());
            }
        }
        return new ArrayList<>(states);
    }

    /** True when PDFBox reads the button's states right: export values from /Opt, or every on-state drawn as a stream. */
    private static boolean pdfboxReadsStates(PDButton b) {
        if (!b.getExportValues().isEmpty()) return true;
        java.util.Set<String> pdfbox = b.getOnValues();
        return !pdfbox.isEmpty() && !pdfbox.contains("") && pdfbox.containsAll(onStates(b));
    }

    /** Whether a checkbox or radio button is on, and which state: {@code /V} when it names an on-state, else null. */
    private static String stateOf(PDButton b) {
        String v = b.getCOSObject().getNameAsString(COSName.V);
        return v == null || v.isEmpty() || v.equals("Off") || !onStates(b).contains(v) ? null : v;
    }

    /**
     * Turns a button whose on-states are not all drawn on ({@code state}) or off (null): {@code /V} and each widget's
     * {@code /AS} set, and the widget that has {@code state} given a drawn appearance for it and for Off when its
     * {@code /AP /N} entries are not streams.
     */
    private static void setState(PDDocument doc, PDButton b, String state) throws IOException {
        COSName name = state == null ? OFF : COSName.getPDFName(state);
        b.getCOSObject().setItem(COSName.V, name);
        for (PDAnnotationWidget w : b.getWidgets()) {
            COSDictionary n = normalStates(w);
            boolean has = state != null && (n.containsKey(name) || onStates(b).size() == 1 && b.getWidgets().size() == 1);
            if (has && !(n.getDictionaryObject(name) instanceof COSStream)) drawStates(doc, b, w, name);
            w.getCOSObject().setItem(COSName.AS, has ? name : OFF);
        }
    }

    /**
     * Draws a button widget's on ({@code state}) and Off appearances from its {@code /MK}: background ({@code /BG}),
     * border ({@code /BC}, {@code /BS /W}), and for on its caption ({@code /CA}, a ZapfDingbats character; a check mark
     * when none) at the {@code /DA} size, or filling the box when that is 0 or too big.
     */
    private static void drawStates(PDDocument doc, PDButton b, PDAnnotationWidget w, COSName state) throws IOException {
        PDRectangle rect = w.getRectangle();
        float width = rect.getWidth(), height = rect.getHeight();
        PDAppearanceCharacteristicsDictionary mk = w.getAppearanceCharacteristics();
        float border = w.getBorderStyle() == null ? 1 : w.getBorderStyle().getWidth();
        String caption = mk == null || mk.getNormalCaption() == null || mk.getNormalCaption().isEmpty()
                ? (b instanceof PDRadioButton ? "l" : "4") : mk.getNormalCaption().substring(0, 1);
        PDType1Font dingbats = new PDType1Font(Standard14Fonts.FontName.ZAPF_DINGBATS);
        float fit = Math.min(width, height) - 2 * border - 2;
        java.util.regex.Matcher da = java.util.regex.Pattern.compile("(\\d*\\.?\\d+)\\s+Tf").matcher(b.getCOSObject().getString(COSName.DA, ""));
        float size = da.find() ? Float.parseFloat(da.group(1)) : 0;
        if (size <= 0 || size > fit) size = Math.max(fit, 1);
        COSDictionary states = new COSDictionary();
        for (boolean on : new boolean[] {true, false}) {
            PDAppearanceStream s = new PDAppearanceStream(doc);
            s.setBBox(new PDRectangle(width, height));
            PDResources resources = new PDResources();
            COSName font = resources.add(dingbats);
            s.setResources(resources);
            try (PDAppearanceContentStream cs = new PDAppearanceContentStream(s)) {
                if (mk != null && mk.getBackground() != null && mk.getBackground().getComponents().length > 0) {
                    cs.setNonStrokingColor(mk.getBackground());
                    cs.addRect(0, 0, width, height);
                    cs.fill();
                }
                if (mk != null && mk.getBorderColour() != null && mk.getBorderColour().getComponents().length > 0 && border > 0) {
                    cs.setStrokingColor(mk.getBorderColour());
                    cs.setLineWidth(border);
                    cs.addRect(border / 2, border / 2, width - border, height - border);
                    cs.stroke();
                }
                if (on) {
                    // /CA is a character code of ZapfDingbats ("4" is its check mark); PDFBox's showText takes the
                    // Unicode text the code stands for
                    int code = caption.charAt(0);
                    String glyph = dingbats.toUnicode(code);
                    if (glyph == null) glyph = dingbats.toUnicode('4');
                    float glyphWidth = dingbats.getWidth(code) / 1000 * size;
                    cs.beginText();
                    cs.setFont(dingbats, size);
                    cs.newLineAtOffset((width - glyphWidth) / 2, (height - size * 0.7f) / 2);
                    cs.showText(glyph);
                    cs.endText();
                }
            }
            states.setItem(on ? state : OFF, s);
        }
        COSDictionary ap = w.getCOSObject().getCOSDictionary(COSName.AP);
        if (ap == null) {
            ap = new COSDictionary();
            w.getCOSObject().setItem(COSName.AP, ap);
        }
        ap.setItem(COSName.N, states);
        // a down appearance of the same empty dictionaries would show nothing while pressed
        if (!(ap.getDictionaryObject(COSName.D) instanceof COSDictionary d) || !(d.getDictionaryObject(state) instanceof COSStream)) ap.removeItem(COSName.D);
    }

    /**
     * Sets a text field's {@code /DA} font size to 0 (auto: the viewer and PDFBox fit the value to the box) when the
     * size it asks for is taller than the box's inner height, or, on one line, draws {@code text} wider than the box.
     *
     * @return true when the size was changed
     */
    private static boolean fitFontSize(PDAcroForm form, PDTextField field, String text) throws IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("/([^\\s/]+)\\s+(\\d*\\.?\\d+)\\s+Tf").matcher(field.getDefaultAppearance());
        if (!m.find() || field.isComb()) return false;
        float size = Float.parseFloat(m.group(2));
        if (size <= 0) return false;
        PDResources resources = form.getDefaultResources();
        PDFont font = resources == null ? null : resources.getFont(COSName.getPDFName(m.group(1)));
        boolean fits = true;
        for (PDAnnotationWidget w : field.getWidgets()) {
            PDRectangle r = w.getRectangle();
            if (r == null) continue;
            float border = w.getBorderStyle() == null ? 1 : w.getBorderStyle().getWidth();
            // PDFBox's appearance generator keeps the border and one point of padding on each side
            float innerHeight = r.getHeight() - 2 * (border + 1), innerWidth = r.getWidth() - 2 * (border + 1);
            float lineHeight = font == null || font.getBoundingBox().getHeight() <= 0 ? size
                    : Math.min(font.getBoundingBox().getHeight() / 1000, 1.2f) * size;
            if (lineHeight > innerHeight) fits = false;
            if (font != null && !field.isMultiline()) {
                try {
                    if (font.getStringWidth(text) / 1000 * size > innerWidth) fits = false;
                } catch (IllegalArgumentException noGlyph) {
                    // measured again with the fallback font's auto size: a missing glyph is handled there
                }
            }
        }
        if (fits) return false;
        field.setDefaultAppearance(field.getDefaultAppearance().substring(0, m.start(2)) + "0" + field.getDefaultAppearance().substring(m.end(2)));
        return true;
    }

    /**
     * Gives {@code field} an installed font that draws every character of {@code text}, in the form's resources,
     * embedded as a subset of the glyphs of {@code text}.
     *
     * @return the font's family name
     */
    private String useFontFor(PDDocument doc, PDAcroForm form, PDVariableText field, String text, List<TrueTypeCollection> collections,
                              List<PDFont> subsets)
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
            try (var in = Files.newInputStream(face.file())) {
                font = PDType0Font.load(doc, in, true);
            }
        } else {
            TrueTypeCollection collection = new TrueTypeCollection(face.file().toFile());
            collections.add(collection);
            TrueTypeFont ttf = collection.getFontByName(face.name());
            if (ttf == null) throw new IOException("font " + face.name() + " is no longer in " + face.file());
            font = PDType0Font.load(doc, ttf, true);
        }
        // PDFBox's appearance generator neither records the glyphs it draws nor has the font subset at save (page
        // content streams do both): the glyphs recorded here, the subset made by fill before it saves
        text.codePoints().forEach(font::addToSubset);
        subsets.add(font);
        PDResources resources = form.getDefaultResources();
        if (resources == null) {
            resources = new PDResources();
            form.setDefaultResources(resources);
        }
        COSName name = resources.add(font);
        String size = field.getDefaultAppearance().replaceAll(".*?(\\d+(\\.\\d+)?) Tf.*", "$1");
        if (!size.matches("\\d+(\\.\\d+)?")) size = "0";
        field.setDefaultAppearance("/" + name.getName() + " " + size + " Tf 0 g");
        return font.getName().replaceFirst("^[A-Z]{6}\\+", "");
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
                value = pdfboxReadsStates(c) ? c.isChecked() : stateOf(c) != null;
                options = pdfboxReadsStates(c) ? new ArrayList<>(c.getOnValues()) : onStates(c);
            }
            case PDRadioButton r -> {
                type = "radio";
                String v = pdfboxReadsStates(r) ? r.getValue() : stateOf(r);
                value = v == null || v.isEmpty() || v.equals("Off") ? null : v;
                options = pdfboxReadsStates(r) ? new ArrayList<>(r.getOnValues()) : onStates(r);
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
            Boolean on = f instanceof PDCheckBox || f instanceof PDRadioButton
                    ? w.getAppearanceState() != null && !w.getAppearanceState().equals(OFF) : null;
            widgets.add(new Widget(index + 1, round(r.getLowerLeftX() - media.getLowerLeftX()), round(media.getUpperRightY() - r.getUpperRightY()),
                    round(r.getWidth()), round(r.getHeight()), on));
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
