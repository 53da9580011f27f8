package dev.docapi.document;

import java.awt.image.Raster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.rendering.PDFRenderer;

/**
 * The type size and weight of OCR'd lines, measured on the page's image: the text layer OCR puts over a scan gives
 * its lines about one font size (Tesseract's estimate: a 12 pt bold title read 10 pt beside 11 pt body text) and no
 * weight, so a scan's headings did not stand out. A segment's size comes from its x-height (the rows from the mean
 * line to the baseline, {@link #band}), measured in strips two line heights wide (level however the scan is skewed)
 * and taken as their median; its weight from its stems: the mean run of ink across the band's middle, as a share of
 * the x-height, over {@value #BOLD} times the document's usual share is bold (a bold face's stems are about 1.5 times
 * as wide). A pixel of x-height either way is the measure's own error, so a line that close to the body's size is at
 * the body's size: the lines of one paragraph stay one size. A line that cannot be measured (capitals or figures
 * alone, a box over two skewed lines) keeps the OCR's size, scaled to the measured ones; a document with fewer than
 * {@value #MIN_MEASURED} lines measured keeps the OCR's sizes.
 */
final class ScanType {
    /** Resolution the page is rendered at: a 10 pt x-height band is 14 pixels, so one pixel is 7 %. */
    private static final float DPI = 200;
    /** A page rendered larger than this many pixels is rendered at a lower resolution (a hostile page size). */
    private static final long MAX_PIXELS = 40_000_000L;
    /** The x-height of the fonts scans are set in, as a share of the type size (Times 0.45, Arial 0.52). */
    private static final float X_HEIGHT = 0.48f;
    /** A band of fewer rows is too small to measure: the OCR's own size stays. */
    private static final int MIN_BAND = 5;
    /** A line measured this many times the body's size or more is set larger; less is the measure's spread. */
    private static final float LARGER = 1.3f;
    /** A line the OCR's size and the measure both find this many times the body's size or more is set larger. */
    private static final float AGREED = 1.15f;
    /**
     * The share of its measured lines' OCR size under which the OCR's size of a scan's whole text (tables too) makes
     * the tables' text its body.
     */
    private static final float TABLES_BODY = 0.87f;
    /** Sizes over the body's this near one another (times the smallest) are one style's. */
    private static final float STYLE_SPREAD = 1.2f;
    /** Lines measured, fewer of which tell nothing of the body. */
    private static final int MIN_MEASURED = 5;
    /** Stems this many times the document's usual share of the x-height are bold. */
    private static final float BOLD = 1.4f;

    private ScanType() {
    }

    /**
     * Replaces the size and weight of the segments of the OCR'd pages with those measured on each page's image.
     *
     * @param pages      the pages read, whose segment lists are changed in place
     * @param ocrPages   numbers (from 1) of the pages whose text came from OCR
     * @param tableSizes the sizes of the ruled tables' glyphs (points, and how many), made the measured ones' when every
     *                   page is a scan
     * @throws IOException when a page cannot be rendered, or the thread is interrupted (InterruptedIOException)
     */
    static void measure(PDDocument doc, List<PageReader.PageText> pages, Set<Integer> ocrPages, Map<Float, Integer> tableSizes)
            throws IOException {
        if (ocrPages.isEmpty()) return;
        PDFRenderer renderer = new PDFRenderer(doc);
        Map<PageReader.Segment, float[]> measured = new HashMap<>(); // size (pt), stem share, points a pixel, OCR's size
        for (PageReader.PageText page : pages) {
            if (!ocrPages.contains(page.number()) || page.segments().isEmpty()) continue;
            // work past its job's deadline is interrupted and abandoned: it stops at the next page
            if (Thread.currentThread().isInterrupted()) throw new java.io.InterruptedIOException("interrupted while measuring a scan's lines");
            PageImage image = PageImage.grey(renderer, doc, page.number(), DPI, MAX_PIXELS);
            for (PageReader.Segment s : page.segments()) {
                float[] m = measure(image.raster(), s, image.scale());
                if (m != null) measured.put(s, m);
            }
        }
        // too few lines measured to know the body's size and weight: the OCR's sizes stay
        if (measured.size() < MIN_MEASURED) return;
        float body = median(measured, m -> m[0]), usual = median(measured, m -> m[1]), ocrBody = Math.max(1, median(measured, m -> m[3]));
        boolean scans = pages.stream().allMatch(p -> ocrPages.contains(p.number()) || p.segments().isEmpty());
        float ocrAll = scans ? ocrBody(pages, tableSizes) : ocrBody;
        if (ocrAll < TABLES_BODY * ocrBody) {
            // a scan that is mostly ruled tables: its lines outside them are its headings and captions, and its body
            // is the tables' text, which is not measured: the lines at the OCR's size of it give the measure
            Map<PageReader.Segment, float[]> atBody = new HashMap<>();
            measured.forEach((s, m) -> {
                if (Math.abs(m[3] - ocrAll) <= 0.5f) atBody.put(s, m);
            });
            body = atBody.isEmpty() ? ocrAll * body / ocrBody : median(atBody, m -> m[0]);
            ocrBody = ocrAll;
        }
        // the OCR's own sizes, for the lines too small or too skewed to measure, scaled to the measured ones
        float scale = body / ocrBody;
        if (scans) {
            // the tables' glyphs, sized by the OCR, at the lines' scale: the document's body size counts them
            Map<Float, Integer> scaled = new HashMap<>();
            for (Map.Entry<Float, Integer> e : tableSizes.entrySet()) scaled.merge(atBody(e.getKey() * scale, body), e.getValue(), Integer::sum);
            tableSizes.clear();
            tableSizes.putAll(scaled);
        }
        for (PageReader.PageText page : pages) {
            if (!ocrPages.contains(page.number())) continue;
            List<PageReader.Segment> segments = page.segments();
            float[] blockSizes = blockSizes(segments, measured);
            for (int i = 0; i < segments.size(); i++) {
                PageReader.Segment s = segments.get(i);
                float[] m = measured.get(s);
                float size = !Float.isNaN(blockSizes[i]) ? blockSizes[i] : m == null ? s.size() * scale : m[0];
                float ocrRatio = s.size() / ocrBody;
                // from 25 % under to 30 % over the body's size a line is at it: a real scan's x-heights of one size
                // spread that far (a pixel or two of a coarse, noisy image), lines a pixel apart would fall either
                // side of any narrower bound (a paragraph cut in two), and a bold heading at body size stands out by
                // its weight; unless the OCR's size, a second measure, finds it larger too (a 13 pt heading over
                // 11 pt text); a smaller line keeps the OCR's size, scaled, which its paragraph's lines share
                boolean larger = size >= AGREED * body && ocrRatio >= AGREED;
                if (size >= 0.75f * body && size < LARGER * body && !larger) size = body;
                else if (size < body) size = s.size() * scale;
                boolean bold = m != null && m[1] > BOLD * usual;
                segments.set(i, new PageReader.Segment(s.text(), s.x(), s.top(), s.right(), s.bottom(), Math.round(size * 2) / 2f,
                        bold, s.italic(), s.mono(), s.chars(), s.firstWord(), bold ? 0 : Structure.letters(s.text()), s.raisedMark()));
            }
        }
        oneSizeAStyle(pages, ocrPages, body);
    }

    /**
     * The sizes over the body's, each as its style's: sizes in a chain each within {@value #STYLE_SPREAD} times the
     * chain's smallest take the chain's median (by characters). A scan's headings of one style measure a size or two
     * apart (10.5 and 11.5 pt) and would take as many heading levels.
     */
    private static void oneSizeAStyle(List<PageReader.PageText> pages, Set<Integer> ocrPages, float body) {
        TreeMap<Float, Long> larger = new TreeMap<>();
        for (PageReader.PageText page : pages) {
            if (!ocrPages.contains(page.number())) continue;
            for (PageReader.Segment s : page.segments()) if (s.size() > body) larger.merge(s.size(), (long) s.chars(), Long::sum);
        }
        Map<Float, Float> style = new HashMap<>();
        Float first = null;
        for (Float size : larger.keySet()) {
            if (first == null) first = size;
            Float next = larger.higherKey(size);
            if (next != null && next <= STYLE_SPREAD * first) continue;
            // the chain from first to size ends here
            SortedMap<Float, Long> chain = larger.subMap(first, true, size, true);
            float median = medianSize(chain);
            for (Float member : chain.keySet()) style.put(member, median);
            first = null;
        }
        for (PageReader.PageText page : pages) {
            if (!ocrPages.contains(page.number())) continue;
            List<PageReader.Segment> segments = page.segments();
            for (int i = 0; i < segments.size(); i++) {
                PageReader.Segment s = segments.get(i);
                Float size = style.get(s.size());
                if (size != null && size != s.size()) {
                    segments.set(i, new PageReader.Segment(s.text(), s.x(), s.top(), s.right(), s.bottom(), size, s.bold(), s.italic(), s.mono(), s.chars(), s.firstWord(),
                            s.plainLetters(), s.raisedMark()));
                }
            }
        }
    }

    /** The median of sizes counted by characters (the size at which half of them are reached), or 1 for none. */
    private static float medianSize(SortedMap<Float, Long> chars) {
        long half = chars.values().stream().mapToLong(Long::longValue).sum() / 2, seen = 0;
        for (Map.Entry<Float, Long> e : chars.entrySet()) {
            seen += e.getValue();
            if (seen > half) return e.getKey();
        }
        return 1;
    }

    /**
     * Each segment's size as its block's: the median measure of the run of lines it stands in, one under the other a
     * line's gap apart at the OCR's one size (Tesseract sizes a block's lines alike), or NaN where none of them was
     * measured. A real scan's line measures spread 20-30 %, so a block set about 1.3 times the body's size (a
     * brochure's bullet list) had lines either side of {@link #LARGER}: an item's wrapped lines at two sizes, cut
     * apart, one of them a heading.
     */
    private static float[] blockSizes(List<PageReader.Segment> segments, Map<PageReader.Segment, float[]> measured) {
        float[] sizes = new float[segments.size()];
        java.util.Arrays.fill(sizes, Float.NaN);
        int start = 0;
        for (int i = 1; i <= segments.size(); i++) {
            if (i < segments.size() && nextLine(segments.get(i - 1), segments.get(i))) continue;
            Map<PageReader.Segment, float[]> block = new HashMap<>();
            for (PageReader.Segment s : segments.subList(start, i)) if (measured.containsKey(s)) block.put(s, measured.get(s));
            if (!block.isEmpty()) java.util.Arrays.fill(sizes, start, i, median(block, m -> m[0]));
            start = i;
        }
        return sizes;
    }

    /** Whether {@code b} is the line after {@code a} in one block: at its OCR size, under it less than a line apart, overlapping it. */
    private static boolean nextLine(PageReader.Segment a, PageReader.Segment b) {
        return b.size() == a.size() && b.top() > a.top() + 0.5f * a.height() && b.top() - a.bottom() < 0.8f * a.height()
                && Math.min(a.right(), b.right()) > Math.max(a.x(), b.x());
    }

    /** The OCR's size of most of the scans' text: the weighted median of its lines' and its tables' glyphs' sizes. */
    private static float ocrBody(List<PageReader.PageText> pages, Map<Float, Integer> tableSizes) {
        TreeMap<Float, Long> counts = new TreeMap<>();
        for (PageReader.PageText page : pages) for (PageReader.Segment s : page.segments()) counts.merge(s.size(), (long) s.chars(), Long::sum);
        tableSizes.forEach((size, n) -> counts.merge(size, (long) n, Long::sum));
        return Math.max(1, medianSize(counts));
    }

    /** A size within the measure's spread of the body's ({@link #LARGER}) as the body's, else as it is, to the half point. */
    private static float atBody(float size, float body) {
        return Math.round((size >= 0.75f * body && size < LARGER * body ? body : size) * 2) / 2f;
    }

    /** The median of a value of the measured segments, each counted once per character (body text outweighs headings). */
    private static float median(Map<PageReader.Segment, float[]> measured, java.util.function.ToDoubleFunction<float[]> value) {
        List<float[]> weighted = new ArrayList<>(); // value, characters
        measured.forEach((s, m) -> weighted.add(new float[] {(float) value.applyAsDouble(m), s.chars()}));
        weighted.sort((a, b) -> Float.compare(a[0], b[0]));
        float half = (float) weighted.stream().mapToDouble(w -> w[1]).sum() / 2, seen = 0;
        for (float[] w : weighted) {
            seen += w[1];
            if (seen >= half) return w[0];
        }
        return weighted.getLast()[0];
    }

    /**
     * The segment's type size (points), stem share, points a pixel and the OCR's size, or null when its box holds
     * too little ink to tell, no lower-case letter, or no band apart (a skewed line).
     *
     * @param scale pixels a point
     */
    private static float[] measure(Raster raster, PageReader.Segment s, float scale) {
        // only a line with lower-case letters has an x-height to measure (capitals and figures have none)
        if (s.text().codePoints().noneMatch(Character::isLowerCase)) return null;
        float pad = 0.25f * s.height();
        int x0 = clamp(s.x() * scale, raster.getWidth()), x1 = clamp(s.right() * scale, raster.getWidth());
        int y0 = clamp((s.top() - pad) * scale, raster.getHeight()), y1 = clamp((s.bottom() + pad) * scale, raster.getHeight());
        if (y1 - y0 < MIN_BAND) return null;
        // measured in strips about two line heights wide, each level enough however the scan is skewed
        int strip = Math.max(8, Math.round(2 * s.height() * scale));
        List<Integer> bands = new ArrayList<>();
        long runs = 0, runLength = 0;
        int[] row = new int[strip];
        for (int x = x0; x + strip / 2 <= x1; x += strip) {
            int end = Math.min(x1, x + strip);
            int[] band = band(raster, x, end, y0, y1);
            if (band == null) continue;
            bands.add(band[1]);
            // stems across the middle half of the band, clear of serifs and of the bowls' tops and bottoms
            for (int y = band[0] + band[1] / 4; y < band[0] + band[1] - band[1] / 4; y++) {
                raster.getSamples(x, y, end - x, 1, 0, row);
                int run = 0;
                for (int k = 0; k < end - x; k++) {
                    if (row[k] < 128) {
                        run++;
                    } else if (run > 0) {
                        runs++;
                        runLength += run;
                        run = 0;
                    }
                }
                if (run > 0) {
                    runs++;
                    runLength += run;
                }
            }
        }
        if (bands.isEmpty() || runs == 0) return null;
        bands.sort(null);
        float band = bands.get(bands.size() / 2);
        // an x-height is about half the height of the OCR's box of its line (0.55 in the scans measured); far from it,
        // the box held more than one line (a skewed scan's) or the strips found no common band
        if (band < 0.4f * s.height() * scale || band > 0.7f * s.height() * scale) return null;
        return new float[] {band / scale / X_HEIGHT, (float) runLength / runs / band, 1 / scale, s.size()};
    }

    /**
     * The x-height band of the ink in columns [x0, x1) and rows [y0, y1) of the image: its first row and its height in
     * rows, or null when there is too little ink or no band apart. The band runs from the mean line, the row where the
     * ink grows most going down (from ascenders alone to every letter), to the baseline, the row after which it falls
     * most (to descenders alone): edges that a round letter's thin middle rows or a serif face's full baseline row do
     * not move.
     */
    private static int[] band(Raster raster, int x0, int x1, int y0, int y1) {
        int width = x1 - x0;
        int[] row = new int[width];
        int[] ink = new int[y1 - y0];
        int inked = 0;
        for (int y = y0; y < y1; y++) {
            raster.getSamples(x0, y, width, 1, 0, row);
            int n = 0;
            for (int v : row) if (v < 128) n++;
            ink[y - y0] = n;
            if (n > 0) inked++;
        }
        if (inked < MIN_BAND) return null;
        int baseline = -1, fall = 0;
        for (int r = 0; r + 1 < ink.length; r++) {
            if (ink[r] - ink[r + 1] > fall) {
                fall = ink[r] - ink[r + 1];
                baseline = r;
            }
        }
        int meanLine = -1, rise = 0;
        for (int r = 1; r < baseline; r++) {
            if (ink[r] - ink[r - 1] > rise) {
                rise = ink[r] - ink[r - 1];
                meanLine = r;
            }
        }
        if (meanLine < 0) return null;
        int band = baseline - meanLine + 1;
        // a band over most of the inked rows is no x-height (a line's box holding parts of its neighbours, capitals alone)
        if (band < MIN_BAND || band > 0.8f * inked) return null;
        return new int[] {y0 + meanLine, band};
    }

    private static int clamp(float v, int limit) {
        return Math.max(0, Math.min(limit, Math.round(v)));
    }
}
