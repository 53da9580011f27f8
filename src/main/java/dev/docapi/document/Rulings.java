package dev.docapi.document;

import java.awt.geom.Point2D;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.pdfbox.contentstream.PDFGraphicsStreamEngine;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.graphics.image.PDImage;

/**
 * The pages that can hold a ruled table, read from their drawing operators, so that Tabula's lattice mode (a child
 * JVM per document) runs only on those. Tabula's rulings are the straight segments of painted paths that have no
 * curve (a stroked or filled path with a curve gives none, as in its {@code ObjectExtractorStreamEngine}), one ruling
 * per segment, and each cell it finds is bounded by two horizontal and two vertical rulings: a page that paints fewer
 * than {@value #MIN_SEGMENTS} such segments has no cell, so no table. Segments are counted in any direction and
 * whatever the clip (Tabula drops oblique ones and clips the rest), so a page is only ever asked about too often.
 * The page's content is parsed, never rasterised or clipped: the pass costs what {@link Pictures}' does.
 */
final class Rulings extends PDFGraphicsStreamEngine {
    /** Two horizontal and two vertical rulings bound a cell. */
    static final int MIN_SEGMENTS = 4;

    /** Straight segments of the path being built; -1 once it has a curve. */
    private int pathSegments;
    private int painted;

    private Rulings(PDPage page) {
        super(page);
    }

    /**
     * The pages (from 1) of {@code doc} that paint at least {@value #MIN_SEGMENTS} straight segments of curve-free
     * paths, in page order; a page whose content cannot be read is among them (Tabula then says what it makes of it).
     */
    static Set<Integer> pages(PDDocument doc) {
        Set<Integer> out = new LinkedHashSet<>();
        int n = 0;
        for (PDPage page : doc.getPages()) {
            n++;
            Rulings r = new Rulings(page);
            try {
                r.processPage(page);
            } catch (IOException | RuntimeException e) {
                out.add(n);
                continue;
            }
            if (r.painted >= MIN_SEGMENTS) out.add(n);
        }
        return out;
    }

    private void segments(int n) {
        if (pathSegments >= 0) pathSegments += n;
    }

    private void paint() {
        if (pathSegments > 0) painted += pathSegments;
        pathSegments = 0;
    }

    @Override
    public void appendRectangle(Point2D p0, Point2D p1, Point2D p2, Point2D p3) {
        segments(4);
    }

    @Override
    public void lineTo(float x, float y) {
        segments(1);
    }

    @Override
    public void closePath() {
        segments(1);
    }

    @Override
    public void curveTo(float x1, float y1, float x2, float y2, float x3, float y3) {
        pathSegments = -1;
    }

    @Override
    public void moveTo(float x, float y) {
    }

    @Override
    public Point2D getCurrentPoint() {
        return new Point2D.Float();
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
    public void endPath() {
        pathSegments = 0;
    }

    @Override
    public void clip(int windingRule) {
    }

    @Override
    public void drawImage(PDImage pdImage) {
    }

    @Override
    public void shadingFill(COSName shadingName) {
    }
}
