package dev.docapi.document;

import java.awt.geom.GeneralPath;
import java.awt.geom.Path2D;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.util.List;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSNumber;
import org.apache.pdfbox.pdmodel.graphics.state.PDGraphicsState;

/**
 * Follows a content stream's path operators so the graphics state's clip is known while its text is read: PDFBox's
 * text stripper ignores paths, so its clip stays the page's. The paths a clip is made of are built in page space
 * (y up); a curve is taken by its control points, which hold it (only the clip's bounds are read).
 */
final class Clips {
    /**
     * The bounds of a graphics state's clip in page space (y up): the common part of its paths' bounds (empty when
     * they have none), the same object while the clip stays the same. Working out the exact intersection of a page's
     * clipping paths, or their bounds for every glyph or segment, would cost what a hostile page chooses.
     */
    static final class Bounds {
        private List<Path2D> paths;
        private int count;
        private Rectangle2D bounds;

        Rectangle2D of(PDGraphicsState state) {
            List<Path2D> current = state.getCurrentClippingPaths();
            // PDFBox adds to a state's list in place once it has copied it
            if (current != paths || current.size() != count) {
                Rectangle2D common = null;
                for (Path2D p : current) {
                    Rectangle2D b = p.getBounds2D();
                    if (common == null) common = b;
                    else Rectangle2D.intersect(common, b, common);
                }
                bounds = common == null || common.getWidth() < 0 || common.getHeight() < 0 ? new Rectangle2D.Double() : common;
                paths = current;
                count = current.size();
            }
            return bounds;
        }
    }

    private final GeneralPath path = new GeneralPath();
    /** The winding rule of a clip set by {@code W}/{@code W*}, which takes effect when the path ends; -1: none. */
    private int clipRule = -1;

    /** Follows one operator of the content: path construction, {@code W}/{@code W*} and the operators that end a path. */
    void operator(String name, List<COSBase> operands, PDGraphicsState state) {
        switch (name) {
            case "re" -> {
                float[] v = numbers(operands, 4);
                if (v == null) return;
                moveTo(state, v[0], v[1]);
                lineTo(state, v[0] + v[2], v[1]);
                lineTo(state, v[0] + v[2], v[1] + v[3]);
                lineTo(state, v[0], v[1] + v[3]);
                path.closePath();
            }
            case "m" -> {
                float[] v = numbers(operands, 2);
                if (v != null) moveTo(state, v[0], v[1]);
            }
            case "l", "c", "v", "y" -> {
                float[] v = numbers(operands, name.equals("l") ? 2 : name.equals("c") ? 6 : 4);
                if (v != null) for (int i = 0; i < v.length; i += 2) lineTo(state, v[i], v[i + 1]);
            }
            case "h" -> {
                if (path.getCurrentPoint() != null) path.closePath();
            }
            case "W" -> clipRule = Path2D.WIND_NON_ZERO;
            case "W*" -> clipRule = Path2D.WIND_EVEN_ODD;
            case "n", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*" -> {
                if (clipRule != -1 && path.getCurrentPoint() != null) {
                    path.setWindingRule(clipRule);
                    state.intersectClippingPath(path);
                }
                clipRule = -1;
                path.reset();
            }
            default -> { }
        }
    }

    private void moveTo(PDGraphicsState state, float x, float y) {
        Point2D.Float p = state.getCurrentTransformationMatrix().transformPoint(x, y);
        path.moveTo(p.x, p.y);
    }

    private void lineTo(PDGraphicsState state, float x, float y) {
        if (path.getCurrentPoint() == null) {
            moveTo(state, x, y);
            return;
        }
        Point2D.Float p = state.getCurrentTransformationMatrix().transformPoint(x, y);
        path.lineTo(p.x, p.y);
    }

    /** The first {@code count} operands as numbers, or null when there are fewer or one is no number. */
    static float[] numbers(List<COSBase> operands, int count) {
        if (operands.size() < count) return null;
        float[] v = new float[count];
        for (int i = 0; i < count; i++) {
            if (!(operands.get(i) instanceof COSNumber n)) return null;
            v[i] = n.floatValue();
        }
        return v;
    }
}
