package dev.docapi.document;

import java.awt.geom.Point2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.pdfbox.contentstream.PDFGraphicsStreamEngine;
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
 * pictures.
 */
final class Pictures extends PDFGraphicsStreamEngine {
    static final int MIN_SIDE = 48;
    /** At most this many pictures a page are kept. */
    static final int MAX_PER_PAGE = 20;

    /** A picture: its number on the page (from 1, drawing order), box, and PNG bytes when asked for (else null). */
    record Picture(int number, DocumentModel.Box box, byte[] png) {
    }

    private final boolean withPixels;
    private final PDRectangle crop;
    private final List<Picture> found = new ArrayList<>();

    private Pictures(PDPage page, boolean withPixels) {
        super(page);
        this.withPixels = withPixels;
        this.crop = page.getCropBox();
    }

    /** The page's pictures; a picture that cannot be decoded has no PNG (null) and a page that cannot be read none. */
    static List<Picture> of(PDPage page, boolean withPixels) {
        Pictures p = new Pictures(page, withPixels);
        try {
            p.processPage(page);
        } catch (IOException | RuntimeException e) {
            // a page whose content cannot be read: its pictures are left out, its text is read elsewhere
        }
        return p.found;
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
        DocumentModel.Box box = new DocumentModel.Box(minX - crop.getLowerLeftX(), crop.getUpperRightY() - maxY, maxX - minX, maxY - minY);
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

    @Override
    public void appendRectangle(Point2D p0, Point2D p1, Point2D p2, Point2D p3) {
    }

    @Override
    public void clip(int windingRule) {
    }

    @Override
    public void moveTo(float x, float y) {
    }

    @Override
    public void lineTo(float x, float y) {
    }

    @Override
    public void curveTo(float x1, float y1, float x2, float y2, float x3, float y3) {
    }

    @Override
    public Point2D getCurrentPoint() {
        return new Point2D.Float();
    }

    @Override
    public void closePath() {
    }

    @Override
    public void endPath() {
    }

    @Override
    public void strokePath() {
    }

    @Override
    public void fillPath(int windingRule) {
    }

    @Override
    public void fillAndStrokePath(int windingRule) {
    }

    @Override
    public void shadingFill(COSName shadingName) {
    }
}
