package dev.docapi.operations.convert;

import dev.docapi.core.ErrorCode;
import dev.docapi.engines.chromium.Chromium;
import dev.docapi.core.FileKind;
import dev.docapi.operations.InputFile;
import dev.docapi.operations.OperationContext;
import dev.docapi.operations.OperationFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
    private static final Logger log = LoggerFactory.getLogger(HtmlToPdfConverter.class);
    private final Chromium chromium;

    public HtmlToPdfConverter(Chromium chromium) {
        this.chromium = chromium;
    }

    @Override
    public boolean accepts(FileKind from, String extension, String to) {
        return from == FileKind.HTML && to.equals("pdf");
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
        java.util.List<String> blocked = new java.util.ArrayList<>();
        try {
            chromium.print(html, Chromium.PageSetup.A4, out, blocked);
        } catch (IOException e) {
            log.warn("printing {} failed: {}", in.file().id(), e.toString());
            throw new OperationFailure(ErrorCode.INVALID_FILE, "'" + in.file().name() + "' could not be printed to PDF: " + e.getMessage(), e);
        }
        return out;
    }
}
