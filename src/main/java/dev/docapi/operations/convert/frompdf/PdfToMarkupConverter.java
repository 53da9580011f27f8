package dev.docapi.operations.convert.frompdf;

import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.core.FileKind;
import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentReader;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.operations.convert.ConvertOperation;
import dev.docapi.operations.convert.Converter;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.springframework.stereotype.Component;

/**
 * pdf → md and pdf → html (additions beyond spec §4.4, issues 28 and 36): the PDF's {@link DocumentModel} (reading
 * order across columns, headings, lists, tables, Arabic in logical order, scans through the kept OCR) written as
 * Markdown ({@link MarkdownWriter}) or HTML ({@link HtmlWriter}); running headers, footers and page numbers are left
 * out, and the note says so. With {@code images} (the default) and pictures to carry, the
 * output is a ZIP of {@code <name>.md} (or {@code .html}) and {@code images/<name>-<n>.png}, linked from the text;
 * otherwise the text file alone, UTF-8.
 */
@Component
public class PdfToMarkupConverter implements Converter {
    private final DocumentReader reader;

    public PdfToMarkupConverter(DocumentReader reader) {
        this.reader = reader;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.PDF && (to == ConvertTarget.MD || to == ConvertTarget.HTML);
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        ConvertOperation.ConvertOptions options = (ConvertOperation.ConvertOptions) ctx.options();
        String base = in.file().baseName();
        DocumentModel model = reader.read(in, ctx);
        Map<String, String> links = new LinkedHashMap<>();
        Map<String, byte[]> pngs = new LinkedHashMap<>();
        if (options.images() && model.pages().stream().anyMatch(p -> p.elements().stream().anyMatch(e -> e.type() == DocumentModel.Type.PICTURE))) {
            List<List<byte[]>> pictures = reader.pictures(in.path(), ctx.tempDir("pictures"));
            for (DocumentModel.Page page : model.pages()) {
                for (DocumentModel.Element e : page.elements()) {
                    if (e.type() != DocumentModel.Type.PICTURE || page.number() > pictures.size()) continue;
                    List<byte[]> onPage = pictures.get(page.number() - 1);
                    byte[] png = e.picture() <= onPage.size() ? onPage.get(e.picture() - 1) : null;
                    if (png == null) continue;
                    String link = "images/" + base + "-" + (links.size() + 1) + ".png";
                    links.put(page.number() + "/" + e.picture(), link);
                    pngs.put(link, png);
                }
            }
        }
        if (model.pages().stream().anyMatch(p -> p.elements().stream().anyMatch(e -> e.type().furniture()))) {
            ctx.note("Running headers, footers and page numbers are left out.");
        }
        MarkupWriter writer = options.to() == ConvertTarget.MD ? new MarkdownWriter() : new HtmlWriter(base);
        byte[] text = writer.write(model, links).getBytes(StandardCharsets.UTF_8);
        if (links.isEmpty()) {
            Path part = out.resolveSibling(out.getFileName() + ".part");
            Files.write(part, text);
            Files.move(part, out, StandardCopyOption.ATOMIC_MOVE);
            return out;
        }
        Path zip = out.resolveSibling(base + ".zip");
        Path part = zip.resolveSibling(zip.getFileName() + ".part");
        try (OutputStream os = Files.newOutputStream(part); ZipOutputStream z = new ZipOutputStream(os)) {
            z.putNextEntry(new ZipEntry(out.getFileName().toString()));
            z.write(text);
            z.closeEntry();
            for (Map.Entry<String, byte[]> e : pngs.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        Files.move(part, zip, StandardCopyOption.ATOMIC_MOVE);
        return zip;
    }
}
