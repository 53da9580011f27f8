package dev.docapi.operations.convert;

import dev.docapi.api.ErrorCode;
import dev.docapi.operations.FileKind;
import dev.docapi.operations.InputFile;
import dev.docapi.operations.OperationContext;
import dev.docapi.operations.OperationFailure;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.JPEGFactory;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * An image (JPG, PNG, WebP, TIFF; every frame of a multi-page TIFF) → pdf, one page per frame, each image scaled
 * down (never up) to fit an A4 page turned to the image's orientation, centred. JPEGs are embedded as they are
 * (no re-encoding); other images losslessly. NOTE for the lead: {@code images-to-pdf} has its own engine
 * ({@code engines/pdfbox/ImagePdfWriter} on its branch); once merged, {@link #writePdf} should delegate to it.
 */
@Component
@Order(30)
public class ImageToPdfConverter implements Converter {
    private static final float MARGIN = 18f;

    @Override
    public boolean accepts(FileKind from, String extension, String to) {
        return from == FileKind.IMAGE && to.equals("pdf");
    }

    @Override
    public void convert(InputFile in, Path out, OperationContext ctx) throws Exception {
        Path tmp = out.resolveSibling(out.getFileName() + ".part");
        try {
            writePdf(in.path(), ConvertOperation.extension(in.file()).equals("jpg"), tmp, ctx);
        } catch (java.io.IOException e) {
            Files.deleteIfExists(tmp);
            throw new OperationFailure(ErrorCode.INVALID_FILE, "'" + in.file().name() + "' could not be read as an image: " + e.getMessage(), e);
        }
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Writes one page per image frame of {@code image} to {@code pdf}; reports progress in pages. */
    static void writePdf(Path image, boolean jpeg, Path pdf, OperationContext ctx) throws java.io.IOException {
        try (PDDocument doc = new PDDocument()) {
            if (jpeg) {
                addPage(doc, JPEGFactory.createFromByteArray(doc, Files.readAllBytes(image)));
            } else {
                try (ImageInputStream iis = ImageIO.createImageInputStream(image.toFile())) {
                    Iterator<ImageReader> readers = iis == null ? null : ImageIO.getImageReaders(iis);
                    if (readers == null || !readers.hasNext()) throw new java.io.IOException("no reader for this image format");
                    ImageReader reader = readers.next();
                    try {
                        reader.setInput(iis);
                        int n = reader.getNumImages(true);
                        for (int i = 0; i < n; i++) {
                            BufferedImage frame = reader.read(i);
                            addPage(doc, LosslessFactory.createFromImage(doc, frame));
                            if (ctx != null && n > 1) ctx.progress(i + 1, n, "pages");
                        }
                    } finally {
                        reader.dispose();
                    }
                }
            }
            if (doc.getNumberOfPages() == 0) throw new java.io.IOException("the image has no frames");
            doc.save(pdf.toFile());
        }
    }

    private static void addPage(PDDocument doc, PDImageXObject img) throws java.io.IOException {
        boolean landscape = img.getWidth() > img.getHeight();
        PDRectangle a4 = landscape ? new PDRectangle(PDRectangle.A4.getHeight(), PDRectangle.A4.getWidth()) : PDRectangle.A4;
        float maxW = a4.getWidth() - 2 * MARGIN, maxH = a4.getHeight() - 2 * MARGIN;
        float scale = Math.min(1f, Math.min(maxW / img.getWidth(), maxH / img.getHeight()));
        float w = img.getWidth() * scale, h = img.getHeight() * scale;
        PDPage page = new PDPage(a4);
        doc.addPage(page);
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
            cs.drawImage(img, (a4.getWidth() - w) / 2, (a4.getHeight() - h) / 2, w, h);
        }
    }
}
