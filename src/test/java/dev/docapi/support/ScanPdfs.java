package dev.docapi.support;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;

/** Scans made in a test from corpus images: image-only PDFs and re-rasterised pictures. */
public final class ScanPdfs {
    private ScanPdfs() {
    }

    /** An image-only PDF, one page per image at 96 dpi, as the corpus' Arabic scan is. */
    public static void imageOnlyPdf(List<BufferedImage> images, Path pdf) throws IOException {
        try (PDDocument doc = new PDDocument()) {
            for (BufferedImage image : images) {
                float w = image.getWidth() * 0.75f;
                float h = image.getHeight() * 0.75f;
                PDPage p = new PDPage(new PDRectangle(w, h));
                doc.addPage(p);
                try (PDPageContentStream cs = new PDPageContentStream(doc, p)) {
                    cs.drawImage(LosslessFactory.createFromImage(doc, image), 0, 0, w, h);
                }
            }
            doc.save(pdf.toFile());
        }
    }

    /** {@code image} re-rasterised at {@code factor} of its size (bicubic, grey). */
    public static BufferedImage scaled(BufferedImage image, double factor) {
        int w = (int) Math.round(image.getWidth() * factor);
        int h = (int) Math.round(image.getHeight() * factor);
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
        g.drawImage(image, 0, 0, w, h, null);
        g.dispose();
        return out;
    }
}
