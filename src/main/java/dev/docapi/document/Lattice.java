package dev.docapi.document;

import dev.docapi.engines.tabula.Tabula;
import java.awt.geom.AffineTransform;
import java.awt.geom.GeneralPath;
import java.awt.geom.Line2D;
import java.awt.geom.PathIterator;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.contentstream.PDFGraphicsStreamEngine;
import org.apache.pdfbox.util.Vector;
import org.apache.pdfbox.util.Matrix;
import org.apache.pdfbox.pdmodel.font.PDType3Font;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.PDImage;

/**
 * Ruled tables found in the service's own JVM from the page's vector paths (issue 36), as Tabula's lattice mode finds
 * them (its {@code SpreadsheetExtractionAlgorithm} is the reference for the behaviour): the straight segments of painted
 * paths that have no curve are the rulings (a thin filled rectangle's sides count too; a shade's side with the same
 * colour filled on both of its sides does not show and is none), clipped to the clip's bounds;
 * their ends are snapped together, nearby collinear ones merged, and each rectangle whose four corners are crossings of
 * the same two horizontal and two vertical rulings is a drawn cell; the cells' outlines are the tables ({@link
 * LatticeGrid}). Only a page that draws at least {@value #MIN_SEGMENTS} segments has its text read ({@link LatticeText}:
 * Tabula's glyph boxes, which set the snapping distance and say whether a ruled area reads as a table).
 *
 * <p>Coordinates: points from the page's top-left as Tabula gives them (the crop box's offset taken off; a page turned
 * by 90 or 270 degrees is transposed), the same as PDFBox's text positions' {@code XDirAdj}/{@code YDirAdj} on upright
 * pages. Only the content is parsed, never rasterised or clipped against paths, and a page is bounded by its segments
 * and crossings ({@value #MAX_SEGMENTS}, {@value LatticeGrid#MAX_CROSSINGS}): what the Tabula child's page timeout
 * guarded against (a hostile page's endless clipping loop) cannot happen here, and a page drawing more is a drawing
 * with no table read from it.
 */
final class Lattice extends PDFGraphicsStreamEngine {
    /** Two horizontal and two vertical rulings bound a cell. */
    static final int MIN_SEGMENTS = 4;
    /** Segments shorter than this (points) are no ruling. */
    private static final float MIN_LENGTH = 0.01f;
    /** A page painting more segments than this is a drawing or a chart, not read for tables (bounds the pass). */
    private static final int MAX_SEGMENTS = 20_000;

    private final AffineTransform toPage;
    private final List<Line2D.Float> segments = new ArrayList<>();
    /** The filled rectangles (not thin ones: those are lines), with the segments their sides became. */
    private final List<Fill> fills = new ArrayList<>();
    private final GeneralPath path = new GeneralPath();
    private int clipRule = -1;
    private final Clips.Bounds clipBounds = new Clips.Bounds();
    /** The clip's bounds in page space {@link #clipBox} is made from, and those bounds on the page. */
    private Rectangle2D clipSource;
    private Rectangle2D clipBox;

    private Lattice(PDPage page) {
        super(page);
        toPage = pageTransform(page);
    }

    /**
     * The ruled tables of {@code doc}: for each page (in order) its tables top to bottom, each with its drawn cells; on
     * the pages in {@code scanned} (from 1, their text OCR'd) the rulings the image shows count too ({@link ImageRulings}).
     * A page whose drawing or text cannot be read, or that draws more than {@value #MAX_SEGMENTS} lines or lines that
     * cross more than {@value LatticeGrid#MAX_CROSSINGS} times, has none and is an unread page (the job's note says so).
     */
    static Tabula.Tables tables(PDDocument doc, java.util.Set<Integer> scanned) {
        List<Tabula.PdfTable> out = new ArrayList<>();
        List<Tabula.UnreadPage> unread = new ArrayList<>();
        int n = 0;
        for (PDPage page : doc.getPages()) {
            n++;
            Lattice l = new Lattice(page);
            try {
                l.processPage(page);
                // a scan's rulings are pixels of its image (an upright page only: the image is read as seen)
                if (scanned.contains(n) && page.getRotation() % 360 == 0) l.segments.addAll(ImageRulings.of(doc, n));
            } catch (IOException | RuntimeException e) {
                unread.add(new Tabula.UnreadPage(n, "its content stream could not be read"));
                continue;
            }
            if (l.segments.size() > MAX_SEGMENTS) {
                unread.add(new Tabula.UnreadPage(n, "it draws more than " + MAX_SEGMENTS + " lines"));
                continue;
            }
            l.dropHiddenSides();
            if (l.segments.size() < MIN_SEGMENTS) continue;
            LatticeGrid grid = LatticeGrid.of(l.segments);
            if (grid == null) continue;
            List<Tabula.PdfTable> found;
            try {
                found = grid.tables(n, LatticeText.of(doc, n), page.getCropBox().getWidth() * page.getCropBox().getHeight());
            } catch (IOException | RuntimeException e) {
                unread.add(new Tabula.UnreadPage(n, "its text could not be read"));
                continue;
            }
            if (found == null) unread.add(new Tabula.UnreadPage(n, "its lines cross more than " + LatticeGrid.MAX_CROSSINGS + " times"));
            else out.addAll(found);
        }
        return new Tabula.Tables(out, unread);
    }

    /**
     * Tabula's page transform: PDF user space to points from the page's top-left, the crop box's lower-left corner
     * taken off; a page turned by 90 or 270 degrees is turned, not moved down.
     */
    private static AffineTransform pageTransform(PDPage page) {
        PDRectangle crop = page.getCropBox();
        int rotation = page.getRotation();
        AffineTransform t = new AffineTransform();
        if (Math.abs(rotation) == 90 || Math.abs(rotation) == 270) t = AffineTransform.getRotateInstance(Math.toRadians(rotation), 0, 0);
        else t.concatenate(AffineTransform.getTranslateInstance(0, crop.getHeight()));
        t.concatenate(AffineTransform.getScaleInstance(1, -1));
        t.translate(-crop.getLowerLeftX(), -crop.getLowerLeftY());
        return t;
    }

    /** The painted path's straight segments, when it has nothing but straight segments (a curve: none). */
    private void paint() {
        try {
            if (segments.size() > MAX_SEGMENTS || !straight()) return;
            PathIterator it = path.getPathIterator(toPage);
            float[] c = new float[6];
            it.currentSegment(c);
            Point2D.Float start = new Point2D.Float(round2(c[0]), round2(c[1])), lastMove = start, end = null;
            while (!it.isDone()) {
                it.next();
                // As Tabula does, one segment more is read once the iterator is done: the path's buffers outlive a
                // reset, so that segment is the one a longer path painted before left at this index (a rectangle's
                // corner, a longer polyline's next point), and it becomes a ruling from this path's last point. Kept so
                // that the tables stay Tabula's: without it 8 of the 43 structure-benchmark files get other tables.
                // Where no earlier path left one, the read fails and the path ends.
                int type;
                try {
                    type = it.currentSegment(c);
                } catch (IndexOutOfBoundsException e) {
                    continue;
                }
                if (type == PathIterator.SEG_LINETO) {
                    end = new Point2D.Float(c[0], c[1]);
                    add(start, end);
                } else if (type == PathIterator.SEG_MOVETO) {
                    lastMove = new Point2D.Float(c[0], c[1]);
                    end = lastMove;
                } else if (type == PathIterator.SEG_CLOSE && end != null) {
                    add(end, lastMove);
                }
                // as in Tabula: after a close the next segment starts where the last line ended
                start = end;
            }
        } finally {
            path.reset();
        }
    }

    /** Whether the path starts with a move and has only moves, lines and closes. */
    private boolean straight() {
        PathIterator it = path.getPathIterator(toPage);
        float[] c = new float[6];
        if (it.isDone() || it.currentSegment(c) != PathIterator.SEG_MOVETO) return false;
        for (it.next(); !it.isDone(); it.next()) {
            int type = it.currentSegment(c);
            if (type != PathIterator.SEG_LINETO && type != PathIterator.SEG_CLOSE && type != PathIterator.SEG_MOVETO) return false;
        }
        return true;
    }

    /** A segment (page coordinates) as a ruling, its ends in (y, x) order, clipped to the clip's bounds. */
    private void add(Point2D.Float a, Point2D.Float b) {
        if (a == null || b == null) return;
        boolean ordered = round2(a.y) < round2(b.y) || round2(a.y) == round2(b.y) && round2(a.x) <= round2(b.x);
        Line2D.Float line = ordered ? new Line2D.Float(a, b) : new Line2D.Float(b, a);
        Rectangle2D clip = clipBounds();
        if (!line.intersects(clip)) return;
        Line2D.Float r = LatticeGrid.normalized(line);
        if (LatticeGrid.horizontal(r) || LatticeGrid.vertical(r)) {
            // a straight ruling is clipped by clamping it into the clip's bounds
            r = new Line2D.Float(clamp(r.x1, clip.getMinX(), clip.getMaxX()), clamp(r.y1, clip.getMinY(), clip.getMaxY()),
                    clamp(r.x2, clip.getMinX(), clip.getMaxX()), clamp(r.y2, clip.getMinY(), clip.getMaxY()));
        }
        if (Point2D.distance(r.x1, r.y1, r.x2, r.y2) > MIN_LENGTH) segments.add(r);
    }

    /**
     * The clip's bounds on the page: the common part of its paths' bounds (Tabula takes the bounds of the paths' exact
     * intersection, which is the same for the rectangles pages clip to). Kept while the clip stays the same: working
     * out the exact intersection of a page's clipping paths, or their bounds for every segment, would cost what a
     * hostile page chooses.
     */
    private Rectangle2D clipBounds() {
        Rectangle2D common = clipBounds.of(getGraphicsState());
        if (common != clipSource) {
            clipBox = toPage.createTransformedShape(common).getBounds2D();
            clipSource = common;
        }
        return clipBox;
    }

    private static float clamp(float v, double min, double max) {
        return (float) Math.max(min, Math.min(max, v));
    }

    static float round2(double v) {
        return Math.round(v * 100) / 100f;
    }

    @Override
    public void appendRectangle(Point2D p0, Point2D p1, Point2D p2, Point2D p3) {
        path.moveTo((float) p0.getX(), (float) p0.getY());
        path.lineTo((float) p1.getX(), (float) p1.getY());
        path.lineTo((float) p2.getX(), (float) p2.getY());
        path.lineTo((float) p3.getX(), (float) p3.getY());
        path.closePath();
    }

    @Override
    public void moveTo(float x, float y) {
        path.moveTo(x, y);
    }

    @Override
    public void lineTo(float x, float y) {
        path.lineTo(x, y);
    }

    @Override
    public void curveTo(float x1, float y1, float x2, float y2, float x3, float y3) {
        path.curveTo(x1, y1, x2, y2, x3, y3);
    }

    @Override
    public void closePath() {
        path.closePath();
    }

    @Override
    public Point2D getCurrentPoint() {
        return path.getCurrentPoint();
    }

    /** Not followed: a glyph of a Type 3 font (as Chromium embeds a CJK font) is text, drawn in paths: no rule of a table ("一" is a bar). */
    @Override
    protected void showType3Glyph(Matrix textRenderingMatrix, PDType3Font font, int code, Vector displacement) {
    }

    @Override
    public void strokePath() {
        paint();
    }

    @Override
    public void fillPath(int windingRule) {
        Rectangle2D box = rectangle();
        int from = segments.size();
        paint();
        // past MAX_FILLS none is used: a hostile page's millions of shades are not kept
        if (box != null && box.getWidth() > THIN && box.getHeight() > THIN && fills.size() <= MAX_FILLS) {
            fills.add(new Fill(box, fillColour(), from, segments.size()));
        }
    }

    /** A filled rectangle in page coordinates, its colour (null when it cannot be read) and its sides' segments [from, to). */
    private record Fill(Rectangle2D box, Integer rgb, int from, int to) {
    }

    /** A filled rectangle thinner than this (points) is a line. */
    private static final float THIN = 2;
    /** How far either side of a fill's side the colour is looked at (points). */
    private static final float SIDE = 0.6f;

    /** The path's bounds in page coordinates when it is one upright rectangle; else null. */
    private Rectangle2D rectangle() {
        Rectangle2D box = path.getBounds2D();
        if (box.isEmpty()) return null;
        box = toPage.createTransformedShape(box).getBounds2D();
        PathIterator it = path.getPathIterator(toPage);
        float[] c = new float[6];
        int points = 0;
        for (; !it.isDone(); it.next()) {
            int type = it.currentSegment(c);
            if (type == PathIterator.SEG_CLOSE) continue;
            if (type != PathIterator.SEG_MOVETO && type != PathIterator.SEG_LINETO || ++points > 5) return null;
            boolean corner = (Math.abs(c[0] - box.getMinX()) < 0.01 || Math.abs(c[0] - box.getMaxX()) < 0.01)
                    && (Math.abs(c[1] - box.getMinY()) < 0.01 || Math.abs(c[1] - box.getMaxY()) < 0.01);
            if (!corner) return null;
        }
        return points >= 4 ? box : null;
    }

    private Integer fillColour() {
        try {
            return getGraphicsState().getNonStrokingColor().toRGB();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Drops the sides of filled rectangles that do not show: a side with the same colour filled on both of its sides
     * (Word shades a table cell's paragraphs line by line inside the cell's own shading; the edges between those shades
     * are no rulings, and taken as rulings they split a wrapped cell into rows). Bounded: a page of more fills than
     * {@value #MAX_FILLS} keeps them all.
     */
    private void dropHiddenSides() {
        if (fills.isEmpty() || fills.size() > MAX_FILLS) return;
        boolean[] hidden = new boolean[segments.size()];
        for (Fill f : fills) {
            if (f.rgb() == null) continue;
            for (int i = f.from(); i < f.to() && i < segments.size(); i++) hidden[i] = hidden(segments.get(i), f.rgb());
        }
        List<Line2D.Float> kept = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) if (!hidden[i]) kept.add(segments.get(i));
        segments.clear();
        segments.addAll(kept);
    }

    private static final int MAX_FILLS = 2_000;

    private boolean hidden(Line2D.Float s, int rgb) {
        boolean horizontal = LatticeGrid.horizontal(s), vertical = LatticeGrid.vertical(s);
        if (!horizontal && !vertical) return false;
        for (float t : new float[] {0.25f, 0.5f, 0.75f}) {
            float x = s.x1 + t * (s.x2 - s.x1), y = s.y1 + t * (s.y2 - s.y1);
            boolean covered = horizontal ? filled(x, y - SIDE, rgb) && filled(x, y + SIDE, rgb) : filled(x - SIDE, y, rgb) && filled(x + SIDE, y, rgb);
            if (!covered) return false;
        }
        return true;
    }

    private boolean filled(float x, float y, int rgb) {
        for (Fill f : fills) if (f.rgb() != null && f.rgb() == rgb && f.box().contains(x, y)) return true;
        return false;
    }

    @Override
    public void fillAndStrokePath(int windingRule) {
        paint();
    }

    @Override
    public void clip(int windingRule) {
        // the clip takes effect at the path's end, as a painting operator does not apply it
        clipRule = windingRule;
    }

    @Override
    public void endPath() {
        if (clipRule != -1) {
            path.setWindingRule(clipRule);
            getGraphicsState().intersectClippingPath(path);
            clipRule = -1;
        }
        path.reset();
    }

    @Override
    public void drawImage(PDImage pdImage) {
    }

    @Override
    public void shadingFill(COSName shadingName) {
    }
}
