package dev.docapi.operations.convert.frompdf;

import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.core.FileKind;
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
 * pdf → md and pdf → html (additions beyond spec §4.4, issue 28): the PDF's flow ({@link FlowReader}: reading order
 * across columns, headings, tables, Arabic in logical order, scans through the kept OCR) written as Markdown
 * ({@link MarkdownWriter}) or HTML ({@link HtmlWriter}). With {@code images} (the default) and pictures to carry, the
 * output is a ZIP of {@code <name>.md} (or {@code .html}) and {@code images/<name>-<n>.png}, linked from the text;
 * otherwise the text file alone, UTF-8.
 */
@Component
public class PdfToMarkupConverter implements Converter {
    private final FlowReader reader;

    public PdfToMarkupConverter(FlowReader reader) {
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
        List<FlowReader.Item> items = reader.read(in, ctx, options.images());
        Map<ParagraphStripper.Image, String> links = new LinkedHashMap<>();
        for (FlowReader.Item item : items) {
            if (item.image() == null) continue;
            links.put(item.image(), "images/" + base + "-" + (links.size() + 1) + ".png");
        }
        MarkupWriter writer = options.to() == ConvertTarget.MD ? new MarkdownWriter() : new HtmlWriter(base);
        byte[] text = writer.write(items, links).getBytes(StandardCharsets.UTF_8);
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
            for (Map.Entry<ParagraphStripper.Image, String> e : links.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getValue()));
                z.write(e.getKey().png());
                z.closeEntry();
            }
        }
        Files.move(part, zip, StandardCopyOption.ATOMIC_MOVE);
        return zip;
    }
}
