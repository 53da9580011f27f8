package dev.docapi.document;

import java.awt.geom.GeneralPath;
import java.awt.geom.Path2D;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.pdfbox.contentstream.PDFGraphicsStreamEngine;
import org.apache.pdfbox.util.Vector;
import org.apache.pdfbox.pdmodel.font.PDType3Font;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.PDImage;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.util.Matrix;

/**
 * The pictures drawn on a page, in drawing order: image XObjects at least {@value #MIN_SIDE} pixels a side (smaller
 * ones are rules, bullets or dots), each with the box it is drawn in (points from the page's top-left, the page's
 * {@code /Rotate} not applied) and, when asked for, its pixels as PNG. Stencil masks and inline images are not
 * pictures. Also the page's drawings: figures drawn in vector paths, whose text is their labels.
 */
final class Pictures extends PDFGraphicsStreamEngine {
    static final int MIN_SIDE = 48;
    /** At most this many pictures a page are kept. */
    static final int MAX_PER_PAGE = 20;

    /** A picture: its number on the page (from 1, drawing order), box, and PNG bytes when asked for (else null). */
    record Picture(int number, DocumentModel.Box box, byte[] png) {
    }

    /**
     * A page's pictures and drawings. A drawing is the box of at least {@value #MIN_SHAPES} painted paths that touch
     * one another (a diagram's boxes, arrows and callouts; a chart's bars and axes), in the pictures' coordinates; a
     * group over half the page (a slide's background, a frame around the page) or reaching off it (a bleed) is none,
     * and so is a panel, a box drawn around or behind text ({@link #panel}): the panels (of any number of shapes, 24 pt
     * high and 36 pt wide or more) are kept apart, but for a frame around a drawing, which is the figure's.
     */
    record Found(List<Picture> pictures, List<DocumentModel.Box> drawings, List<DocumentModel.Box> panels) {
        static final Found NONE = new Found(List.of(), List.of(), List.of());
    }

    static final int MIN_SHAPES = 8;
    /** A page painting more paths than this has no drawings read (bounds the grouping, which is quadratic). */
    private static final int MAX_SHAPES = 2_000;

    private final boolean withPixels;
    private final PDRectangle crop;
    private final List<Picture> found = new ArrayList<>();
    private final List<DocumentModel.Box> shapes = new ArrayList<>();
    /** The current path's bounds in PDF user space (minX, minY, maxX, maxY); empty while minX > maxX. */
    private final float[] path = {Float.MAX_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, -Float.MAX_VALUE};
    private final Point2D.Float current = new Point2D.Float();
    /** Whether the current path is also the new clip. */
    private boolean clipping;

    private Pictures(PDPage page, boolean withPixels) {
        super(page);
        this.withPixels = withPixels;
        this.crop = page.getCropBox();
    }

    /**
     * The page's pictures and drawings; a picture that cannot be decoded has no PNG (null) and a page that cannot be
     * read none.
     */
    static Found of(PDPage page, boolean withPixels) {
        Pictures p = new Pictures(page, withPixels);
        try {
            p.processPage(page);
        } catch (IOException | RuntimeException e) {
            // a page whose content cannot be read: its pictures are left out, its text is read elsewhere
        }
        float width = p.crop.getWidth(), height = p.crop.getHeight(), half = width * height / 2;
        // a page's background joins no group: it would join them all; a group that bleeds off the page is a design's
        // decoration (a banner's lines and dots), not a figure
        if (p.shapes.size() > MAX_SHAPES) return new Found(p.found, List.of(), List.of());
        List<DocumentModel.Box> drawings = new ArrayList<>(), panels = new ArrayList<>();
        for (Map.Entry<DocumentModel.Box, List<DocumentModel.Box>> g : groups(p.shapes.stream().filter(b -> b.width() * b.height() <= half).toList()).entrySet()) {
            DocumentModel.Box b = g.getKey();
            if (b.width() * b.height() > half || b.x() < -1 || b.y() < -1 || b.right() > width + 1 || b.bottom() > height + 1) continue;
            if (panel(g.getValue(), b)) {
                if (b.height() >= 24 && b.width() >= 36) panels.add(b);
            } else if (g.getValue().size() >= MIN_SHAPES) {
                drawings.add(b);
            }
        }
        // a frame around a figure (a chart and its title) is the figure's
        List<DocumentModel.Box> frames = panels.stream().filter(f -> drawings.stream().anyMatch(f::holds)).toList();
        panels.removeAll(frames);
        drawings.addAll(frames);
        return new Found(p.found, drawings, panels);
    }

    /** The groups of shapes that touch (within a point) one another: each group's box and its shapes. */
    private static Map<DocumentModel.Box, List<DocumentModel.Box>> groups(List<DocumentModel.Box> shapes) {
        int[] parent = new int[shapes.size()];
        for (int i = 0; i < parent.length; i++) parent[i] = i;
        for (int i = 0; i < parent.length; i++) {
            DocumentModel.Box a = shapes.get(i);
            for (int j = i + 1; j < parent.length; j++) {
                DocumentModel.Box b = shapes.get(j);
                if (a.x() <= b.right() + 1 && b.x() <= a.right() + 1 && a.y() <= b.bottom() + 1 && b.y() <= a.bottom() + 1) parent[root(parent, i)] = root(parent, j);
            }
        }
        Map<Integer, DocumentModel.Box> box = new LinkedHashMap<>();
        Map<Integer, List<DocumentModel.Box>> members = new HashMap<>();
        for (int i = 0; i < parent.length; i++) {
            int r = root(parent, i);
            box.merge(r, shapes.get(i), DocumentModel.Box::union);
            members.computeIfAbsent(r, k -> new ArrayList<>()).add(shapes.get(i));
        }
        Map<DocumentModel.Box, List<DocumentModel.Box>> out = new LinkedHashMap<>();
        for (Map.Entry<Integer, DocumentModel.Box> e : box.entrySet()) out.put(e.getValue(), members.get(e.getKey()));
        return out;
    }

    /** The largest side of a mark inside a panel (a list's bullet drawn as a path). */
    private static final float MARK = 8;
    /** How far from a group's edge a shape of its border may reach: a rounded corner's arc, a thick rule. */
    private static final float BORDER = 10;

    /**
     * Whether a group of shapes is a panel, no figure: each of its shapes lies along one of the group's edges (a
     * border drawn side by side and corner by corner, as Chromium draws a rounded box) or fills most of it (its
     * background) or is a rule across most of it (under a heading), but for marks inside standing one under another in
     * one or two places across (a list's bullets drawn as paths, nested once). A card or a banner frames text, which is no figure's labels; a chart's bars, a
     * scatter plot's dots and a diagram's boxes stand inside.
     */
    static boolean panel(List<DocumentModel.Box> shapes, DocumentModel.Box group) {
        java.util.Set<Integer> markColumns = new java.util.HashSet<>();
        for (DocumentModel.Box s : shapes) {
            boolean fill = s.width() * s.height() >= 0.8f * group.width() * group.height();
            boolean edge = s.right() <= group.x() + BORDER || s.x() >= group.right() - BORDER || s.bottom() <= group.y() + BORDER
                    || s.y() >= group.bottom() - BORDER;
            // a rule across it (under a heading in a sidebar)
            boolean rule = s.height() <= 2 && s.width() >= 0.8f * group.width();
            if (fill || edge || rule) continue;
            if (s.width() > MARK || s.height() > MARK) return false;
            markColumns.add(Math.round(s.x() + s.width() / 2));
        }
        return markColumns.size() <= 2;
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    }

    @Override
    public void drawImage(PDImage image) {
        if (found.size() >= MAX_PER_PAGE || !(image instanceof PDImageXObject x) || x.isStencil()) return;
        if (x.getWidth() < MIN_SIDE || x.getHeight() < MIN_SIDE) return;
        Matrix ctm = getGraphicsState().getCurrentTransformationMatrix();
        float minX = Float.MAX_VALUE, minY = Float.MAX_VALUE, maxX = -Float.MAX_VALUE, maxY = -Float.MAX_VALUE;
        for (float[] corner : new float[][] {{0, 0}, {1, 0}, {0, 1}, {1, 1}}) {
            Point2D.Float pt = ctm.transformPoint(corner[0], corner[1]);
            minX = Math.min(minX, pt.x);
            maxX = Math.max(maxX, pt.x);
            minY = Math.min(minY, pt.y);
            maxY = Math.max(maxY, pt.y);
        }
        // the part the clip lets show (the bounds of its paths, which bounds the work): an image clipped out of sight (a
        // banner's pieces beyond its frame) is none
        Rectangle2D shown = new Rectangle2D.Float(minX, minY, maxX - minX, maxY - minY);
        for (Path2D clip : getGraphicsState().getCurrentClippingPaths()) Rectangle2D.intersect(shown, clip.getBounds2D(), shown);
        if (shown.getWidth() < 1 || shown.getHeight() < 1) return;
        DocumentModel.Box box = new DocumentModel.Box((float) shown.getMinX() - crop.getLowerLeftX(), crop.getUpperRightY() - (float) shown.getMaxY(),
                (float) shown.getWidth(), (float) shown.getHeight());
        byte[] png = null;
        if (withPixels) {
            try {
                BufferedImage bi = x.getImage();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                if (bi != null && ImageIO.write(bi, "png", out)) png = out.toByteArray();
            } catch (IOException | RuntimeException e) {
                // an image PDFBox cannot decode has no pixels
            }
        }
        found.add(new Picture(found.size() + 1, box, png));
    }

    /** Paints the current path: its box is a shape of the page (points from the top-left, as the pictures' boxes). */
    private void paint() {
        if (path[0] <= path[2] && shapes.size() <= MAX_SHAPES) {
            shapes.add(new DocumentModel.Box(path[0] - crop.getLowerLeftX(), crop.getUpperRightY() - path[3], path[2] - path[0], path[3] - path[1]));
        }
        endPath();
    }

    private void extend(float x, float y) {
        path[0] = Math.min(path[0], x);
        path[1] = Math.min(path[1], y);
        path[2] = Math.max(path[2], x);
        path[3] = Math.max(path[3], y);
        current.setLocation(x, y);
    }

    @Override
    public void appendRectangle(Point2D p0, Point2D p1, Point2D p2, Point2D p3) {
        for (Point2D p : new Point2D[] {p0, p1, p2, p3}) extend((float) p.getX(), (float) p.getY());
    }

    @Override
    public void clip(int windingRule) {
        // the clip takes effect at the path's end; its bounds stand for it (the pictures' boxes are bounds too)
        clipping = true;
    }

    @Override
    public void moveTo(float x, float y) {
        extend(x, y);
    }

    @Override
    public void lineTo(float x, float y) {
        extend(x, y);
    }

    @Override
    public void curveTo(float x1, float y1, float x2, float y2, float x3, float y3) {
        extend(x1, y1);
        extend(x2, y2);
        extend(x3, y3);
    }

    @Override
    public Point2D getCurrentPoint() {
        return current;
    }

    @Override
    public void closePath() {
    }

    @Override
    public void endPath() {
        if (clipping && path[0] <= path[2]) {
            getGraphicsState().intersectClippingPath(new GeneralPath(new Rectangle2D.Float(path[0], path[1], path[2] - path[0], path[3] - path[1])));
        }
        clipping = false;
        path[0] = path[1] = Float.MAX_VALUE;
        path[2] = path[3] = -Float.MAX_VALUE;
    }

    /** Not followed: a glyph of a Type 3 font (as Chromium embeds a CJK font) is text, drawn in paths or images: no figure. */
    @Override
    protected void showType3Glyph(Matrix textRenderingMatrix, PDType3Font font, int code, Vector displacement) {
    }

    @Override
    public void strokePath() {
        paint();
    }

    @Override
    public void fillPath(int windingRule) {
        paint();
    }

    @Override
    public void fillAndStrokePath(int windingRule) {
        paint();
    }

    @Override
    public void shadingFill(COSName shadingName) {
    }
}
