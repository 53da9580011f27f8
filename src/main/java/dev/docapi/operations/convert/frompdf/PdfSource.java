package dev.docapi.operations.convert.frompdf;

import dev.docapi.core.ErrorCode;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.text.OcrText;
import java.io.IOException;
import java.nio.file.Path;
import org.springframework.stereotype.Component;

/**
 * What the pdf → x converters share: the page count, and a PDF with a text layer for those that need text (docx,
 * xlsx): pages without text are OCR'd first ({@link OcrText}, pages with text kept), so scans convert too.
 */
@Component
public class PdfSource {
    private final PdfBox pdfBox;
    private final OcrText ocrText;

    public PdfSource(PdfBox pdfBox, OcrText ocrText) {
        this.pdfBox = pdfBox;
        this.ocrText = ocrText;
    }

    /** The page count; {@code invalid_file} when the PDF cannot be opened or needs a password. */
    public int pages(InputFile in) throws OperationFailure {
        try {
            PdfBox.PdfInfo info = pdfBox.inspect(in.path());
            if (info.needsPassword()) throw new OperationFailure(ErrorCode.INVALID_FILE, "'" + in.file().name() + "' needs a password; unlock it first", null);
            return info.pages();
        } catch (IOException e) {
            throw new OperationFailure(ErrorCode.INVALID_FILE, "'" + in.file().name() + "' could not be read: " + e.getMessage(), e);
        }
    }

    /** A PDF with a text layer on every page it could get one, and the pages (from 1) whose text came from OCR. */
    public record Prepared(Path pdf, java.util.Set<Integer> ocrPages) {
    }

    /**
     * The input itself when every page has a text layer, else its OCR'd copy, kept with the file (progress is
     * reported in pages OCR'd); read it only.
     */
    public Prepared withText(InputFile in, int pages, OperationContext<?> ctx) throws EngineFailure, InterruptedException {
        OcrText.WithTextLayer read = ocrText.withTextLayer(in, pages, ctx.tempDir("ocr"),
                (done, total) -> ctx.progress(done, total, "pages OCR'd"));
        return new Prepared(read.pdf(), java.util.Set.copyOf(read.ocrPages()));
    }
}
