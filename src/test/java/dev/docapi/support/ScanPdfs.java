package dev.docapi.support;

import java.awt.Color;
import java.awt.Font;
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

    /**
     * A scanned page of a few lines of {@code lines} near its top, as a sheet of one short note is (1000 × 1300 px,
     * grey, 36 px serif type, upright), turned clockwise by {@code quarterTurns} quarters.
     */
    public static BufferedImage fewLines(List<String> lines, int quarterTurns) {
        BufferedImage page = new BufferedImage(1000, 1300, BufferedImage.TYPE_BYTE_GRAY);
        Graphics2D g = page.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, page.getWidth(), page.getHeight());
        g.setColor(Color.BLACK);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setFont(new Font(Font.SERIF, Font.PLAIN, 36));
        for (int i = 0; i < lines.size(); i++) g.drawString(lines.get(i), 80, 150 + 60 * i);
        g.dispose();
        BufferedImage out = page;
        for (int q = 0; q < ((quarterTurns % 4) + 4) % 4; q++) {
            BufferedImage turned = new BufferedImage(out.getHeight(), out.getWidth(), BufferedImage.TYPE_BYTE_GRAY);
            for (int y = 0; y < out.getHeight(); y++) {
                for (int x = 0; x < out.getWidth(); x++) turned.getRaster().setSample(out.getHeight() - 1 - y, x, 0, out.getRaster().getSample(x, y, 0));
            }
            out = turned;
        }
        return out;
    }
}
