package dev.docapi.operations.redact;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.engines.pdfbox.PdfTexts;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import dev.docapi.engines.qpdf.Qpdf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdfparser.PDFStreamParser;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Redact's verification (issue 35 item 3): after redaction, readers that did not redact search the output for every
 * match, in every place a reader could show or extract it. {@link #leftovers} names the places where one is left
 * (never the text), so the job fails instead of answering "redacted". The readers:
 * <ul>
 * <li>pdftotext and {@code mutool draw -F txt}: the text of each page as two viewers lay it out (annotations'
 * appearances included), matched with letter spacing normalised ({@link Searches});</li>
 * <li>{@code qpdf --qdf --object-streams=disable --decode-level=all}: every string object in the whole file, in
 * every stream that is not an image or a font program, plain, hexadecimal or UTF-16, with the pieces of a
 * {@code TJ} array joined; and the XMP and embedded-file streams as text;</li>
 * <li>PDFBox, object by object from the pages and the trailer: every string (annotations, fields, Info, outlines,
 * name trees, page labels, structure tree), every content stream's strings and marked-content property lists
 * ({@code /ActualText}) in pages, Form XObjects, patterns, Type 3 glyphs and appearance streams, and XMP, embedded
 * files and JavaScript streams as text in any of {@link PdfTexts#readings}.</li>
 * </ul>
 * A job with areas is checked by the words pdftotext and MuPDF read under them before and after ({@link #areaLeftovers}),
 * one with {@code sanitize} by what it removes ({@link #sanitizeLeftovers}).
 */
@Component
public class RedactionCheck {
    /** Streams are read up to this many bytes each: a larger embedded file is searched in its first 64 MiB. */
    private static final int MAX_STREAM = 64 << 20;
    /** The readers, as {@code output.data.verification.readers} names them. */
    static final List<String> READERS = List.of("pdftotext", "mutool", "qpdf", "pdfbox");
    /** At most this many places are named. */
    private static final int MAX_PLACES = 20;
    private static final Pattern QDF_OBJECT = Pattern.compile("(?m)^(\\d+) 0 obj\\b");
    private static final Pattern TEXT_STREAM = Pattern.compile("/Type\\s*/(?:Metadata|EmbeddedFile)\\b");
    private static final Pattern QDF_TYPE = Pattern.compile("/(?:Type|Subtype) */([A-Za-z0-9]+)");
    private final Poppler poppler;
    private final Qpdf qpdf;
    private final ProcessRunner runner;
    private final PdfBox pdfBox;

    private final boolean enabled;

    /**
     * @param enabled {@code docapi.redact.verify} ({@code DOCAPI_REDACT_VERIFY}, default true): an operator's switch,
     *                not an option, so that {@code bench/redact-verify.sh} can time redact without its check; off, a
     *                redaction is delivered unchecked
     */
    public RedactionCheck(Poppler poppler, Qpdf qpdf, ProcessRunner runner, PdfBox pdfBox, @Value("${docapi.redact.verify:true}") boolean enabled) {
        this.enabled = enabled;
        this.poppler = poppler;
        this.qpdf = qpdf;
        this.runner = runner;
        this.pdfBox = pdfBox;
    }

    /** False when the operator turned the check off ({@code DOCAPI_REDACT_VERIFY=false}). */
    boolean enabled() {
        return enabled;
    }

    /** A search ran out of matching time during the check; its message names the search. */
    static final class TooSlow extends RuntimeException {
        TooSlow(String search) {
            super(search, null, false, false);
        }
    }

    /**
     * The places of {@code pdf} where {@code searches} still match, e.g. "page 2 text (pdftotext)", "page 1 /Annots[0]
     * /AP /N (PDFBox)", "a /Metadata stream (qpdf)"; empty when none.
     *
     * @param workDir  a writable job folder
     * @param deadline when matching must stop ({@link System#nanoTime()})
     * @throws TooSlow       when a search ran past {@code deadline}
     * @throws EngineFailure when a reader cannot read the file
     */
    List<String> leftovers(Path pdf, Searches searches, Path workDir, int pages, long deadline) throws EngineFailure, InterruptedException {
        Finds finds = new Finds(searches, deadline);
        List<String> texts = poppler.pageTexts(pdf);
        for (int i = 0; i < texts.size(); i++) finds.check("page " + (i + 1) + " text (pdftotext)", texts.get(i));
        mutool(pdf, workDir, pages, finds);
        qdf(pdf, workDir, finds);
        try (PDDocument doc = pdfBox.open(pdf, null, workDir)) {
            new Walk(finds).document(doc);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the redacted PDF could not be read back for its check", e);
        }
        return List.copyOf(finds.places);
    }

    /**
     * The pages where a word that lay inside one of {@code areas} in {@code before} is still read inside it in
     * {@code after}, e.g. "page 4 inside an area (pdftotext)": by pdftotext's and MuPDF's words (a word is inside when
     * its box's centre is; both give boxes in points from the page's top-left as seen, like the areas). Comparing with
     * {@code before} leaves out what the redaction may add or leave as a piece of a word it cut.
     *
     * @throws EngineFailure when a reader cannot read a file
     */
    List<String> areaLeftovers(Path before, Path after, List<RedactOperation.Area> areas, Path workDir) throws EngineFailure, InterruptedException {
        Set<String> places = new LinkedHashSet<>();
        for (String reader : List.of("pdftotext", "mutool")) {
            Map<Integer, List<String>> was = wordsIn(reader, before, areas, workDir), is = wordsIn(reader, after, areas, workDir);
            for (var page : is.entrySet()) {
                List<String> left = new ArrayList<>(page.getValue());
                left.retainAll(was.getOrDefault(page.getKey(), List.of()));
                if (!left.isEmpty() && places.size() < MAX_PLACES) places.add("page " + page.getKey() + " inside an area (" + reader + ")");
            }
        }
        return List.copyOf(places);
    }

    private static final Pattern BBOX_PAGE = Pattern.compile("<page\\b");
    private static final Pattern BBOX_WORD = Pattern.compile("<word xMin=\"([-\\d.]+)\" yMin=\"([-\\d.]+)\" xMax=\"([-\\d.]+)\" yMax=\"([-\\d.]+)\">([^<]*)</word>");
    private static final Pattern STEXT = Pattern.compile("<page id=\"page(\\d+)\"|<line\\b|<char quad=\"([^\"]*)\"[^>]*? c=\"([^\"]*)\"");

    /** The words {@code reader} reads inside {@code areas} on their pages, by page. */
    private Map<Integer, List<String>> wordsIn(String reader, Path pdf, List<RedactOperation.Area> all, Path workDir)
            throws EngineFailure, InterruptedException {
        java.util.TreeMap<Integer, List<RedactOperation.Area>> areas = new java.util.TreeMap<>();
        for (RedactOperation.Area a : all) areas.computeIfAbsent(a.page(), p -> new ArrayList<>()).add(a);
        java.util.NavigableSet<Integer> pages = areas.navigableKeySet();
        Map<Integer, List<String>> out = new java.util.HashMap<>();
        try {
            Path dir = Files.createTempDirectory(workDir, reader + "-words-");
            Path file = dir.resolve("words.xml");
            Duration timeout = Duration.ofMinutes(2).plusSeconds(2L * pages.size());
            if (reader.equals("pdftotext")) {
                runner.run(List.of("pdftotext", "-bbox", "-f", "" + pages.first(), "-l", "" + pages.last(), pdf.toString(), file.toString()),
                        timeout, Sandbox.Access.of(dir, pdf), Collections.emptyMap(),
                        ProcessRunner.Expect.success(0).orFail(EngineFailure.Kind.FAILED, "pdftotext could not read the words of the PDF"));
                String xml = Files.readString(file, StandardCharsets.UTF_8);
                Matcher p = BBOX_PAGE.matcher(xml);
                List<Integer> starts = new ArrayList<>();
                while (p.find()) starts.add(p.start());
                for (int i = 0; i < starts.size(); i++) {
                    int page = pages.first() + i;
                    Matcher w = BBOX_WORD.matcher(xml.substring(starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : xml.length()));
                    while (w.find()) {
                        double[] box = {Double.parseDouble(w.group(1)), Double.parseDouble(w.group(2)), Double.parseDouble(w.group(3)), Double.parseDouble(w.group(4))};
                        add(out, page, w.group(5), box, areas);
                    }
                }
            } else {
                String list = String.join(",", pages.stream().map(String::valueOf).toList());
                runner.run(List.of("mutool", "draw", "-q", "-F", "stext", "-o", file.toString(), pdf.toString(), list),
                        timeout, Sandbox.Access.of(dir, pdf), Collections.emptyMap(),
                        ProcessRunner.Expect.success(0).orFail(EngineFailure.Kind.FAILED, "mutool could not read the words of the PDF"));
                Matcher m = STEXT.matcher(Files.readString(file, StandardCharsets.UTF_8));
                int page = 0;
                StringBuilder word = new StringBuilder();
                double[] box = null;
                while (m.find()) {
                    boolean ends = m.group(1) != null || m.group(2) == null || m.group(3).isBlank();
                    if (ends && box != null) add(out, page, word.toString(), box, areas);
                    if (ends) {
                        word.setLength(0);
                        box = null;
                    }
                    if (m.group(1) != null) page = Integer.parseInt(m.group(1));
                    if (ends) continue;
                    word.append(m.group(3));
                    String[] q = m.group(2).trim().split("\\s+");
                    for (int k = 0; k + 1 < q.length; k += 2) {
                        double x = Double.parseDouble(q[k]), y = Double.parseDouble(q[k + 1]);
                        box = box == null ? new double[] {x, y, x, y}
                                : new double[] {Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)};
                    }
                }
                if (box != null) add(out, page, word.toString(), box, areas);
            }
        } catch (IOException | NumberFormatException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the words of the redacted PDF could not be read", e);
        }
        return out;
    }

    /** Adds {@code word} to its page's list when its box's centre lies in an area of that page. */
    private static void add(Map<Integer, List<String>> out, int page, String word, double[] box, Map<Integer, List<RedactOperation.Area>> areas) {
        double cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2;
        for (RedactOperation.Area a : areas.getOrDefault(page, List.of())) {
            double[] b = a.box();
            if (cx >= b[0] && cx <= b[2] && cy >= b[1] && cy <= b[3]) {
                out.computeIfAbsent(page, p -> new ArrayList<>()).add(word);
                return;
            }
        }
    }

    /** Names in an object's dictionary that mean a script, an embedded file or a file attachment. */
    private static final Pattern SANITIZED_NAMES = Pattern.compile("/(JS|JavaScript|EmbeddedFiles?|FileAttachment)\\b");

    /**
     * What {@code sanitize} removes and a reader still finds in {@code pdf}, e.g. "object 12 of the file: /JS (qpdf
     * --qdf)": in qpdf's rewrite, every object's dictionary naming a script, an embedded file or a file attachment; by
     * PDFBox, the XMP and piece dictionaries of the catalog and the pages, annotations with rich text or hidden, and
     * form fields with defaults. Empty when none.
     *
     * @throws EngineFailure when a reader cannot read the file
     */
    List<String> sanitizeLeftovers(Path pdf, Path workDir) throws EngineFailure, InterruptedException {
        Set<String> places = new LinkedHashSet<>();
        List<QdfObject> objects = new ArrayList<>();
        qdfObjects(pdf, workDir, objects);
        for (QdfObject o : objects) {
            Matcher m = SANITIZED_NAMES.matcher(o.dict());
            if (m.find() && places.size() < MAX_PLACES) places.add(o.place().replace(" (qpdf --qdf)", ": /" + m.group(1) + " (qpdf --qdf)"));
        }
        try (PDDocument doc = pdfBox.open(pdf, null, workDir)) {
            COSDictionary catalog = doc.getDocumentCatalog().getCOSObject();
            for (COSName key : List.of(COSName.METADATA, COSName.PIECE_INFO, COSName.AA)) {
                if (catalog.containsKey(key)) places.add("the catalog's /" + key.getName() + " (PDFBox)");
            }
            for (int i = 0; i < doc.getNumberOfPages(); i++) {
                var page = doc.getPage(i);
                for (COSName key : List.of(COSName.METADATA, COSName.PIECE_INFO, COSName.AA)) {
                    if (page.getCOSObject().containsKey(key)) places.add("page " + (i + 1) + " /" + key.getName() + " (PDFBox)");
                }
                for (var a : page.getAnnotations()) {
                    // a hidden widget stays (its field would lose its place): sanitize removes other hidden annotations
                    boolean hidden = (a.isHidden() || a.isNoView()) && !(a instanceof org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationWidget);
                    if (a.getCOSObject().containsKey(COSName.RC) || hidden) {
                        places.add("page " + (i + 1) + " an annotation with rich text or hidden (PDFBox)");
                    }
                }
            }
            var form = doc.getDocumentCatalog().getAcroForm(null);
            if (form != null) {
                for (var f : form.getFieldTree()) if (f.getCOSObject().containsKey(COSName.DV)) places.add("a form field's /DV (PDFBox)");
            }
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the redacted PDF could not be read back for its check", e);
        }
        return places.stream().limit(MAX_PLACES).toList();
    }

    /** The places found so far and the search of each text. */
    private static final class Finds {
        final Set<String> places = new LinkedHashSet<>();
        final Searches searches;
        final long deadline;

        Finds(Searches searches, long deadline) {
            this.searches = searches;
            this.deadline = deadline;
        }

        void check(String place, String text) {
            if (text == null || text.isEmpty() || places.size() >= MAX_PLACES || places.contains(place)) return;
            Searches.Found found = searches.find(text, deadline);
            if (found.tooSlow() != null) throw new TooSlow(found.tooSlow());
            if (!found.matches().isEmpty()) places.add(place);
        }

        void check(String place, List<String> readings) {
            for (String r : readings) check(place, r);
        }
    }

    /** Each page's text as MuPDF lays it out, one file per page. */
    private void mutool(Path pdf, Path workDir, int pages, Finds finds) throws EngineFailure, InterruptedException {
        try {
            Path dir = Files.createTempDirectory(workDir, "mutool-");
            runner.run(List.of("mutool", "draw", "-q", "-F", "txt", "-o", dir.resolve("page-%d.txt").toString(), pdf.toString()),
                    Duration.ofMinutes(2).plusSeconds(2L * Math.max(1, pages)), Sandbox.Access.of(dir, pdf), Collections.emptyMap(),
                    ProcessRunner.Expect.success(0).orFail(EngineFailure.Kind.FAILED, "mutool could not read the redacted PDF"));
            for (int p = 1; p <= pages; p++) {
                Path page = dir.resolve("page-" + p + ".txt");
                if (Files.exists(page)) finds.check("page " + p + " text (mutool)", Files.readString(page, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "mutool's text of the redacted PDF could not be read", e);
        }
    }

    /** One object of qpdf's uncompressed rewrite: its text from "N 0 obj" on, its dictionary part, and where it starts. */
    private record QdfObject(String place, String object, String dict, int start, int stream) {
    }

    /** qpdf's uncompressed rewrite of {@code pdf} (its bytes), object by object into {@code objects}. */
    private byte[] qdfObjects(Path pdf, Path workDir, List<QdfObject> objects) throws EngineFailure, InterruptedException {
        byte[] bytes;
        try {
            Path dir = Files.createTempDirectory(workDir, "qdf-");
            Path qdf = dir.resolve("check.qdf");
            qpdf.qdf(pdf, qdf);
            bytes = Files.readAllBytes(qdf);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "qpdf's rewrite of the redacted PDF could not be read", e);
        }
        String file = new String(bytes, StandardCharsets.ISO_8859_1);
        Matcher m = QDF_OBJECT.matcher(file);
        List<int[]> starts = new ArrayList<>();
        while (m.find()) starts.add(new int[] {m.start(), Integer.parseInt(m.group(1))});
        for (int i = 0; i < starts.size(); i++) {
            int start = starts.get(i)[0], end = i + 1 < starts.size() ? starts.get(i + 1)[0] : file.length();
            String object = file.substring(start, end);
            int stream = object.indexOf("\nstream\n");
            String dict = stream < 0 ? object : object.substring(0, stream);
            Matcher type = QDF_TYPE.matcher(dict);
            String place = "object " + starts.get(i)[1] + (type.find() ? " /" + type.group(1) : "") + " of the file (qpdf --qdf)";
            objects.add(new QdfObject(place, object, dict, start, stream));
        }
        return bytes;
    }

    /** Every string of qpdf's uncompressed rewrite, object by object; metadata and embedded files as text. */
    private void qdf(Path pdf, Path workDir, Finds finds) throws EngineFailure, InterruptedException {
        List<QdfObject> objects = new ArrayList<>();
        byte[] bytes = qdfObjects(pdf, workDir, objects);
        String file = new String(bytes, StandardCharsets.ISO_8859_1);
        for (int i = 0; i < objects.size(); i++) {
            QdfObject o = objects.get(i);
            String object = o.object(), dict = o.dict(), place = o.place();
            int start = o.start(), stream = o.stream(), end = i + 1 < objects.size() ? objects.get(i + 1).start() : file.length();
            boolean binary = dict.contains("/Image") || dict.contains("/Length1") || dict.contains("/Length2")
                    || dict.contains("/Type1C") || dict.contains("/CIDFontType0C") || dict.contains("/OpenType")
                    || (dict.contains("/N ") && dict.contains("/Alternate"));
            strings(binary ? dict : object, place, finds);
            if (stream >= 0 && TEXT_STREAM.matcher(dict).find()) {
                int data = start + stream + "\nstream\n".length();
                int stop = Math.max(data, file.lastIndexOf("endstream", end));
                finds.check(place, PdfTexts.readings(java.util.Arrays.copyOfRange(bytes, data, stop)));
            }
        }
    }

    /**
     * The string objects of {@code text} (literal with their escapes, or hexadecimal), each piece of a run separated only
     * by numbers (a {@code TJ} array's kerning) joined into one, then all of them joined with spaces (letters drawn one
     * {@code Tj} each).
     */
    private static void strings(String text, String place, Finds finds) {
        List<byte[]> runs = new ArrayList<>();
        ByteArrayOutputStream run = new ByteArrayOutputStream();
        int lastEnd = -1;
        int i = 0, n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '%' && (i == 0 || text.charAt(i - 1) == '\n')) { // a QDF comment line
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
                continue;
            }
            if (c != '(' && !(c == '<' && i + 1 < n && text.charAt(i + 1) != '<')) {
                if (c == '<') i++; // a dictionary's "<<"
                i++;
                continue;
            }
            ByteArrayOutputStream s = new ByteArrayOutputStream();
            int end = c == '(' ? literal(text, i, s) : hex(text, i, s);
            if (lastEnd >= 0 && !text.substring(lastEnd, i).matches("[\\s0-9.+\\-]{0,40}")) {
                runs.add(run.toByteArray());
                run.reset();
            }
            run.writeBytes(s.toByteArray());
            lastEnd = end;
            i = end;
        }
        if (run.size() > 0) runs.add(run.toByteArray());
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] r : runs) {
            finds.check(place, PdfTexts.readings(r));
            if (all.size() > 0) all.write(' ');
            all.writeBytes(r);
        }
        if (runs.size() > 1) finds.check(place, PdfTexts.readings(all.toByteArray()));
    }

    /** Reads the literal string at {@code text[start] == '('} into {@code out}; returns the index after it. */
    private static int literal(String text, int start, ByteArrayOutputStream out) {
        int depth = 0, i = start, n = text.length();
        while (i < n) {
            char c = text.charAt(i++);
            if (c == '\\' && i < n) {
                char e = text.charAt(i++);
                switch (e) {
                    case 'n' -> out.write('\n');
                    case 'r' -> out.write('\r');
                    case 't' -> out.write('\t');
                    case 'b' -> out.write('\b');
                    case 'f' -> out.write('\f');
                    case '\r', '\n' -> {
                        if (e == '\r' && i < n && text.charAt(i) == '\n') i++;
                    }
                    default -> {
                        if (e >= '0' && e <= '7') {
                            int v = e - '0';
                            for (int k = 0; k < 2 && i < n && text.charAt(i) >= '0' && text.charAt(i) <= '7'; k++) v = v * 8 + text.charAt(i++) - '0';
                            out.write(v & 0xFF);
                        } else out.write(e);
                    }
                }
            } else if (c == '(') {
                if (depth++ > 0) out.write(c);
            } else if (c == ')') {
                if (--depth == 0) return i;
                out.write(c);
            } else out.write(c);
        }
        return n;
    }

    /** Reads the hexadecimal string at {@code text[start] == '<'} into {@code out}; returns the index after it. */
    private static int hex(String text, int start, ByteArrayOutputStream out) {
        int i = start + 1, n = text.length(), high = -1;
        while (i < n) {
            char c = text.charAt(i++);
            if (c == '>') break;
            int d = Character.digit(c, 16);
            if (d < 0) {
                if (Character.isWhitespace(c)) continue;
                return i; // not a hexadecimal string after all
            }
            if (high < 0) high = d;
            else {
                out.write(high << 4 | d);
                high = -1;
            }
        }
        if (high >= 0) out.write(high << 4);
        return i;
    }

    /** PDFBox's walk over every object reachable from the pages and the trailer. */
    private static final class Walk {
        private record Item(COSBase value, String path, String key) {
        }

        private final Finds finds;
        private final Set<COSBase> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Deque<Item> stack = new ArrayDeque<>();

        Walk(Finds finds) {
            this.finds = finds;
        }

        void document(PDDocument doc) {
            for (int i = 0; i < doc.getNumberOfPages(); i++) {
                stack.push(new Item(doc.getPage(i).getCOSObject(), "page " + (i + 1), null));
                drain();
            }
            stack.push(new Item(doc.getDocument().getTrailer(), "document", null));
            drain();
        }

        private void drain() {
            while (!stack.isEmpty() && finds.places.size() < MAX_PLACES) {
                Item item = stack.pop();
                COSBase v = item.value() instanceof COSObject o ? o.getObject() : item.value();
                switch (v) {
                    case COSString s -> finds.check(item.path() + " (PDFBox)", PdfTexts.readings(s));
                    case COSArray a -> {
                        if (!seen.add(a)) continue;
                        for (int i = a.size() - 1; i >= 0; i--) stack.push(new Item(a.get(i), item.path() + "[" + i + "]", null));
                    }
                    case COSDictionary d -> {
                        if (!seen.add(d)) continue;
                        if (d instanceof COSStream s) stream(s, item.path(), item.key());
                        for (Map.Entry<COSName, COSBase> e : d.entrySet()) {
                            String key = e.getKey().getName();
                            stack.push(new Item(e.getValue(), item.path() + " /" + key, key));
                        }
                    }
                    case null, default -> {
                    }
                }
            }
        }

        private void stream(COSStream s, String path, String key) {
            PdfTexts.Kind kind = PdfTexts.kind(s, key);
            if (kind == PdfTexts.Kind.BINARY) return;
            byte[] data;
            try (InputStream in = s.createInputStream()) {
                data = in.readNBytes(MAX_STREAM);
            } catch (IOException e) {
                return; // undecodable: qpdf's reading of the raw file still searches it
            }
            String place = path + " (PDFBox)";
            if (kind == PdfTexts.Kind.TEXT) {
                finds.check(place, PdfTexts.readings(data));
                return;
            }
            List<Object> tokens;
            try {
                tokens = new PDFStreamParser(data).parse();
            } catch (IOException | RuntimeException e) {
                finds.check(place, PdfTexts.readings(data));
                return;
            }
            List<byte[]> pieces = new ArrayList<>();
            for (Object t : tokens) {
                switch (t) {
                    case COSString str -> pieces.add(str.getBytes());
                    case COSArray arr -> {
                        ByteArrayOutputStream joined = new ByteArrayOutputStream();
                        for (COSBase b : arr) if (b instanceof COSString str) joined.writeBytes(str.getBytes());
                        if (joined.size() > 0) pieces.add(joined.toByteArray());
                    }
                    case COSDictionary d -> stack.push(new Item(d, path + " (marked content)", null));
                    case Operator op when op.getName().equals("ET") -> flush(pieces, place);
                    default -> {
                    }
                }
            }
            flush(pieces, place);
        }

        /** Each piece of a text object, then all of them joined with spaces. */
        private void flush(List<byte[]> pieces, String place) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (byte[] p : pieces) {
                finds.check(place, PdfTexts.readings(p));
                if (all.size() > 0) all.write(' ');
                all.writeBytes(p);
            }
            if (pieces.size() > 1) finds.check(place, PdfTexts.readings(all.toByteArray()));
            pieces.clear();
        }
    }
}
