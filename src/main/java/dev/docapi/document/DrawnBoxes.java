package dev.docapi.document;

import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSNumber;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationWidget;
import org.apache.pdfbox.pdmodel.graphics.state.PDGraphicsState;
import org.apache.pdfbox.util.Matrix;

/**
 * A born-digital form's checkboxes drawn as paths (a Word or InDesign form's boxes that are no glyph): a square
 * outline the size of a letter or two ({@value #MIN_SIDE}-{@value #MAX_SIDE} pt), stroked. It is ticked when it is
 * filled dark, or holds a dark fill or a stroked mark of its own (a check drawn inside). Followed from the content
 * stream's operators as PDFBox's text stripper reads the page ({@link PageReader}, which ignores paths and colours), on
 * upright pages; the boxes are in points from the page's top-left. A fill with no outline (a chart's legend key, a
 * square bullet) is no box. At most {@value #MAX_BOXES} outlines a page are kept (a grid of thousands is a drawing).
 * <p>
 * Also the page's dots: a circle (drawn with curves) or a square, {@value #MIN_DOT}-{@value #MAX_DOT} pt, filled or
 * stroked, which a list's bullet drawn as a path is (Chromium's and Skia's disc, circle and square markers are no
 * glyph); {@link PageReader} reads one that leads a line as a bullet.
 */
final class DrawnBoxes {
    /** A box's side, points: from a small letter's height to a large one's. */
    static final float MIN_SIDE = 5, MAX_SIDE = 20;
    private static final int MAX_BOXES = 2_000;
    /** A dot's side, points: a bullet is a third to a half of its letters' size. */
    static final float MIN_DOT = 1.5f, MAX_DOT = 8;
    /** A fill colour this dark or darker (luminance, 0 black to 1 white) ticks a box. */
    private static final float DARK = 0.5f;

    /** A checkbox: x, top, right, bottom in points from the page's top-left. */
    record Box(float x, float top, float right, float bottom, boolean ticked) {
        float side() {
            return Math.max(right - x, bottom - top);
        }
    }

    private final List<Rectangle2D> outlines = new ArrayList<>();
    /** The page's form fields' widgets: a field's value is read from the form ({@link FormValues}), not from its drawing. */
    private final List<Rectangle2D> widgets = new ArrayList<>();
    /** What was drawn small: dark fills and strokes that are no box, each ticking the box it stands in. */
    private final List<Rectangle2D> marks = new ArrayList<>();
    /** Circles and squares the size of a bullet, each {@code ticked} when filled ({@link #dots}). */
    private final List<Box> dots = new ArrayList<>();
    /** The bounds of every path painted on the page (at most {@value #MAX_PATHS}), to tell a bullet from a drawing's dot. */
    private final List<Rectangle2D> paths = new ArrayList<>();
    private static final int MAX_PATHS = 20_000;
    /** Two dots this close (centres, points), not one above the other, are a pattern's, not bullets. */
    private static final float PATTERN = 16;
    private boolean curved;
    /** The non-stroking colour's luminance (negative: a pattern, never dark), saved and restored with q/Q. */
    private float fill;
    private final Deque<Float> saved = new ArrayDeque<>();
    private Rectangle2D rect;
    private Rectangle2D pathBounds;
    private boolean onlyRect;
    private boolean upright;
    private float cropLeft, cropTop;

    /** Starts a page: its boxes so far are dropped. */
    void start(PDPage page) {
        outlines.clear();
        widgets.clear();
        marks.clear();
        dots.clear();
        paths.clear();
        saved.clear();
        fill = 0;
        resetPath();
        upright = page.getRotation() % 360 == 0;
        cropLeft = page.getCropBox().getLowerLeftX();
        cropTop = page.getCropBox().getUpperRightY();
        try {
            for (PDAnnotation a : page.getAnnotations()) {
                if (!(a instanceof PDAnnotationWidget) || a.getRectangle() == null) continue;
                PDRectangle r = a.getRectangle();
                widgets.add(new Rectangle2D.Float(r.getLowerLeftX() - cropLeft, cropTop - r.getUpperRightY(), r.getWidth(), r.getHeight()));
            }
        } catch (java.io.IOException e) {
            // no widgets read: boxes are found as drawn
        }
    }

    /** Follows one operator of the page's content (forms' too, in their place). */
    void operator(String name, List<COSBase> operands, PDGraphicsState state) {
        if (!upright) return;
        switch (name) {
            case "q" -> saved.push(fill);
            case "Q" -> fill = saved.isEmpty() ? 0 : saved.pop();
            case "g", "rg", "k" -> fill = luminance(operands);
            // one component of sc/scn may be a Separation's tint (0: no ink), not a grey: never dark
            case "sc", "scn" -> fill = operands.size() == 1 ? -1 : luminance(operands);
            case "cs" -> fill = 0;
            case "re" -> {
                float[] v = Clips.numbers(operands, 4);
                if (v == null) return;
                Rectangle2D r = bounds(state.getCurrentTransformationMatrix(), v[0], v[1], v[0] + v[2], v[1] + v[3]);
                if (r == null || pathBounds != null) onlyRect = false;
                add(r);
                rect = onlyRect ? r : null;
            }
            case "m", "l", "c", "v", "y" -> {
                float[] v = Clips.numbers(operands, name.equals("m") || name.equals("l") ? 2 : name.equals("c") ? 6 : 4);
                onlyRect = false;
                rect = null;
                curved |= !name.equals("m") && !name.equals("l");
                if (v == null) return;
                for (int i = 0; i < v.length; i += 2) add(point(state.getCurrentTransformationMatrix(), v[i], v[i + 1]));
            }
            case "S", "s" -> painted(true, false);
            case "B", "B*", "b", "b*" -> painted(true, true);
            case "f", "F", "f*" -> painted(false, true);
            case "n" -> resetPath();
            default -> { }
        }
    }

    /** The page's checkboxes. */
    List<Box> boxes() {
        List<Box> out = new ArrayList<>();
        for (Rectangle2D o : outlines) {
            if (widgets.stream().anyMatch(w -> w.intersects(o))) continue;
            boolean ticked = marks.stream().anyMatch(m -> inside(m, o) && Math.max(m.getWidth(), m.getHeight()) >= 0.3 * Math.max(o.getWidth(), o.getHeight()));
            out.add(new Box((float) o.getMinX(), (float) o.getMinY(), (float) o.getMaxX(), (float) o.getMaxY(), ticked));
        }
        return out;
    }

    /**
     * The page's dots that stand alone as a bullet does, as {@link Box}es ticked when filled: nothing else drawn within
     * half its side (a background that holds it aside: an icon's or a diagram's parts touch it), no dot beside it within
     * {@value #PATTERN} pt that is not above or under it (a banner's pattern of dots), none in a form field's widget;
     * and another such dot alike above or under it (a list's bullets stand in a column, a pattern's dots are scattered:
     * a list of one item drawn so is left as text).
     */
    List<Box> dots() {
        if (dots.isEmpty()) return List.of();
        if (paths.size() >= MAX_PATHS) return List.of(); // a drawing of too many parts to tell its dots from bullets
        List<Box> out = new ArrayList<>();
        for (Box d : dots) {
            double margin = Math.max(1, 0.5 * d.side());
            Rectangle2D near = new Rectangle2D.Double(d.x() - margin, d.top() - margin, d.right() - d.x() + 2 * margin, d.bottom() - d.top() + 2 * margin);
            boolean alone = paths.stream().noneMatch(p -> !same(p, d) && touches(p, near) && !p.contains(near))
                    && dots.stream().noneMatch(o -> o != d && Math.abs(centreX(o) - centreX(d)) > 1
                    && Math.hypot(centreX(o) - centreX(d), centreY(o) - centreY(d)) < PATTERN)
                    && widgets.stream().noneMatch(w -> w.intersects(near));
            if (alone) out.add(d);
        }
        // a list's bullets are alike and stand in a column: a dot alike in no other place is a drawing's
        return out.stream().filter(d -> out.stream().anyMatch(o -> o != d && Math.abs(o.x() - d.x()) <= 0.5 && Math.abs(o.side() - d.side()) <= 0.3
                && o.ticked() == d.ticked())).toList();
    }

    /** Whether two bounds meet, a line's (no width or no height) too, which {@link Rectangle2D#intersects} never finds. */
    private static boolean touches(Rectangle2D a, Rectangle2D b) {
        return a.getMaxX() >= b.getMinX() && a.getMinX() <= b.getMaxX() && a.getMaxY() >= b.getMinY() && a.getMinY() <= b.getMaxY();
    }

    private static float centreX(Box b) {
        return (b.x() + b.right()) / 2;
    }

    private static float centreY(Box b) {
        return (b.top() + b.bottom()) / 2;
    }

    private static boolean same(Rectangle2D p, Box d) {
        return Math.abs(p.getMinX() - d.x()) < 0.01 && Math.abs(p.getMinY() - d.top()) < 0.01
                && Math.abs(p.getMaxX() - d.right()) < 0.01 && Math.abs(p.getMaxY() - d.bottom()) < 0.01;
    }

    private void painted(boolean stroked, boolean filled) {
        Rectangle2D bounds = pathBounds;
        boolean square = rect != null && square(rect);
        if (bounds != null && paths.size() < MAX_PATHS) paths.add(bounds);
        // a white fill shows no dot; a dot is round (curves) or a square of its own
        if (bounds != null && (curved || rect != null) && dot(bounds) && dots.size() < MAX_BOXES && (stroked || fill >= 0 && fill < 0.9f)) {
            dots.add(new Box((float) bounds.getMinX(), (float) bounds.getMinY(), (float) bounds.getMaxX(), (float) bounds.getMaxY(), filled));
        }
        if (stroked && square && outlines.size() < MAX_BOXES && outlines.stream().noneMatch(o -> same(o, rect))) outlines.add(rect);
        // what is drawn inside a box ticks it: a dark fill, or a stroke (a check mark, an X)
        if (bounds != null && bounds.getWidth() <= MAX_SIDE && bounds.getHeight() <= MAX_SIDE && marks.size() < MAX_BOXES
                && (filled && fill >= 0 && fill <= DARK || stroked && !square)) {
            marks.add(bounds);
        }
        resetPath();
    }

    private void resetPath() {
        curved = false;
        rect = null;
        pathBounds = null;
        onlyRect = true;
    }

    private void add(Rectangle2D r) {
        if (r == null) return;
        if (pathBounds == null) pathBounds = (Rectangle2D) r.clone();
        else pathBounds.add(r);
    }

    private void add(Point2D.Float p) {
        add(new Rectangle2D.Float(p.x, p.y, 0, 0));
    }

    /** A point of user space on the page as seen from its top-left. */
    private Point2D.Float point(Matrix ctm, float x, float y) {
        Point2D.Float p = ctm.transformPoint(x, y);
        return new Point2D.Float(p.x - cropLeft, cropTop - p.y);
    }

    /** The rectangle's bounds on the page, or null when the matrix turns it off the page's axes. */
    private Rectangle2D bounds(Matrix ctm, float x0, float y0, float x1, float y1) {
        if (Math.abs(ctm.getShearX()) > 1e-3 || Math.abs(ctm.getShearY()) > 1e-3) return null;
        Point2D.Float a = point(ctm, x0, y0), b = point(ctm, x1, y1);
        return new Rectangle2D.Float(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.abs(b.x - a.x), Math.abs(b.y - a.y));
    }

    private static boolean square(Rectangle2D r) {
        double w = r.getWidth(), h = r.getHeight();
        return w >= MIN_SIDE && h >= MIN_SIDE && w <= MAX_SIDE && h <= MAX_SIDE && Math.abs(w - h) <= 0.2 * Math.max(w, h);
    }

    private static boolean dot(Rectangle2D r) {
        double w = r.getWidth(), h = r.getHeight();
        return w >= MIN_DOT && h >= MIN_DOT && w <= MAX_DOT && h <= MAX_DOT && Math.abs(w - h) <= 0.25 * Math.max(w, h);
    }

    private static boolean same(Rectangle2D a, Rectangle2D b) {
        return Math.abs(a.getMinX() - b.getMinX()) < 0.5 && Math.abs(a.getMinY() - b.getMinY()) < 0.5
                && Math.abs(a.getMaxX() - b.getMaxX()) < 0.5 && Math.abs(a.getMaxY() - b.getMaxY()) < 0.5;
    }

    private static boolean inside(Rectangle2D inner, Rectangle2D outer) {
        return inner.getMinX() >= outer.getMinX() - 1 && inner.getMaxX() <= outer.getMaxX() + 1
                && inner.getMinY() >= outer.getMinY() - 1 && inner.getMaxY() <= outer.getMaxY() + 1;
    }

    /**
     * The luminance of a colour's operands: one grey, three RGB or four CMYK components; -1 for a pattern's name.
     */
    private static float luminance(List<COSBase> operands) {
        List<Float> v = new ArrayList<>();
        for (COSBase o : operands) {
            if (!(o instanceof COSNumber n)) return -1;
            v.add(Math.clamp(n.floatValue(), 0f, 1f));
        }
        return switch (v.size()) {
            case 1 -> v.get(0);
            case 3 -> 0.3f * v.get(0) + 0.59f * v.get(1) + 0.11f * v.get(2);
            case 4 -> 1 - Math.min(1, 0.3f * v.get(0) + 0.59f * v.get(1) + 0.11f * v.get(2) + v.get(3));
            default -> -1;
        };
    }
}
