package dev.docapi.engines.pdfbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.pdfbox.contentstream.PDFStreamEngine;
import org.apache.pdfbox.contentstream.operator.DrawObject;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.contentstream.operator.state.Concatenate;
import org.apache.pdfbox.contentstream.operator.state.Restore;
import org.apache.pdfbox.contentstream.operator.state.Save;
import org.apache.pdfbox.contentstream.operator.state.SetMatrix;
import org.apache.pdfbox.contentstream.operator.text.BeginText;
import org.apache.pdfbox.contentstream.operator.text.EndText;
import org.apache.pdfbox.contentstream.operator.text.MoveText;
import org.apache.pdfbox.contentstream.operator.text.MoveTextSetLeading;
import org.apache.pdfbox.contentstream.operator.text.NextLine;
import org.apache.pdfbox.contentstream.operator.text.SetCharSpacing;
import org.apache.pdfbox.contentstream.operator.text.SetFontAndSize;
import org.apache.pdfbox.contentstream.operator.text.SetTextHorizontalScaling;
import org.apache.pdfbox.contentstream.operator.text.SetTextLeading;
import org.apache.pdfbox.contentstream.operator.text.SetTextRise;
import org.apache.pdfbox.contentstream.operator.text.SetWordSpacing;
import org.apache.pdfbox.contentstream.operator.text.ShowText;
import org.apache.pdfbox.contentstream.operator.text.ShowTextAdjusted;
import org.apache.pdfbox.contentstream.operator.text.ShowTextLine;
import org.apache.pdfbox.contentstream.operator.text.ShowTextLineAndSpace;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdfparser.PDFStreamParser;
import org.apache.pdfbox.pdfwriter.ContentStreamWriter;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.common.PDStream;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.util.Matrix;
import org.apache.pdfbox.util.Vector;

/**
 * The text a page or document holds where no viewer paints it over the page, removed where it lives (issue 35 item
 * 2), before MuPDF removes the glyphs it can see:
 * <ul>
 * <li>in each page's content, text drawn outside the crop box or inside an optional-content layer that is off, and
 * the {@code /ActualText}, {@code /Alt} and {@code /E} of marked content (in Form XObjects and patterns too);</li>
 * <li>the text drawn by a tiling pattern's cell (the pattern paints it again wherever it is used);</li>
 * <li>the document's strings outside the pages' content: custom Info keys, pages' XMP, named destinations, page
 * labels, JavaScript, embedded files in any encoding ({@link PdfTexts#readings}), the structure tree's
 * {@code /Alt}, {@code /ActualText} and {@code /E}.</li>
 * </ul>
 * What holds a match is removed: a string entry (a names tree's pair, an array's item), or the whole unit it belongs to
 * (a file specification, a JavaScript action, a metadata stream). With {@code sanitize}, what can hide content goes
 * whether or not it matches ({@link #sanitize}). Annotations and form fields: {@link AnnotationRedactor}.
 */
final class HiddenText {
    /** Info keys MuPDF reads and empties itself (its counts stay in {@code removed.metadata}). */
    private static final Set<String> STANDARD_INFO = Set.of("Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate");
    /** Page keys not walked here: annotations are {@link AnnotationRedactor}'s, content and resources {@link #content}'s. */
    private static final Set<String> PAGE_SKIP = Set.of("Annots", "Contents", "Resources", "Parent", "B", "Thumb");
    /** Catalog keys not walked here: the page tree (walked per page), the form, the outline and XMP (MuPDF's). */
    private static final Set<String> CATALOG_SKIP = Set.of("Pages", "AcroForm", "Outlines", "Metadata", "Type");
    private static final Set<String> SHOW = Set.of("Tj", "TJ", "'", "\"");

    private final PDDocument doc;
    private final Predicate<String> matches;
    private final boolean sanitize;
    /** What was removed, by place, e.g. "javascript" → 1. */
    final Map<String, Integer> removed = new LinkedHashMap<>();
    private final Set<COSBase> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    HiddenText(PDDocument doc, Predicate<String> matches, boolean sanitize) {
        this.doc = doc;
        this.matches = matches;
        this.sanitize = sanitize;
    }

    private void count(String place) {
        removed.merge(place, 1, Integer::sum);
        total++;
    }

    /** Everything removed so far: a unit (file specification, JavaScript action) goes whole when anything in it did. */
    private int total;

    private boolean matches(List<String> readings) {
        for (String r : readings) if (!r.isEmpty() && matches.test(r)) return true;
        return false;
    }

    /** Removes what the document holds outside its visible page content; see the class comment. */
    void run() throws IOException {
        for (PDPage page : doc.getPages()) {
            try {
                content(page);
            } catch (IOException | RuntimeException e) {
                // content PDFBox cannot follow stays as it is: MuPDF still redacts what it shows, and the check of
                // the output fails the job if a match is left in it
            }
        }
        for (PDPage page : doc.getPages()) {
            COSDictionary p = page.getCOSObject();
            seen.add(p);
            entries(p, PAGE_SKIP, "page");
        }
        COSDictionary catalog = doc.getDocumentCatalog().getCOSObject();
        seen.add(catalog);
        if (sanitize) sanitizeCatalog(catalog);
        actions(catalog);
        entries(catalog, CATALOG_SKIP, "catalog");
        COSDictionary info = doc.getDocument().getTrailer().getCOSDictionary(COSName.INFO);
        if (info != null) {
            for (COSName key : new ArrayList<>(info.keySet())) {
                if (STANDARD_INFO.contains(key.getName()) && !sanitize) continue;
                if (sanitize || (info.getDictionaryObject(key) instanceof COSString s && matches(PdfTexts.readings(s)))) {
                    info.removeItem(key);
                    count(STANDARD_INFO.contains(key.getName()) ? "metadata_entries" : "metadata_custom_keys");
                }
            }
        }
    }

    /** sanitize's removals from the catalog: document JavaScript and actions, embedded files, piece info. */
    private void sanitizeCatalog(COSDictionary catalog) {
        COSDictionary names = catalog.getCOSDictionary(COSName.NAMES);
        if (names != null) {
            if (names.containsKey(COSName.JAVA_SCRIPT)) count("javascript");
            if (names.containsKey(COSName.EMBEDDED_FILES)) count("embedded_files");
            names.removeItem(COSName.JAVA_SCRIPT);
            names.removeItem(COSName.EMBEDDED_FILES);
        }
        // an opening action that runs a script goes; one that opens a page stays, without the scripts chained after it
        if (catalog.getItem(COSName.OPEN_ACTION) instanceof COSBase open && withoutScripts(open, 1)) {
            catalog.removeItem(COSName.OPEN_ACTION);
            count("javascript");
        }
        // associated files (/AF, PDF/A-3) embed files outside the names tree
        for (COSName key : List.of(COSName.AA, COSName.PIECE_INFO, COSName.AF)) {
            if (catalog.containsKey(key)) count(key == COSName.PIECE_INFO ? "piece_info" : key == COSName.AF ? "embedded_files" : "javascript");
            catalog.removeItem(key);
        }
        for (PDPage page : doc.getPages()) {
            COSDictionary p = page.getCOSObject();
            if (p.containsKey(COSName.PIECE_INFO)) count("piece_info");
            if (p.containsKey(COSName.METADATA)) count("page_xmp");
            if (p.containsKey(COSName.AA)) count("javascript");
            if (p.containsKey(COSName.AF)) count("embedded_files");
            p.removeItem(COSName.AF);
            p.removeItem(COSName.PIECE_INFO);
            p.removeItem(COSName.METADATA);
            p.removeItem(COSName.AA);
        }
    }

    /** A walk's bound on a chain of {@code /Next} actions or a field tree's depth: a hostile file may loop. */
    private static final int MAX_DEPTH = 64;

    /**
     * The actions of form fields (a parent field's too, which is no widget and so no annotation), of annotations and of
     * bookmarks, with the actions they chain by {@code /Next}: a JavaScript action holding a match goes, and with
     * {@code sanitize} every JavaScript action. (MuPDF removes a bookmark whose title matches, not its action.)
     */
    private void actions(COSDictionary catalog) {
        List<COSDictionary> holders = new ArrayList<>();
        Set<COSBase> walked = Collections.newSetFromMap(new IdentityHashMap<>());
        COSDictionary form = catalog.getCOSDictionary(COSName.ACRO_FORM);
        if (form != null) fields(form.getCOSArray(COSName.FIELDS), holders, walked, 0);
        for (PDPage page : doc.getPages()) fields(page.getCOSObject().getCOSArray(COSName.ANNOTS), holders, walked, MAX_DEPTH); // links, widgets
        COSDictionary outlines = catalog.getCOSDictionary(COSName.OUTLINES);
        if (outlines != null) bookmarks(outlines.getCOSDictionary(COSName.FIRST), holders, walked, 0);
        for (COSDictionary d : holders) {
            for (COSName key : List.of(COSName.A, COSName.AA)) {
                COSBase action = d.getItem(key);
                if (action == null) continue;
                if (sanitize && withoutScripts(action, 0)) {
                    d.removeItem(key);
                    count("javascript");
                } else if (holds(action, key.getName())) {
                    d.removeItem(key);
                    count("javascript");
                }
            }
        }
    }

    private static void fields(COSArray kids, List<COSDictionary> out, Set<COSBase> walked, int depth) {
        if (kids == null || depth > MAX_DEPTH) return;
        for (int i = 0; i < kids.size(); i++) {
            if (kids.getObject(i) instanceof COSDictionary f && walked.add(f)) {
                out.add(f);
                fields(f.getCOSArray(COSName.KIDS), out, walked, depth + 1);
            }
        }
    }

    private static void bookmarks(COSDictionary item, List<COSDictionary> out, Set<COSBase> walked, int depth) {
        for (COSDictionary d = item; d != null && depth <= MAX_DEPTH && walked.add(d); d = d.getCOSDictionary(COSName.NEXT)) {
            out.add(d);
            bookmarks(d.getCOSDictionary(COSName.FIRST), out, walked, depth + 1);
        }
    }

    /**
     * Removes the JavaScript actions chained after {@code action} (an action, an array of them, or an {@code /AA}
     * dictionary of triggers); true when {@code action} itself is JavaScript or an {@code /AA} (both go whole).
     */
    private boolean withoutScripts(COSBase action, int depth) {
        COSBase v = action instanceof COSObject o ? o.getObject() : action;
        if (depth > MAX_DEPTH) return false;
        if (v instanceof COSArray a) {
            for (int i = a.size() - 1; i >= 0; i--) if (withoutScripts(a.get(i), depth + 1)) a.remove(i);
            return false;
        }
        if (!(v instanceof COSDictionary d)) return false;
        if (depth == 0 && !d.containsKey(COSName.S)) return true; // an /AA: every trigger runs a script or could
        if (COSName.JAVA_SCRIPT.equals(d.getCOSName(COSName.S))) return true;
        COSBase next = d.getItem(COSName.NEXT);
        if (next != null && withoutScripts(next, depth + 1)) d.removeItem(COSName.NEXT);
        return false;
    }

    // ---- strings outside the content ----

    /** Walks {@code d}'s entries but {@code skip}, removing those that hold a match. */
    private void entries(COSDictionary d, Set<String> skip, String where) {
        for (COSName key : new ArrayList<>(d.keySet())) {
            if (skip.contains(key.getName())) continue;
            COSBase value = d.getItem(key);
            if (holds(value, key.getName())) {
                d.removeItem(key);
                count(place(where, key.getName(), value));
            }
        }
    }

    /** The name of the place a removed entry was, for {@code output.data}. */
    private static String place(String where, String key, COSBase value) {
        COSBase v = value instanceof COSObject o ? o.getObject() : value;
        if (v instanceof COSStream s && COSName.METADATA.equals(s.getCOSName(COSName.TYPE))) return where.equals("page") ? "page_xmp" : "xmp";
        if (v instanceof COSDictionary d && COSName.JAVA_SCRIPT.equals(d.getCOSName(COSName.S))) return "javascript";
        return switch (key) {
            case "Alt", "ActualText", "E" -> "structure_tree_text";
            case "P" -> "page_labels";
            case "Dests" -> "named_destinations";
            default -> where + "_entries";
        };
    }

    /**
     * True when {@code value} (under {@code key}) must go: a string or text stream that matches, or a unit (file
     * specification, JavaScript action) holding one. Containers are cleaned in place: a matching item leaves its array,
     * a matching pair its names tree, a matching entry its dictionary.
     */
    private boolean holds(COSBase value, String key) {
        COSBase v = value instanceof COSObject o ? o.getObject() : value;
        switch (v) {
            case COSString s -> {
                return matches(PdfTexts.readings(s));
            }
            case COSArray a -> {
                if (!seen.add(a)) return false;
                if ("Limits".equals(key)) { // a names tree node's first and last key: the node goes without them, not half of them
                    for (int i = 0; i < a.size(); i++) if (a.getObject(i) instanceof COSString s && matches(PdfTexts.readings(s))) return true;
                    return false;
                }
                boolean names = "Names".equals(key) && a.size() % 2 == 0;
                for (int i = a.size() - (names ? 2 : 1); i >= 0; i -= names ? 2 : 1) {
                    if (names) {
                        boolean keyMatches = a.getObject(i) instanceof COSString s && matches(PdfTexts.readings(s));
                        if (keyMatches | holds(a.get(i + 1), null)) {
                            a.remove(i + 1);
                            a.remove(i);
                            count(namesPlace(a));
                        }
                    } else if (holds(a.get(i), null)) {
                        COSBase item = a.get(i);
                        a.remove(i);
                        if ("javascript".equals(place(null, "", item))) count("javascript"); // an action chained by /Next
                    }
                }
                return false;
            }
            case COSStream s -> {
                if (!seen.add(s)) return false;
                if (PdfTexts.kind(s, key) != PdfTexts.Kind.TEXT) return false;
                return matches(PdfTexts.readings(read(s)));
            }
            case COSDictionary d -> {
                if (!seen.add(d)) return false;
                boolean unit = COSName.FILESPEC.equals(d.getCOSName(COSName.TYPE)) || d.containsKey(COSName.EF)
                        || COSName.JAVA_SCRIPT.equals(d.getCOSName(COSName.S));
                if (PdfTexts.isAnnotation(d)) return false; // AnnotationRedactor's
                int before = total;
                Map<String, Integer> counted = unit ? new LinkedHashMap<>(removed) : null;
                for (COSName k : new ArrayList<>(d.keySet())) {
                    if (k.equals(COSName.PARENT) || k.equals(COSName.P) && !(d.getDictionaryObject(k) instanceof COSString) || k.equals(COSName.PG)) continue;
                    COSBase item = d.getItem(k);
                    String tree = namesTree;
                    if (List.of("EmbeddedFiles", "JavaScript", "Dests").contains(k.getName())) namesTree = k.getName();
                    boolean holds = holds(item, k.getName());
                    namesTree = tree;
                    if (holds) {
                        if (unit) return true;
                        d.removeItem(k);
                        count(place("catalog", k.getName(), item));
                    }
                }
                if (!unit || total == before) return false;
                // the unit goes whole: what was removed inside it is not counted apart
                removed.clear();
                removed.putAll(counted);
                total = before;
                return true;
            }
            case null, default -> {
                return false;
            }
        }
    }

    private String namesPlace(COSArray a) {
        return namesTree == null ? "names_tree_entries" : switch (namesTree) {
            case "EmbeddedFiles" -> "embedded_files";
            case "JavaScript" -> "javascript";
            case "Dests" -> "named_destinations";
            default -> "names_tree_entries";
        };
    }

    /** The names tree being walked (a key of the catalog's /Names), for {@link #namesPlace}. */
    private String namesTree;

    private static byte[] read(COSStream s) {
        try (InputStream in = s.createInputStream()) {
            return in.readNBytes(64 << 20);
        } catch (IOException e) {
            return new byte[0];
        }
    }

    // ---- page content ----

    /** A text-showing operator's glyphs: their text and whether any lies inside the crop box. */
    private static final class Shown {
        final StringBuilder text = new StringBuilder();
        boolean visible;
        boolean hidden; // in a layer that is off
    }

    /**
     * Reads each top-level operator of a page's content with the text state, so each text-showing operator knows
     * where its glyphs land and whether a layer that is off holds it. Form XObjects are entered: the glyphs a form
     * draws count as its {@code Do}'s, so a form drawn wholly outside the page is known (MuPDF clips it away before it
     * redacts, so it would not remove them).
     */
    private static final class Positions extends PDFStreamEngine {
        final Map<Integer, Shown> shown = new HashMap<>();
        private final PDRectangle crop;
        private final Set<COSBase> off;
        private final List<Boolean> layers = new ArrayList<>();
        private int index = -1, depth;

        Positions(PDRectangle crop, Set<COSBase> off) {
            this.crop = crop;
            this.off = off;
            for (var op : List.of(new BeginText(this), new EndText(this), new SetFontAndSize(this), new ShowText(this),
                    new ShowTextAdjusted(this), new ShowTextLine(this), new ShowTextLineAndSpace(this), new MoveText(this),
                    new MoveTextSetLeading(this), new NextLine(this), new SetMatrix(this), new SetCharSpacing(this),
                    new SetWordSpacing(this), new SetTextLeading(this), new SetTextHorizontalScaling(this), new SetTextRise(this),
                    new Concatenate(this), new Save(this), new Restore(this), new DrawObject(this))) {
                addOperator(op);
            }
        }

        @Override
        protected void processOperator(Operator operator, List<COSBase> operands) throws IOException {
            // ' and " call T* and Tj through here: only the operators of the stream itself are counted
            if (depth > 0) {
                super.processOperator(operator, operands);
                return;
            }
            index++;
            String name = operator.getName();
            if (name.equals("BDC") || name.equals("BMC")) {
                boolean hidden = !layers.isEmpty() && layers.getLast();
                if (name.equals("BDC") && operands.size() >= 2 && COSName.OC.equals(operands.get(0)) && operands.get(1) instanceof COSName prop
                        && getResources() != null) {
                    COSDictionary props = getResources().getCOSObject().getCOSDictionary(COSName.PROPERTIES);
                    COSBase ocg = props == null ? null : props.getDictionaryObject(prop);
                    hidden |= ocg != null && off.contains(ocg);
                }
                layers.add(hidden);
            } else if (name.equals("EMC") && !layers.isEmpty()) {
                layers.removeLast();
            }
            depth++;
            try {
                super.processOperator(operator, operands);
            } finally {
                depth--;
            }
        }

        @Override
        protected void showGlyph(Matrix trm, PDFont font, int code, Vector displacement) throws IOException {
            Shown s = shown.computeIfAbsent(index, i -> new Shown());
            String u = font.toUnicode(code);
            s.text.append(u == null ? "\uFFFD" : u);
            s.hidden |= !layers.isEmpty() && layers.getLast();
            float x = trm.getTranslateX(), y = trm.getTranslateY();
            float h = Math.max(1, Math.abs(trm.getScalingFactorY())), w = Math.max(1, Math.abs(displacement.getX() * trm.getScalingFactorX()));
            boolean inside = x + w > crop.getLowerLeftX() && x < crop.getUpperRightX() && y + h > crop.getLowerLeftY() && y - h / 4 < crop.getUpperRightY();
            s.visible |= inside;
        }
    }

    /** The layers that are off in the default configuration. */
    private Set<COSBase> layersOff() {
        Set<COSBase> off = Collections.newSetFromMap(new IdentityHashMap<>());
        COSDictionary oc = doc.getDocumentCatalog().getCOSObject().getCOSDictionary(COSName.OCPROPERTIES);
        COSDictionary d = oc == null ? null : oc.getCOSDictionary(COSName.D);
        COSArray array = d == null ? null : d.getCOSArray(COSName.OFF);
        if (array != null) for (int i = 0; i < array.size(); i++) off.add(array.getObject(i));
        return off;
    }

    /**
     * Removes from {@code page}'s content the text no viewer shows (outside the crop box, in a layer that is off) when
     * it matches (all of it with {@code sanitize}), and matching marked-content text; then cleans its Form XObjects and
     * patterns ({@link #resources}).
     */
    private void content(PDPage page) throws IOException {
        Set<COSBase> off = layersOff();
        Positions positions = new Positions(page.getCropBox(), off);
        positions.processPage(page);
        StringBuilder outside = new StringBuilder(), hidden = new StringBuilder();
        positions.shown.forEach((i, s) -> {
            if (!s.visible) outside.append(s.text).append(' ');
            else if (s.hidden) hidden.append(s.text).append(' ');
        });
        // an operator whose own text matches goes; when only their text together matches (a letter per Tj), all go
        Set<Integer> drop = new java.util.HashSet<>();
        positions.shown.forEach((i, s) -> {
            if ((!s.visible || s.hidden) && (sanitize || matches.test(s.text.toString()))) drop.add(i);
        });
        boolean dropOutside = drop.isEmpty() && !outside.isEmpty() && matches.test(outside.toString());
        boolean dropHidden = drop.isEmpty() && !hidden.isEmpty() && matches.test(hidden.toString());
        List<Object> tokens = new PDFStreamParser(page).parse();
        List<Object> out = new ArrayList<>(tokens.size());
        List<Object> operands = new ArrayList<>();
        int index = -1;
        boolean changed = false;
        for (Object t : tokens) {
            if (!(t instanceof Operator op)) {
                operands.add(t);
                continue;
            }
            index++;
            Shown s = positions.shown.get(index);
            boolean draws = SHOW.contains(op.getName()) || op.getName().equals("Do");
            if (s != null && draws && (drop.contains(index) || (dropOutside && !s.visible) || (dropHidden && s.hidden && s.visible))) {
                String place = !s.visible ? "text_outside_page" : "text_in_hidden_layers";
                count(place);
                // the form's own stream still holds the text: its text goes too (where else it is drawn, MuPDF would
                // have removed the match anyway)
                if (op.getName().equals("Do") && !operands.isEmpty() && operands.getFirst() instanceof COSName name && page.getResources() != null
                        && page.getResources().getCOSObject().getCOSDictionary(COSName.XOBJECT) != null
                        && page.getResources().getCOSObject().getCOSDictionary(COSName.XOBJECT).getDictionaryObject(name) instanceof COSStream form) {
                    dropText(form, place);
                }
                operands.clear();
                changed = true;
                continue;
            }
            if (op.getName().equals("BDC")) changed |= markedContent(operands);
            out.addAll(operands);
            out.add(op);
            operands.clear();
        }
        out.addAll(operands);
        if (changed) {
            PDStream stream = new PDStream(doc);
            try (OutputStream os = stream.createOutputStream(COSName.FLATE_DECODE)) {
                new ContentStreamWriter(os).writeTokens(out);
            }
            page.setContents(stream);
        }
        if (page.getResources() != null) resources(page.getResources().getCOSObject());
    }

    /** Removes the matching {@code /ActualText}, {@code /Alt} and {@code /E} of a BDC's inline property list. */
    private boolean markedContent(List<Object> operands) {
        boolean changed = false;
        for (Object o : operands) {
            if (!(o instanceof COSDictionary d)) continue;
            for (COSName k : List.of(COSName.ACTUAL_TEXT, COSName.ALT, COSName.E)) {
                if (d.getDictionaryObject(k) instanceof COSString s && matches(PdfTexts.readings(s))) {
                    d.removeItem(k);
                    count("marked_content_text");
                    changed = true;
                }
            }
        }
        return changed;
    }

    /**
     * Form XObjects and tiling patterns of {@code resources}, recursively: matching marked-content text removed, and
     * a pattern's cell whose text matches loses its text-showing operators.
     */
    private void resources(COSDictionary resources) throws IOException {
        if (!seen.add(resources)) return;
        COSDictionary properties = resources.getCOSDictionary(COSName.PROPERTIES); // named property lists of BDC
        if (properties != null) {
            for (COSName name : properties.keySet()) {
                if (properties.getDictionaryObject(name) instanceof COSDictionary d) markedContent(List.<Object>of(d));
            }
        }
        COSDictionary fonts = resources.getCOSDictionary(COSName.FONT);
        if (fonts != null) {
            for (COSName name : fonts.keySet()) {
                if (fonts.getDictionaryObject(name) instanceof COSDictionary font && COSName.TYPE3.equals(font.getCOSName(COSName.SUBTYPE))) type3(font);
            }
        }
        for (COSName kind : List.of(COSName.XOBJECT, COSName.PATTERN)) {
            COSDictionary d = resources.getCOSDictionary(kind);
            if (d == null) continue;
            for (COSName name : d.keySet()) {
                if (!(d.getDictionaryObject(name) instanceof COSStream s) || !seen.add(s)) continue;
                boolean pattern = s.getInt(COSName.PATTERN_TYPE) == 1;
                if (!pattern && !COSName.FORM.equals(s.getCOSName(COSName.SUBTYPE))) continue;
                rewrite(s, pattern ? "pattern_text" : null);
                COSDictionary inner = s.getCOSDictionary(COSName.RESOURCES);
                if (inner != null) resources(inner);
            }
        }
    }

    /**
     * A Type 3 font's glyph procedures that draw text of their own (viewers show the glyph, not that text): a procedure
     * whose text matches loses its text-showing operators.
     */
    private void type3(COSDictionary font) throws IOException {
        if (!seen.add(font)) return;
        COSDictionary procs = font.getCOSDictionary(COSName.CHAR_PROCS);
        if (procs != null) {
            for (COSName glyph : procs.keySet()) {
                if (procs.getDictionaryObject(glyph) instanceof COSStream s && seen.add(s)) rewrite(s, "type3_glyph_text");
            }
        }
        COSDictionary inner = font.getCOSDictionary(COSName.RESOURCES);
        if (inner != null) resources(inner);
    }

    /**
     * The text of a Form XObject drawn where no viewer shows it, and of the forms it draws: each stream whose text
     * matches (all with {@code sanitize}) loses its text-showing operators.
     */
    private void dropText(COSStream form, String place) throws IOException {
        if (!seen.add(form)) return;
        rewrite(form, place);
        COSDictionary inner = form.getCOSDictionary(COSName.RESOURCES);
        COSDictionary xobjects = inner == null ? null : inner.getCOSDictionary(COSName.XOBJECT);
        if (xobjects == null) return;
        for (COSName name : xobjects.keySet()) {
            if (xobjects.getDictionaryObject(name) instanceof COSStream s && COSName.FORM.equals(s.getCOSName(COSName.SUBTYPE))) dropText(s, place);
        }
    }

    /**
     * Rewrites a content stream (Form XObject, pattern cell, glyph procedure) as {@link #resources} says, when
     * anything changes: matching marked-content text goes and, with a {@code textPlace}, all its text-showing operators
     * when its strings together match (counted under that place).
     */
    private void rewrite(COSStream s, String textPlace) throws IOException {
        List<Object> tokens;
        try {
            tokens = new PDFStreamParser(read(s)).parse();
        } catch (IOException e) {
            return;
        }
        boolean dropText = false;
        if (textPlace != null) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (Object t : tokens) {
                if (t instanceof COSString str) all.writeBytes(str.getBytes());
                if (t instanceof COSArray a) for (COSBase b : a) if (b instanceof COSString str) all.writeBytes(str.getBytes());
                if (t instanceof Operator op && SHOW.contains(op.getName())) all.write(' ');
            }
            // with sanitize, a form's text no viewer shows goes whether or not it matches
            dropText = all.size() > 0 && (sanitize && textPlace.startsWith("text_") || matches(PdfTexts.readings(all.toByteArray())));
        }
        List<Object> out = new ArrayList<>(tokens.size());
        List<Object> operands = new ArrayList<>();
        boolean changed = false;
        for (Object t : tokens) {
            if (!(t instanceof Operator op)) {
                operands.add(t);
                continue;
            }
            if (dropText && SHOW.contains(op.getName())) {
                operands.clear();
                changed = true;
                continue;
            }
            if (op.getName().equals("BDC")) changed |= markedContent(operands);
            out.addAll(operands);
            out.add(op);
            operands.clear();
        }
        out.addAll(operands);
        if (dropText) count(textPlace);
        if (!changed) return;
        try (OutputStream os = s.createOutputStream(COSName.FLATE_DECODE)) {
            new ContentStreamWriter(os).writeTokens(out);
        }
    }
}
