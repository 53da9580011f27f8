package dev.docapi.document;

import java.awt.geom.Line2D;
import java.awt.image.Raster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.rendering.PDFRenderer;

/**
 * The rulings a scanned page shows, found on its image for {@link Lattice}: a scan's table is drawn in pixels, not in
 * paths, so the lattice found none and its cells' text ran together as paragraphs. A ruling is a run of dark pixels
 * at least {@value #MIN_LENGTH_INCHES} inch long and a few pixels thick, level or upright; runs in neighbouring rows
 * (or columns) that meet are one ruling, so a line a scanner drew at a slight angle is still one. A dark area (a filled
 * box, a picture) is as thick as it is long and no ruling. Coordinates: points from the page's top-left, as {@link
 * Lattice}'s.
 */
final class ImageRulings {
    /** Resolution the page is rendered at: a hairline is one or two pixels. */
    private static final float DPI = 150;
    /** A page rendered larger than this many pixels is rendered at a lower resolution (a hostile page size). */
    private static final long MAX_PIXELS = 20_000_000L;
    /** The shortest ruling: longer than any stroke of a letter, shorter than a narrow column's width. */
    private static final float MIN_LENGTH_INCHES = 0.3f;
    /** A grey this dark or darker is ink. */
    private static final int DARK = 140;
    /** A ruling at most this many pixels thick, beside what a slant adds over its length. */
    private static final int MAX_THICKNESS = 5;
    /** Runs of ink a page may have, more of which are a picture's texture (each run is checked against the open rulings). */
    private static final int MAX_RUNS = 50_000;
    /** The slant a ruling may have (rows per column): a scan fed in at up to about 1.5 degrees. */
    private static final float MAX_SLANT = 0.025f;

    private ImageRulings() {
    }

    /**
     * The rulings on page {@code page} (from 1) of {@code doc}, level ones first, each as a line from its left (top) end
     * to its right (bottom) end, made exactly level or upright at its mean height (place).
     *
     * @throws IOException when the page cannot be rendered, or the thread is interrupted (InterruptedIOException)
     */
    static List<Line2D.Float> of(PDDocument doc, int page) throws IOException {
        // work past its job's deadline is interrupted and abandoned: it renders no more pages
        if (Thread.currentThread().isInterrupted()) throw new java.io.InterruptedIOException("interrupted while finding a scan's rulings");
        PageImage image = PageImage.grey(new PDFRenderer(doc), doc, page, DPI, MAX_PIXELS);
        Raster raster = image.raster();
        float scale = image.scale();
        int minRun = Math.round(MIN_LENGTH_INCHES * 72 * scale);
        int width = raster.getWidth(), height = raster.getHeight();
        boolean[][] dark = new boolean[height][width];
        int[] row = new int[width];
        for (int y = 0; y < height; y++) {
            raster.getSamples(0, y, width, 1, 0, row);
            for (int x = 0; x < width; x++) dark[y][x] = row[x] < DARK;
        }
        List<Line2D.Float> out = new ArrayList<>();
        for (int[] r : rulings(height, width, (line, i) -> dark[line][i], minRun)) {
            out.add(new Line2D.Float(r[0] / scale, r[2] / 2f / scale, r[1] / scale, r[2] / 2f / scale));
        }
        for (int[] r : rulings(width, height, (line, i) -> dark[i][line], minRun)) {
            out.add(new Line2D.Float(r[2] / 2f / scale, r[0] / scale, r[2] / 2f / scale, r[1] / scale));
        }
        return out;
    }

    /** Whether pixel {@code i} along line {@code line} (a row, or a column) is ink. */
    @FunctionalInterface
    private interface Ink {
        boolean at(int line, int i);
    }

    /**
     * The rulings along {@code lines} lines of {@code length} pixels: each its first and last pixel along the lines
     * and twice its mean line (half pixels).
     */
    private static List<int[]> rulings(int lines, int length, Ink ink, int minRun) {
        List<int[]> runs = new ArrayList<>(); // line, from, to (exclusive)
        for (int line = 0; line < lines; line++) {
            int i = 0;
            while (i < length) {
                if (!ink.at(line, i)) {
                    i++;
                    continue;
                }
                int from = i;
                while (i < length && ink.at(line, i)) i++;
                // a short run may be part of a slanted ruling: runs of a quarter of the shortest ruling are kept to chain
                if (i - from >= minRun / 4) runs.add(new int[] {line, from, i});
            }
            // a picture's texture, not a page of text and rules: no ruling is read from it (bounds the chaining)
            if (runs.size() > MAX_RUNS) return List.of();
        }
        // chain the runs that meet (overlap or abut within a pixel, on lines at most one apart) into rulings
        List<Chain> open = new ArrayList<>(), done = new ArrayList<>();
        int currentLine = -1;
        for (int[] run : runs) {
            if (run[0] != currentLine) {
                // chains no run of this line or a later one can reach are done
                currentLine = run[0];
                for (int k = open.size() - 1; k >= 0; k--) if (currentLine - open.get(k).lastLine > 1) done.add(open.remove(k));
            }
            Chain joined = null;
            for (Chain c : open) {
                if (run[0] - c.lastLine <= 1 && run[1] <= c.to + 1 && run[2] >= c.from - 1) {
                    joined = c;
                    break;
                }
            }
            if (joined == null) {
                joined = new Chain();
                joined.firstLine = run[0];
                joined.from = run[1];
                joined.to = run[2];
                open.add(joined);
            }
            joined.lastLine = run[0];
            joined.from = Math.min(joined.from, run[1]);
            joined.to = Math.max(joined.to, run[2]);
            joined.weight += run[2] - run[1];
            joined.weighted += (long) (run[2] - run[1]) * run[0];
        }
        done.addAll(open);
        List<int[]> out = new ArrayList<>();
        for (Chain c : done) {
            int long_ = c.to - c.from, thick = c.lastLine - c.firstLine + 1;
            if (long_ < minRun || thick > MAX_THICKNESS + MAX_SLANT * long_) continue;
            // mostly ink along its length, not a row of letters that touch
            if (c.weight < 0.8 * long_) continue;
            out.add(new int[] {c.from, c.to, (int) Math.round(2.0 * c.weighted / c.weight)});
        }
        return out;
    }

    /** Runs chained into one ruling: the lines it spans, its extent along them, and its ink (for its mean line). */
    private static final class Chain {
        int firstLine, lastLine, from, to;
        long weight, weighted;
    }
}
