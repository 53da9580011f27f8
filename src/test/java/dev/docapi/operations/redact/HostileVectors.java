package dev.docapi.operations.redact;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSFloat;
import org.apache.pdfbox.cos.COSInteger;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentNameDictionary;
import org.apache.pdfbox.pdmodel.PDEmbeddedFilesNameTreeNode;
import org.apache.pdfbox.pdmodel.PDJavascriptNameTreeNode;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDMetadata;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.common.filespecification.PDComplexFileSpecification;
import org.apache.pdfbox.pdmodel.common.filespecification.PDEmbeddedFile;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionJavaScript;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationFileAttachment;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationRubberStamp;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationText;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAppearanceDictionary;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAppearanceStream;

/**
 * One-vector PDFs for redact (issue 35): each is a page of ordinary prose ({@link #PROSE}, which must survive) and the
 * word {@link #WORD} hidden in exactly one place a reader could show or extract it. Built low-level with PDFBox so
 * each vector is what its name says and nothing more.
 */
final class HostileVectors {
    static final String WORD = "OBSIDIAN";
    static final List<String> PROSE = List.of("The harbour master counted seven ships before noon",
            "and wrote their names in the ledger by the window", "while the gulls argued over the fishing nets");
    private static final PDType1Font HELVETICA = new PDType1Font(Standard14Fonts.FontName.HELVETICA);

    private HostileVectors() {
    }

    /** The vectors by name. */
    static final Map<String, Vector> ALL = new java.util.LinkedHashMap<>();

    interface Vector {
        void hide(PDDocument doc, PDPage page) throws IOException;
    }

    static {
        ALL.put("page text", (doc, page) -> append(doc, page, "BT /Helv 12 Tf 72 500 Td (The word OBSIDIAN is here.) Tj ET"));
        ALL.put("letter spacing Tc", (doc, page) -> append(doc, page, "BT /Helv 12 Tf 8 Tc 72 500 Td (OBSIDIAN) Tj ET"));
        ALL.put("TJ gaps", (doc, page) -> append(doc, page,
                "BT /Helv 12 Tf 72 500 Td [(O) -1500 (B) -1500 (S) -1500 (I) -1500 (D) -1500 (I) -1500 (A) -1500 (N)] TJ ET"));
        ALL.put("hex string", (doc, page) -> append(doc, page, "BT /Helv 12 Tf 72 500 Td <" + hex(WORD.getBytes(StandardCharsets.US_ASCII)) + "> Tj ET"));
        ALL.put("ActualText", (doc, page) -> append(doc, page,
                "/Span <</ActualText <FEFF" + hex(WORD.getBytes(StandardCharsets.UTF_16BE)) + ">>> BDC BT /Helv 12 Tf 72 500 Td (XXXX) Tj ET EMC"));
        ALL.put("ActualText in a named property list", (doc, page) -> {
            COSDictionary span = new COSDictionary();
            span.setString(COSName.ACTUAL_TEXT, WORD);
            page.getResources().getCOSObject().setItem(COSName.PROPERTIES, dict(COSName.getPDFName("MC0"), span));
            append(doc, page, "/Span /MC0 BDC BT /Helv 12 Tf 72 500 Td (XXXX) Tj ET EMC");
        });
        ALL.put("outside the crop box", (doc, page) -> {
            page.setCropBox(new PDRectangle(0, 400, 612, 392));
            append(doc, page, "BT /Helv 12 Tf 72 200 Td (OBSIDIAN) Tj ET");
        });
        ALL.put("outside the media box", (doc, page) -> append(doc, page, "BT /Helv 12 Tf 72 -300 Td (OBSIDIAN) Tj ET"));
        ALL.put("layer that is off", (doc, page) -> {
            COSDictionary ocg = dict(COSName.TYPE, COSName.getPDFName("OCG"));
            ocg.setString(COSName.NAME, "Hidden layer");
            COSDictionary properties = new COSDictionary();
            properties.setItem("oc1", ocg);
            page.getResources().getCOSObject().setItem(COSName.PROPERTIES, properties);
            COSDictionary d = dict(COSName.OFF, array(ocg));
            COSDictionary oc = new COSDictionary();
            oc.setItem(COSName.OCGS, array(ocg));
            oc.setItem(COSName.D, d);
            doc.getDocumentCatalog().getCOSObject().setItem(COSName.OCPROPERTIES, oc);
            append(doc, page, "/OC /oc1 BDC BT /Helv 12 Tf 72 500 Td (OBSIDIAN) Tj ET EMC");
        });
        ALL.put("Form XObject", (doc, page) -> {
            PDFormXObject form = form(doc, "BT /Helv 12 Tf 0 0 Td (OBSIDIAN) Tj ET", new PDRectangle(0, 0, 200, 20));
            page.getResources().put(COSName.getPDFName("Fx1"), form);
            append(doc, page, "q 1 0 0 1 72 500 cm /Fx1 Do Q");
        });
        ALL.put("tiling pattern", (doc, page) -> {
            COSStream cell = doc.getDocument().createCOSStream();
            cell.setItem(COSName.TYPE, COSName.PATTERN);
            cell.setInt(COSName.PATTERN_TYPE, 1);
            cell.setInt(COSName.PAINT_TYPE, 1);
            cell.setInt(COSName.TILING_TYPE, 1);
            cell.setItem(COSName.BBOX, new PDRectangle(0, 0, 120, 20).getCOSArray());
            cell.setInt(COSName.X_STEP, 120);
            cell.setInt(COSName.Y_STEP, 20);
            cell.setItem(COSName.RESOURCES, fontResources());
            write(cell, "BT /Helv 12 Tf 2 5 Td (OBSIDIAN) Tj ET");
            COSDictionary patterns = new COSDictionary();
            patterns.setItem("P1", cell);
            page.getResources().getCOSObject().setItem(COSName.PATTERN, patterns);
            append(doc, page, "q /Pattern cs /P1 scn 72 480 240 40 re f Q");
        });
        ALL.put("stamp appearance", (doc, page) -> {
            PDAnnotationRubberStamp stamp = new PDAnnotationRubberStamp();
            stamp.setRectangle(new PDRectangle(72, 300, 200, 30));
            stamp.setAppearance(appearance(doc, "BT /Helv 14 Tf 4 8 Td (OBSIDIAN) Tj ET"));
            page.getAnnotations().add(stamp);
        });
        ALL.put("widget appearance other than its value", (doc, page) -> {
            COSDictionary widget = field("Tx", "name");
            widget.setString(COSName.V, "harmless");
            widget.setItem(COSName.AP, appearance(doc, "/Tx BMC BT /Helv 12 Tf 2 6 Td (OBSIDIAN) Tj ET EMC").getCOSObject());
            addField(doc, page, widget);
        });
        ALL.put("choice options", (doc, page) -> {
            COSDictionary f = field("Ch", "choice");
            f.setItem(COSName.OPT, array(new COSString("alpha"), new COSString(WORD)));
            f.setString(COSName.V, "alpha");
            addField(doc, page, f);
        });
        ALL.put("field default", (doc, page) -> {
            COSDictionary f = field("Tx", "name");
            f.setString(COSName.DV, WORD);
            addField(doc, page, f);
        });
        ALL.put("field tooltip", (doc, page) -> {
            COSDictionary f = field("Tx", "name");
            f.setString(COSName.TU, "Type " + WORD + " here");
            addField(doc, page, f);
        });
        ALL.put("field name", (doc, page) -> addField(doc, page, field("Tx", WORD)));
        ALL.put("annotation rich text", (doc, page) -> {
            PDAnnotationText note = note();
            note.getCOSObject().setString(COSName.RC, "<body><p>" + WORD + "</p></body>");
            page.getAnnotations().add(note);
        });
        ALL.put("annotation name", (doc, page) -> {
            PDAnnotationText note = note();
            note.getCOSObject().setString(COSName.NM, WORD + "-1");
            page.getAnnotations().add(note);
        });
        ALL.put("custom Info key", (doc, page) -> doc.getDocumentInformation().setCustomMetadataValue("Codename", WORD));
        ALL.put("page XMP", (doc, page) -> page.setMetadata(xmp(doc)));
        ALL.put("named destination", (doc, page) -> {
            COSDictionary dests = dict(COSName.NAMES, array(new COSString(WORD), array(page.getCOSObject(), COSName.getPDFName("Fit"))));
            names(doc).getCOSObject().setItem(COSName.DESTS, dests);
        });
        ALL.put("page label", (doc, page) -> {
            COSDictionary label = dict(COSName.S, COSName.D);
            label.setString(COSName.P, WORD + "-");
            doc.getDocumentCatalog().getCOSObject().setItem(COSName.PAGE_LABELS, dict(COSName.NUMS, array(org.apache.pdfbox.cos.COSInteger.ZERO, label)));
        });
        ALL.put("document JavaScript", (doc, page) -> {
            PDJavascriptNameTreeNode js = new PDJavascriptNameTreeNode();
            js.setNames(Map.of("init", new PDActionJavaScript("app.alert('" + WORD + "');")));
            names(doc).setJavascript(js);
        });
        ALL.put("embedded file in UTF-16", (doc, page) -> embed(doc, ("notes: " + WORD).getBytes(StandardCharsets.UTF_16LE)));
        ALL.put("embedded file in Latin-1", (doc, page) -> embed(doc, ("café " + WORD + " déjà").getBytes(StandardCharsets.ISO_8859_1)));
        ALL.put("file attachment annotation", (doc, page) -> {
            PDAnnotationFileAttachment a = new PDAnnotationFileAttachment();
            a.setRectangle(new PDRectangle(20, 20, 20, 20));
            a.setFile(file(doc, "a.txt", ("codename " + WORD).getBytes(StandardCharsets.UTF_8)));
            page.getAnnotations().add(a);
        });
        ALL.put("structure tree Alt", (doc, page) -> {
            COSDictionary element = dict(COSName.S, COSName.getPDFName("Figure"));
            element.setString(COSName.ALT, "A photo of " + WORD);
            element.setItem(COSName.PG, page.getCOSObject());
            COSDictionary root = dict(COSName.TYPE, COSName.STRUCT_TREE_ROOT);
            root.setItem(COSName.K, element);
            element.setItem(COSName.P, root);
            doc.getDocumentCatalog().getCOSObject().setItem(COSName.STRUCT_TREE_ROOT, root);
        });
        ALL.put("Type 3 glyph procedure", (doc, page) -> {
            // the page shows one glyph of a Type 3 font; the glyph's procedure draws the word in Helvetica
            COSStream glyph = doc.getDocument().createCOSStream();
            write(glyph, "1000 0 d0 BT /Helv 120 Tf 0 200 Td (OBSIDIAN) Tj ET");
            COSDictionary font = dict(COSName.TYPE, COSName.FONT);
            font.setItem(COSName.SUBTYPE, COSName.getPDFName("Type3"));
            font.setItem(COSName.FONT_BBOX, new PDRectangle(0, 0, 1000, 1000).getCOSArray());
            font.setItem(COSName.FONT_MATRIX, array(new COSFloat(0.001f), COSInteger.ZERO, COSInteger.ZERO, new COSFloat(0.001f), COSInteger.ZERO, COSInteger.ZERO));
            font.setItem(COSName.CHAR_PROCS, dict(COSName.getPDFName("g1"), glyph));
            COSDictionary encoding = dict(COSName.TYPE, COSName.ENCODING);
            encoding.setItem(COSName.DIFFERENCES, array(COSInteger.get(65), COSName.getPDFName("g1")));
            font.setItem(COSName.ENCODING, encoding);
            font.setInt(COSName.FIRST_CHAR, 65);
            font.setInt(COSName.LAST_CHAR, 65);
            font.setItem(COSName.WIDTHS, array(COSInteger.get(1000)));
            font.setItem(COSName.RESOURCES, fontResources());
            page.getResources().getCOSObject().getCOSDictionary(COSName.FONT).setItem("T3", font);
            append(doc, page, "BT /T3 12 Tf 72 500 Td (A) Tj ET");
        });
        ALL.put("Form XObject outside the page", (doc, page) -> {
            PDFormXObject form = form(doc, "BT /Helv 12 Tf 0 5 Td (OBSIDIAN) Tj ET", new PDRectangle(0, 0, 200, 20));
            page.getResources().put(COSName.getPDFName("Fx1"), form);
            append(doc, page, "q 1 0 0 1 72 -300 cm /Fx1 Do Q");
        });
        ALL.put("JavaScript of a parent field", (doc, page) -> {
            // the field's script is on the parent; its widget, a kid, is a separate dictionary
            COSDictionary parent = dict(COSName.FT, COSName.getPDFName("Tx"));
            parent.setString(COSName.T, "amount");
            parent.setItem(COSName.AA, dict(COSName.K, javascript("event.value = '" + WORD + "';")));
            parent.setItem(COSName.A, javascript("app.alert('" + WORD + "');"));
            COSDictionary widget = dict(COSName.TYPE, COSName.ANNOT);
            widget.setItem(COSName.SUBTYPE, COSName.WIDGET);
            widget.setItem(COSName.RECT, new PDRectangle(72, 250, 200, 24).getCOSArray());
            widget.setItem(COSName.PARENT, parent);
            widget.setItem(COSName.P, page.getCOSObject());
            parent.setItem(COSName.KIDS, array(widget));
            page.getCOSObject().setItem(COSName.ANNOTS, array(widget));
            COSDictionary form = dict(COSName.FIELDS, array(parent));
            form.setItem(COSName.DR, new PDResources(fontResources()).getCOSObject());
            form.setString(COSName.DA, "/Helv 12 Tf 0 g");
            doc.getDocumentCatalog().getCOSObject().setItem(COSName.ACRO_FORM, form);
        });
        ALL.put("bookmark JavaScript", (doc, page) -> outline(doc, page, javascript("app.alert('" + WORD + "');")));
        ALL.put("bookmark action chain", (doc, page) -> {
            // a bookmark that opens the page, then runs two scripts: the word is in the chain's last one, a stream
            COSDictionary go = dict(COSName.S, COSName.getPDFName("GoTo"));
            go.setItem(COSName.D, array(page.getCOSObject(), COSName.getPDFName("Fit")));
            COSStream script = doc.getDocument().createCOSStream();
            try (OutputStream os = script.createOutputStream(COSName.FLATE_DECODE)) {
                os.write(("app.alert('" + WORD + "');").getBytes(StandardCharsets.ISO_8859_1));
            }
            COSDictionary last = dict(COSName.S, COSName.JAVA_SCRIPT);
            last.setItem(COSName.JS, script);
            go.setItem(COSName.NEXT, array(javascript("var n = 1;"), last));
            outline(doc, page, go);
        });
        ALL.put("word in two runs", (doc, page) -> append(doc, page, "BT /Helv 12 Tf 72 500 Td (The word OBSI) Tj (DIAN is here.) Tj ET"));
        ALL.put("word in two TJ runs with a small gap", (doc, page) -> append(doc, page, "BT /Helv 12 Tf 72 500 Td [(OBSI)] TJ [-90 (DIAN)] TJ ET"));
        ALL.put("word split by a kerning gap", (doc, page) -> append(doc, page, "BT /Helv 12 Tf 72 500 Td [(OBSI) -450 (DIAN)] TJ ET"));
        ALL.put("annotation author", (doc, page) -> {
            PDAnnotationText note = note();
            note.getCOSObject().setString(COSName.T, "Agent " + WORD);
            page.getAnnotations().add(note);
        });
        ALL.put("annotation subject", (doc, page) -> {
            PDAnnotationText note = note();
            note.getCOSObject().setString(COSName.SUBJ, "Re: " + WORD);
            page.getAnnotations().add(note);
        });
        ALL.put("catalog XMP", (doc, page) -> doc.getDocumentCatalog().setMetadata(xmp(doc)));
        ALL.put("structure tree ActualText and E", (doc, page) -> {
            COSDictionary element = dict(COSName.S, COSName.getPDFName("Span"));
            element.setString(COSName.ACTUAL_TEXT, WORD);
            element.setString(COSName.E, "expansion of " + WORD);
            element.setItem(COSName.PG, page.getCOSObject());
            COSDictionary root = dict(COSName.TYPE, COSName.STRUCT_TREE_ROOT);
            root.setItem(COSName.K, element);
            element.setItem(COSName.P, root);
            doc.getDocumentCatalog().getCOSObject().setItem(COSName.STRUCT_TREE_ROOT, root);
        });
        ALL.put("Info title in UTF-16", (doc, page) -> doc.getDocumentInformation().setTitle("Report " + WORD + " \u2014 draft"));
    }

    /** A letter-spaced e-mail address holding the word, found by the email preset. */
    static final Vector SPACED_EMAIL = (doc, page) -> append(doc, page, "BT /Helv 12 Tf 7 Tc 72 500 Td (ops@" + WORD.toLowerCase(java.util.Locale.ROOT) + ".org) Tj ET");

    /**
     * A vector no redaction step removes, on purpose: the word in a custom key of the page's font dictionary,
     * where no reader shows it but the file holds it (the check must fail the job).
     */
    static final Vector UNREMOVABLE = (doc, page) -> {
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        font.getCOSObject().setString(COSName.getPDFName("Comment"), WORD);
        page.getResources().getCOSObject().getCOSDictionary(COSName.FONT).setItem("Helv", font);
    };

    /** Writes the vector {@code name} to {@code out}. */
    static Path build(String name, Path out) throws IOException {
        return build(ALL.get(name), out);
    }

    /** Writes {@code vector} to {@code out}. */
    static Path build(Vector vector, Path out) throws IOException {
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            doc.addPage(page);
            page.setResources(new PDResources(fontResources()));
            StringBuilder prose = new StringBuilder("BT /Helv 12 Tf 72 720 Td 16 TL");
            for (String line : PROSE) prose.append(" (").append(line).append(") ' ");
            prose.append("ET\n");
            COSStream content = doc.getDocument().createCOSStream();
            write(content, prose.toString());
            page.getCOSObject().setItem(COSName.CONTENTS, array(content));
            vector.hide(doc, page);
            doc.save(out.toFile());
        }
        return out;
    }

    private static COSDictionary fontResources() {
        COSDictionary fonts = new COSDictionary();
        fonts.setItem("Helv", HELVETICA);
        return dict(COSName.FONT, fonts);
    }

    private static void append(PDDocument doc, PDPage page, String ops) throws IOException {
        COSStream s = doc.getDocument().createCOSStream();
        write(s, ops + "\n");
        ((COSArray) page.getCOSObject().getDictionaryObject(COSName.CONTENTS)).add(s);
    }

    private static void write(COSStream s, String ops) throws IOException {
        try (OutputStream os = s.createOutputStream(COSName.FLATE_DECODE)) {
            os.write(ops.getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    private static PDFormXObject form(PDDocument doc, String ops, PDRectangle box) throws IOException {
        PDFormXObject form = new PDFormXObject(doc);
        form.setBBox(box);
        form.setResources(new PDResources(fontResources()));
        try (OutputStream os = form.getContentStream().createOutputStream(COSName.FLATE_DECODE)) {
            os.write(ops.getBytes(StandardCharsets.ISO_8859_1));
        }
        return form;
    }

    private static PDAppearanceDictionary appearance(PDDocument doc, String ops) throws IOException {
        PDAppearanceDictionary ap = new PDAppearanceDictionary();
        ap.setNormalAppearance(new PDAppearanceStream(form(doc, ops, new PDRectangle(0, 0, 200, 30)).getCOSObject()));
        return ap;
    }

    private static COSDictionary field(String type, String name) {
        COSDictionary f = dict(COSName.FT, COSName.getPDFName(type));
        f.setString(COSName.T, name);
        f.setItem(COSName.TYPE, COSName.ANNOT);
        f.setItem(COSName.SUBTYPE, COSName.WIDGET);
        f.setItem(COSName.RECT, new PDRectangle(72, 250, 200, 24).getCOSArray());
        return f;
    }

    private static void addField(PDDocument doc, PDPage page, COSDictionary widget) throws IOException {
        widget.setItem(COSName.P, page.getCOSObject());
        COSArray annots = new COSArray();
        annots.add(widget);
        page.getCOSObject().setItem(COSName.ANNOTS, annots);
        COSDictionary form = dict(COSName.FIELDS, array(widget));
        form.setItem(COSName.DR, new PDResources(fontResources()).getCOSObject());
        form.setString(COSName.DA, "/Helv 12 Tf 0 g");
        doc.getDocumentCatalog().getCOSObject().setItem(COSName.ACRO_FORM, form);
    }

    private static PDAnnotationText note() {
        PDAnnotationText note = new PDAnnotationText();
        note.setRectangle(new PDRectangle(20, 20, 20, 20));
        note.setContents("a note");
        return note;
    }

    private static PDDocumentNameDictionary names(PDDocument doc) {
        PDDocumentNameDictionary names = doc.getDocumentCatalog().getNames();
        if (names == null) {
            names = new PDDocumentNameDictionary(doc.getDocumentCatalog());
            doc.getDocumentCatalog().setNames(names);
        }
        return names;
    }

    private static void embed(PDDocument doc, byte[] content) throws IOException {
        PDEmbeddedFilesNameTreeNode tree = new PDEmbeddedFilesNameTreeNode();
        tree.setNames(Map.of("notes.txt", file(doc, "notes.txt", content)));
        names(doc).setEmbeddedFiles(tree);
    }

    private static PDComplexFileSpecification file(PDDocument doc, String name, byte[] content) throws IOException {
        PDEmbeddedFile ef = new PDEmbeddedFile(doc, new java.io.ByteArrayInputStream(content));
        ef.setSize(content.length);
        ef.setCreationDate(Calendar.getInstance());
        PDComplexFileSpecification spec = new PDComplexFileSpecification();
        spec.setFile(name);
        spec.setEmbeddedFile(ef);
        return spec;
    }

    /** An XMP packet whose title is the word. */
    private static PDMetadata xmp(PDDocument doc) throws IOException {
        PDMetadata xmp = new PDMetadata(doc);
        try (OutputStream os = xmp.createOutputStream()) {
            os.write(("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
                    + "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'><dc:title>" + WORD
                    + "</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>").getBytes(StandardCharsets.UTF_8));
        }
        return xmp;
    }

    private static COSDictionary javascript(String js) {
        COSDictionary a = dict(COSName.S, COSName.JAVA_SCRIPT);
        a.setString(COSName.JS, js);
        return a;
    }

    /** One bookmark, "Chapter one", whose action is {@code action}. */
    private static void outline(PDDocument doc, PDPage page, COSDictionary action) {
        COSDictionary outlines = dict(COSName.TYPE, COSName.OUTLINES);
        COSDictionary item = dict(COSName.A, action);
        item.setString(COSName.TITLE, "Chapter one");
        item.setItem(COSName.PARENT, outlines);
        outlines.setItem(COSName.FIRST, item);
        outlines.setItem(COSName.LAST, item);
        outlines.setInt(COSName.COUNT, 1);
        doc.getDocumentCatalog().getCOSObject().setItem(COSName.OUTLINES, outlines);
    }

    private static COSDictionary dict(COSName key, org.apache.pdfbox.cos.COSBase value) {
        COSDictionary d = new COSDictionary();
        d.setItem(key, value);
        return d;
    }

    private static COSArray array(org.apache.pdfbox.cos.COSBase... items) {
        COSArray a = new COSArray();
        for (org.apache.pdfbox.cos.COSBase b : items) a.add(b);
        return a;
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) s.append(String.format("%02X", b));
        return s.toString();
    }
}
