package dev.docapi.operations.redact;

import dev.docapi.core.J;
import dev.docapi.engines.pdfbox.AnnotationRedactor;
import dev.docapi.engines.pymupdf.PyMuPdf;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one redact job removes, decided from PyMuPDF's reading of the PDF ({@link PyMuPdf.Document}): per page the
 * boxes of the matches (one per line a match spans, around its characters) and of the areas; the metadata entries,
 * bookmarks and embedded files whose text matches (annotations and form fields: {@link AnnotationRedactor}).
 */
final class Redactions {
    /** How far a box around OCR'd words reaches past them, in parts of its height (measured on the corpus's Huckleberry Finn scan). */
    private static final double OCR_PAD_X = 0.3, OCR_PAD_Y = 0.1;
    private final List<PageRedactions> pages = new ArrayList<>();
    private final List<String> metadata = new ArrayList<>();
    private final List<Integer> bookmarks = new ArrayList<>();
    private final List<String> embeddedFiles = new ArrayList<>();
    private boolean xmp;
    private String tooSlow;
    private String areaOutside;

    /** One page's redactions: {@code count} matches and areas, drawn as {@code boxes}. */
    private record PageRedactions(int page, int count, List<double[]> boxes) {
    }

    private Redactions() {
    }

    /**
     * Matches {@code searches} everywhere {@code doc} holds text and adds {@code areas}, giving each page
     * {@code secondsPerPage} of matching time (the document's metadata, bookmarks and files one page's worth). On
     * {@code ocrPages} a match's box is widened by {@link #OCR_PAD_X} and {@link #OCR_PAD_Y} of its height: an OCR
     * word's box may end inside its last letter, which would stay visible in the picture.
     */
    static Redactions of(PyMuPdf.Document doc, Searches searches, List<RedactOperation.Area> areas, List<Integer> ocrPages, int secondsPerPage) {
        Redactions r = new Redactions();
        long perPage = secondsPerPage * 1_000_000_000L;
        for (int p = 1; p <= doc.pages().size(); p++) {
            PyMuPdf.Page page = doc.pages().get(p - 1);
            long deadline = System.nanoTime() + perPage;
            Searches.Found found = searches.find(page.text(), deadline);
            if (found.tooSlow() != null) return r.slow(found.tooSlow(), "on page " + p);
            Set<Searches.Match> matches = new LinkedHashSet<>(found.matches());
            List<double[]> boxes = new ArrayList<>();
            for (Searches.Match m : matches) {
                for (double[] b : lineBoxes(page, m)) boxes.add(ocrPages.contains(p) ? pad(b, page) : b);
            }
            int count = matches.size();
            for (RedactOperation.Area a : areas) {
                if (a.page() != p) continue;
                String outside = a.outside(page.width(), page.height());
                if (outside != null && r.areaOutside == null) r.areaOutside = outside;
                boxes.add(a.box());
                count++;
            }
            if (!boxes.isEmpty()) r.pages.add(new PageRedactions(p, count, boxes));
        }
        long deadline = System.nanoTime() + perPage;
        doc.metadata().forEach((key, value) -> {
            if (r.matches(searches, value, deadline, 0)) r.metadata.add(key);
        });
        r.xmp = r.matches(searches, doc.xmp(), deadline, 0);
        for (int i = 0; i < doc.bookmarks().size(); i++) if (r.matches(searches, doc.bookmarks().get(i), deadline, 0)) r.bookmarks.add(i);
        for (PyMuPdf.Named f : doc.embeddedFiles()) if (r.matches(searches, f.text(), deadline, 0)) r.embeddedFiles.add(f.name());
        return r;
    }

    /** True when a search matches {@code text}; records a search that ran out of time (page 0: the document's own). */
    private boolean matches(Searches searches, String text, long deadline, int page) {
        if (tooSlow != null || text == null || text.isEmpty()) return false;
        Searches.Found found = searches.find(text, deadline);
        if (found.tooSlow() != null) slow(found.tooSlow(), page == 0 ? "in the document's metadata, bookmarks or files" : "on page " + page);
        return !found.matches().isEmpty();
    }

    private Redactions slow(String search, String where) {
        tooSlow = search + " " + where;
        return this;
    }

    /**
     * The boxes around the characters of {@code m}, one per line it spans: the union of its non-blank characters'
     * boxes between line ends.
     */
    private static List<double[]> lineBoxes(PyMuPdf.Page page, Searches.Match m) {
        List<double[]> out = new ArrayList<>();
        double[] b = page.boxes();
        double[] cur = null;
        for (int i = m.start(); i < m.end(); i++) {
            char c = page.text().charAt(i);
            if (c == '\n') {
                if (cur != null) out.add(cur);
                cur = null;
                continue;
            }
            if (Character.isWhitespace(c) || b[4 * i + 2] <= b[4 * i] || b[4 * i + 3] <= b[4 * i + 1]) continue;
            if (cur == null) cur = new double[] {b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]};
            else {
                cur[0] = Math.min(cur[0], b[4 * i]);
                cur[1] = Math.min(cur[1], b[4 * i + 1]);
                cur[2] = Math.max(cur[2], b[4 * i + 2]);
                cur[3] = Math.max(cur[3], b[4 * i + 3]);
            }
        }
        if (cur != null) out.add(cur);
        return out;
    }

    /** {@code b} widened as OCR boxes are ({@link #of}), within the page. */
    private static double[] pad(double[] b, PyMuPdf.Page page) {
        double h = b[3] - b[1];
        return new double[] {Math.max(0, b[0] - OCR_PAD_X * h), Math.max(0, b[1] - OCR_PAD_Y * h),
                Math.min(page.width(), b[2] + OCR_PAD_X * h), Math.min(page.height(), b[3] + OCR_PAD_Y * h)};
    }

    /** The search and place that ran out of matching time, e.g. "pattern '(a+)+$' on page 3", or null. */
    String tooSlow() {
        return tooSlow;
    }

    /** Why an area lies outside its page, or null. */
    String areaOutside() {
        return areaOutside;
    }

    /** Matches and areas redacted on the pages. */
    int count() {
        return pages.stream().mapToInt(PageRedactions::count).sum();
    }

    /** Metadata entries, bookmarks and embedded files removed. */
    int removedCount() {
        return metadata.size() + (xmp ? 1 : 0) + bookmarks.size() + embeddedFiles.size();
    }

    /** The plan for {@link PyMuPdf#apply}, boxes filled with {@code fill}. */
    PyMuPdf.Plan plan(double[] fill, boolean sanitize) {
        if (sanitize) { // every Info entry and the XMP go, matching or not
            xmp = true;
            for (String key : List.of("title", "author", "subject", "keywords", "creator", "producer", "creationDate", "modDate")) {
                if (!metadata.contains(key)) metadata.add(key);
            }
        }
        return new PyMuPdf.Plan(fill, pages.stream().map(p -> new PyMuPdf.PagePlan(p.page(), p.boxes())).toList(),
                metadata, xmp, bookmarks, embeddedFiles);
    }

    /**
     * {@code output.data}: {@code redactions} (matches and areas), {@code pages} [{page, count, boxes: [{x, y, width,
     * height}]}] for the pages with any, {@code removed} (annotations, links, form_fields, metadata keys, xmp_metadata,
     * bookmarks, embedded_files) and {@code ocr_pages}, the pages searched in their OCR. Never the text redacted.
     */
    Map<String, Object> data(AnnotationRedactor.Removed annotations, List<Integer> ocrPages) {
        List<Object> perPage = pages.stream().filter(p -> p.count() > 0).map(p -> (Object) J.o("page", p.page(), "count", p.count(),
                "boxes", p.boxes().stream().map(b -> J.o("x", round(b[0]), "y", round(b[1]), "width", round(b[2] - b[0]), "height", round(b[3] - b[1]))).toList()))
                .toList();
        Map<String, Object> removed = J.o("annotations", java.util.Arrays.stream(annotations.annotations()).sum(),
                "links", java.util.Arrays.stream(annotations.links()).sum(), "form_fields", annotations.formFields(),
                "metadata", metadata, "xmp_metadata", xmp, "bookmarks", bookmarks.size(), "embedded_files", embeddedFiles.size());
        // the places the PDFBox pass cleaned (issue 35): counts by place, e.g. page_xmp, field_options, text_outside_page
        annotations.places().forEach((place, n) -> {
            if (removed.get(place) instanceof Integer before) removed.put(place, before + n);
            else if (place.equals("xmp")) removed.put("xmp_metadata", true);
            else removed.put(place, n);
        });
        return J.o("redactions", count(), "pages", perPage, "removed", removed, "ocr_pages", ocrPages);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
