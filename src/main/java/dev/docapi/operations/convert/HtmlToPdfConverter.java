package dev.docapi.operations.convert;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.chromium.Chromium;
import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * HTML → pdf through headless Chromium with every request blocked ({@link Chromium}). The file is decoded here
 * (BOM, {@code <meta charset>}, UTF-8, else Windows-1252) and handed to the browser as UTF-8. Subclasses turn
 * Markdown and plain text into HTML first.
 */
@Component
@Order(20)
public class HtmlToPdfConverter implements Converter {
    private final Chromium chromium;

    public HtmlToPdfConverter(Chromium chromium) {
        this.chromium = chromium;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.HTML && to == ConvertTarget.PDF;
    }

    @Override
    public boolean available() {
        return chromium.available();
    }

    /** The complete HTML document to print for {@code bytes} (here: the file itself, decoded). */
    protected String toHtml(byte[] bytes, String title) {
        return TextDecoding.decode(bytes, true);
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        String html = toHtml(Files.readAllBytes(in.path()), in.file().baseName());
        try {
            chromium.print(html, Chromium.PageSetup.A4, out, new java.util.ArrayList<>());
        } catch (EngineFailure e) {
            // named, its kind kept: the one place engine failures meet error codes is OperationService.failure
            throw new EngineFailure(e.kind(), "'" + in.file().name() + "' could not be printed to PDF: " + e.getMessage(), e);
        }
        return out;
    }
}
