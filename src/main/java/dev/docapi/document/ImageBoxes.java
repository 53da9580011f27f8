package dev.docapi.document;

import java.awt.image.Raster;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.rendering.PDFRenderer;

/**
 * A scanned form's checkboxes, found on its image: OCR reads no character for a drawn box, so a questionnaire's
 * options read as plain lines and a table of boxes as a column of labels. A checkbox is a square outline of ink the
 * size of a letter or two, a thin frame around a clear inside (its four sides inked along their length: a letter "O"
 * or "D" has a side that is no straight line, and letters run together fill their inside). It is {@code ☐} and leads
 * the OCR'd text right of it on its line, as a born-digital form's box glyph does. On a page printed on a tint, a white
 * square with no outline is a box too (nothing else on such a page is white). A ticked box is not told from letters
 * run together ("IBM" in bold is as square and as closed), so it is not looked for.
 */
final class ImageBoxes {
    /** Resolution the page is rendered at: a 9 pt box is 12 pixels. */
    private static final float DPI = 100;
    /** A page rendered larger than this many pixels is rendered at a lower resolution (a hostile page size). */
    private static final long MAX_PIXELS = 10_000_000L;
    /** A grey this dark or darker is ink. */
    private static final int DARK = 140;
    /** A box's side, points: from a small letter's height to a large one's. */
    private static final float MIN_SIDE = 5, MAX_SIDE = 20;
    /** The share of a side's length that is inked on a drawn box. */
    private static final float SIDE_INKED = 0.85f;
    /** A grey this light or lighter is paper. */
    private static final int WHITE = 245;
    /** A page whose median grey lies between this and paper is printed on a tint. */
    private static final int TINT_DARKEST = 150;
    /** The share of a box's inside (within its frame) that may be inked: specks of a scan's noise. */
    private static final float CLEAR = 0.05f;
    /** The share of a page's pixels inked above which it is a picture (a photograph's texture): no box is looked for. */
    private static final float MAX_INK = 0.4f;

    private ImageBoxes() {
    }

    /**
     * Adds the checkboxes of the OCR'd pages to their segments: each box before the text that follows it on its line
     * ("☐ Yes").
     *
     * @param ocrPages numbers (from 1) of the pages whose text came from OCR
     * @throws IOException when a page cannot be rendered, or the thread is interrupted (InterruptedIOException)
     */
    static void add(PDDocument doc, List<PageReader.PageText> pages, Set<Integer> ocrPages) throws IOException {
        if (ocrPages.isEmpty()) return;
        PDFRenderer renderer = new PDFRenderer(doc);
        for (PageReader.PageText page : pages) {
            if (!ocrPages.contains(page.number())) continue;
            // work past its job's deadline is interrupted and abandoned: it stops at the next page
            if (Thread.currentThread().isInterrupted()) throw new java.io.InterruptedIOException("interrupted while finding a scan's checkboxes");
            PageImage image = PageImage.grey(renderer, doc, page.number(), DPI, MAX_PIXELS);
            for (float[] box : boxes(image.raster(), image.scale())) place(page.segments(), box);
        }
    }

    /**
     * Puts a box (points: x, top, right, bottom) before the segment right of it on its line. What the OCR read for the
     * box itself, a short word where it stands ("L", "M1", "LD" for "☐"), is replaced by it; a longer word
     * over it means it is no checkbox, and a box with no text after it (a picture's square, a small cell of a drawn
     * grid) is left out: it is known for a checkbox by the option it leads.
     */
    private static void place(List<PageReader.Segment> segments, float[] box) {
        float side = box[3] - box[1], middle = (box[1] + box[3]) / 2;
        String mark = "☐";
        int read = -1, next = -1;
        for (int i = 0; i < segments.size(); i++) {
            PageReader.Segment s = segments.get(i);
            if (s.x() < box[2] && s.right() > box[0] && s.top() < box[3] && s.bottom() > box[1]) {
                if (s.x() < box[0] - side / 2 || firstWord(s.text()).codePointCount(0, firstWord(s.text()).length()) > 2) return;
                read = i;
            } else if (middle > s.top() && middle < s.bottom() && s.x() >= box[2] && s.x() - box[2] < 2 * side
                    && (next < 0 || s.x() < segments.get(next).x())) {
                next = i;
            }
        }
        if (read >= 0) {
            PageReader.Segment s = segments.get(read);
            String rest = s.text().strip().substring(firstWord(s.text()).length()).strip();
            if (!rest.isEmpty()) {
                segments.set(read, new PageReader.Segment(mark + " " + rest, Math.min(box[0], s.x()), Math.min(s.top(), box[1]),
                        Math.max(s.right(), box[2]), Math.max(s.bottom(), box[3]), s.size(), s.bold(), s.italic(), s.mono(), rest.length() + 2,
                        box[2] - box[0], s.plainLetters(), false));
                return;
            }
            if (next < 0) return;
            segments.remove(read);
            if (next > read) next--;
        }
        if (next >= 0) {
            PageReader.Segment s = segments.get(next);
            segments.set(next, new PageReader.Segment(mark + " " + s.text(), box[0], Math.min(s.top(), box[1]), s.right(),
                    Math.max(s.bottom(), box[3]), s.size(), s.bold(), s.italic(), s.mono(), s.chars() + 2,
                    box[2] - box[0], s.plainLetters(), false));
        }
    }

    private static String firstWord(String text) {
        return text.strip().split("\\s+", 2)[0];
    }

    /** The page's empty checkboxes: x, top, right, bottom (points). */
    static List<float[]> boxes(Raster raster, float scale) {
        int width = raster.getWidth(), height = raster.getHeight();
        boolean[] dark = new boolean[width * height], light = new boolean[width * height];
        int[] row = new int[width], histogram = new int[256];
        int ink = 0;
        for (int y = 0; y < height; y++) {
            raster.getSamples(0, y, width, 1, 0, row);
            for (int x = 0; x < width; x++) {
                histogram[row[x]]++;
                if (row[x] < DARK) {
                    dark[y * width + x] = true;
                    ink++;
                }
                light[y * width + x] = row[x] >= WHITE;
            }
        }
        List<float[]> out = new ArrayList<>();
        if (ink > MAX_INK * dark.length) return out;
        int min = Math.max(4, Math.round(MIN_SIDE * scale)), max = Math.round(MAX_SIDE * scale);
        components(dark, width, height, (x0, y0, x1, y1, pixels) -> {
            int w = x1 - x0 + 1, h = y1 - y0 + 1;
            if (w < min || h < min || w > max || h > max || Math.abs(w - h) > 0.2f * Math.max(w, h)) return;
            if (!sides(dark, width, x0, y0, x1, y1)) return;
            // a thin frame around a clear inside: letters run together ("IBM", "DB2" in bold) fill theirs
            int frame = frame(dark, width, x0, y0, x1, y1);
            if (frame > Math.max(2, Math.min(w, h) / 5) || inked(dark, width, x0 + frame + 1, y0 + frame + 1, x1 - frame - 1, y1 - frame - 1) > CLEAR) return;
            out.add(new float[] {x0 / scale, y0 / scale, (x1 + 1) / scale, (y1 + 1) / scale});
        });
        // a page printed on a tint: its boxes may be white squares with no outline, and nothing else on it is white
        int median = -1;
        for (long below = 0; below <= dark.length / 2; ) below += histogram[++median];
        if (median > TINT_DARKEST && median < WHITE - 10) {
            components(light, width, height, (x0, y0, x1, y1, pixels) -> {
                int w = x1 - x0 + 1, h = y1 - y0 + 1;
                if (w < min || h < min || w > max || h > max || Math.abs(w - h) > 0.2f * Math.max(w, h) || pixels < 0.85f * w * h) return;
                out.add(new float[] {x0 / scale, y0 / scale, (x1 + 1) / scale, (y1 + 1) / scale});
            });
        }
        return out;
    }

    /** What {@link #components} gives for each connected area: its bounds (pixels, inclusive) and its pixel count. */
    @FunctionalInterface
    private interface Component {
        void found(int x0, int y0, int x1, int y1, int pixels);
    }

    /** Each 8-connected area of {@code mask}'s set pixels, with its bounds. */
    private static void components(boolean[] mask, int width, int height, Component component) {
        boolean[] seen = new boolean[width * height];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int start = 0; start < mask.length; start++) {
            if (!mask[start] || seen[start]) continue;
            int x0 = width, y0 = height, x1 = -1, y1 = -1, pixels = 0;
            seen[start] = true;
            queue.add(start);
            while (!queue.isEmpty()) {
                int p = queue.poll(), x = p % width, y = p / width;
                pixels++;
                x0 = Math.min(x0, x);
                x1 = Math.max(x1, x);
                y0 = Math.min(y0, y);
                y1 = Math.max(y1, y);
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = x + dx, ny = y + dy;
                        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
                        int q = ny * width + nx;
                        if (mask[q] && !seen[q]) {
                            seen[q] = true;
                            queue.add(q);
                        }
                    }
                }
            }
            component.found(x0, y0, x1, y1, pixels);
        }
    }

    /** Whether each of the four sides of the bounds is inked along {@value #SIDE_INKED} of its length (within two pixels of the edge). */
    private static boolean sides(boolean[] dark, int width, int x0, int y0, int x1, int y1) {
        int top = 0, bottom = 0, left = 0, right = 0;
        for (int x = x0; x <= x1; x++) {
            if (dark[y0 * width + x] || dark[(y0 + 1) * width + x]) top++;
            if (dark[y1 * width + x] || dark[(y1 - 1) * width + x]) bottom++;
        }
        for (int y = y0; y <= y1; y++) {
            if (dark[y * width + x0] || dark[y * width + x0 + 1]) left++;
            if (dark[y * width + x1] || dark[y * width + x1 - 1]) right++;
        }
        int w = x1 - x0 + 1, h = y1 - y0 + 1;
        return top >= SIDE_INKED * w && bottom >= SIDE_INKED * w && left >= SIDE_INKED * h && right >= SIDE_INKED * h;
    }

    /** The thickest of the four sides, pixels: the ink run inward from the middle of each. */
    private static int frame(boolean[] dark, int width, int x0, int y0, int x1, int y1) {
        int mx = (x0 + x1) / 2, my = (y0 + y1) / 2, thickest = 0;
        int[][] walks = {{x0, my, 1, 0}, {x1, my, -1, 0}, {mx, y0, 0, 1}, {mx, y1, 0, -1}};
        for (int[] walk : walks) {
            int n = 0;
            for (int x = walk[0], y = walk[1]; x >= x0 && x <= x1 && y >= y0 && y <= y1 && dark[y * width + x]; x += walk[2], y += walk[3]) n++;
            thickest = Math.max(thickest, n);
        }
        return thickest;
    }

    /** The share of the pixels in [x0, x1] x [y0, y1] that are ink. */
    private static float inked(boolean[] dark, int width, int x0, int y0, int x1, int y1) {
        int n = 0, all = 0;
        for (int y = y0; y <= y1; y++) {
            for (int x = x0; x <= x1; x++) {
                all++;
                if (dark[y * width + x]) n++;
            }
        }
        return all == 0 ? 0 : (float) n / all;
    }
}
