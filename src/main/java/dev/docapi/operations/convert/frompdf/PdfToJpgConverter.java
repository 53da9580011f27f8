package dev.docapi.operations.convert.frompdf;

import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.operations.convert.Converter;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.springframework.stereotype.Component;

/**
 * pdf → jpg (spec §4.4): a ZIP of page images {@code <input>-page-001.jpg} … rendered by pdftoppm at
 * {@value #DPI} dpi, one page at a time so progress moves per page and the disk holds one image at a time.
 */
@Component
public class PdfToJpgConverter implements Converter {
    static final int DPI = 150;
    private final Poppler poppler;
    private final PdfSource source;

    public PdfToJpgConverter(Poppler poppler, PdfSource source) {
        this.poppler = poppler;
        this.source = source;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.PDF && to == ConvertTarget.JPG;
    }

    @Override
    public String outputExtension(ConvertTarget to) {
        return "zip";
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        int pages = source.pages(in);
        String base = in.file().baseName();
        int width = Math.max(3, String.valueOf(pages).length());
        Path part = out.resolveSibling(out.getFileName() + ".part");
        try (OutputStream os = Files.newOutputStream(part); ZipOutputStream zip = new ZipOutputStream(os)) {
            // JPEG is already compressed: store, do not deflate again.
            zip.setLevel(java.util.zip.Deflater.NO_COMPRESSION);
            for (int p = 1; p <= pages; p++) {
                Path dir = ctx.tempDir("page-" + p);
                List<Path> images = poppler.render(in.path(), p, p, DPI, "jpeg", dir);
                if (images.size() != 1) throw new IllegalStateException("pdftoppm wrote " + images.size() + " images for page " + p);
                zip.putNextEntry(new ZipEntry(base + "-page-" + String.format("%0" + width + "d", p) + ".jpg"));
                Files.copy(images.getFirst(), zip);
                zip.closeEntry();
                Files.delete(images.getFirst());
                ctx.progress(p, pages, "pages");
            }
        }
        Files.move(part, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return out;
    }
}
