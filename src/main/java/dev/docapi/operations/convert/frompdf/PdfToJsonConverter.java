package dev.docapi.operations.convert.frompdf;

import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.core.FileKind;
import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentReader;
import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.operations.convert.Converter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * pdf → json (an addition beyond spec §4.4, issue 36 item 3): the PDF's {@link DocumentModel} itself, UTF-8 JSON as
 * the OpenAPI document's {@code DocumentModel} schema describes it (its {@code version} says which shape). Scans are
 * read through the kept OCR as for the other pdf → text targets. Nothing is left out: running headers, footers and
 * page numbers stay, typed {@code page_header}, {@code page_footer} and {@code page_number}, and the note says so.
 */
@Component
public class PdfToJsonConverter implements Converter {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final DocumentReader reader;

    public PdfToJsonConverter(DocumentReader reader) {
        this.reader = reader;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.PDF && to == ConvertTarget.JSON;
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        DocumentModel model = reader.read(in, ctx);
        if (model.pages().stream().anyMatch(p -> p.elements().stream().anyMatch(e -> e.type().furniture()))) {
            ctx.note("Running headers, footers and page numbers are kept, typed page_header, page_footer and page_number.");
        }
        Path part = out.resolveSibling(out.getFileName() + ".part");
        JSON.writeValue(part.toFile(), model);
        Files.move(part, out, StandardCopyOption.ATOMIC_MOVE);
        return out;
    }
}
