package dev.docapi.engines.pdfbox;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.contentstream.PDFStreamEngine;
import org.apache.pdfbox.contentstream.operator.DrawObject;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.contentstream.operator.state.Concatenate;
import org.apache.pdfbox.contentstream.operator.state.Restore;
import org.apache.pdfbox.contentstream.operator.state.Save;
import org.apache.pdfbox.contentstream.operator.state.SetGraphicsStateParameters;
import org.apache.pdfbox.contentstream.operator.state.SetMatrix;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.graphics.PDXObject;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.util.Matrix;

/**
 * Where each image XObject is drawn: follows the transformation matrix through the pages' content streams, the form
 * XObjects they draw and the annotations' appearances, and keeps for each image the lowest resolution it is shown
 * at (its largest placement, which needs the most pixels). Downsampling to a level's resolution is measured against
 * that, as Ghostscript's pdfwrite does.
 */
final class ImagePlacements extends PDFStreamEngine {
    private final Map<COSStream, Double> ppi = new IdentityHashMap<>();

    private ImagePlacements() {
        addOperator(new Concatenate(this));
        addOperator(new DrawObject(this));
        addOperator(new SetGraphicsStateParameters(this));
        addOperator(new Save(this));
        addOperator(new Restore(this));
        addOperator(new SetMatrix(this));
    }

    /**
     * The resolution (pixels per inch, the lower of width and height) at which each drawn image is shown at its
     * largest. Images that are never drawn on a page, in a form or an annotation's appearance (in a tiling pattern,
     * a Type 3 glyph) are absent: their resolution is unknown. A page that cannot be read is skipped.
     */
    static Map<COSStream, Double> of(PDDocument doc) {
        ImagePlacements engine = new ImagePlacements();
        for (PDPage page : doc.getPages()) {
            try {
                engine.processPage(page);
                for (PDAnnotation a : page.getAnnotations()) engine.showAnnotation(a);
            } catch (IOException | RuntimeException e) {
                // what was measured before the fault stands; images of the rest of the page stay unmeasured
            }
        }
        return engine.ppi;
    }

    @Override
    protected void processOperator(Operator operator, List<COSBase> operands) throws IOException {
        if ("Do".equals(operator.getName()) && !operands.isEmpty() && operands.getFirst() instanceof COSName name
                && getResources() != null) {
            PDXObject x = getResources().getXObject(name);
            if (x instanceof PDImageXObject image) {
                placed(image);
                return;
            }
        }
        super.processOperator(operator, operands);
    }

    private void placed(PDImageXObject image) {
        // The image is the unit square mapped by the CTM: its drawn width and height in points (1/72 inch).
        Matrix ctm = getGraphicsState().getCurrentTransformationMatrix();
        double widthPt = Math.hypot(ctm.getValue(0, 0), ctm.getValue(0, 1));
        double heightPt = Math.hypot(ctm.getValue(1, 0), ctm.getValue(1, 1));
        if (widthPt < 1e-3 || heightPt < 1e-3) return; // invisible: says nothing about the pixels needed
        double shown = Math.min(image.getWidth() * 72 / widthPt, image.getHeight() * 72 / heightPt);
        ppi.merge(image.getCOSObject(), shown, Math::min);
    }
}
