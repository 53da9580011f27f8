package dev.docapi.operations.convert;

import dev.docapi.engines.pdfbox.ImagePdfWriter;
import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import java.nio.file.Path;
import java.util.List;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * An image (JPG, PNG, WebP, TIFF; every frame of a multi-page TIFF) → pdf through the same engine as
 * {@code images-to-pdf} ({@link ImagePdfWriter}: page size from the image's resolution, JPEG embedded unchanged).
 */
@Component
@Order(30)
public class ImageToPdfConverter implements Converter {
    private final ImagePdfWriter writer;

    public ImageToPdfConverter(ImagePdfWriter writer) {
        this.writer = writer;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.IMAGE && to == ConvertTarget.PDF;
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        writer.write(List.of(new ImagePdfWriter.Source(in.path(), in.file().name())), out, done -> { });
        return out;
    }
}
