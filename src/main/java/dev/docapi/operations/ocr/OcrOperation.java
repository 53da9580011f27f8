package dev.docapi.operations.ocr;

import dev.docapi.engines.Engine;
import dev.docapi.engines.EngineCheck;
import dev.docapi.engines.ocrmypdf.Ocrmypdf;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.operations.NoOptions;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import dev.docapi.text.OcrOnce;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * {@code POST /ocr} (spec §4.4): the PDF with an invisible English + Arabic text layer beneath its page images.
 * Pages that already have text keep it untouched (DESIGN §4); skewed scans are straightened and sideways pages
 * turned upright. Progress counts pages. A page that uses a damaged stream is OCR'd from a picture of it, and
 * {@code output.note} says it was repaired (issue 16). A sound PDF whose every page has text is returned unchanged,
 * without OCR (issue 12). The OCR is kept with the file and reused by later operations on it ({@link OcrOnce}).
 */
@Component
public class OcrOperation implements Operation<NoOptions> {
    private static final OperationSpec<NoOptions> SPEC = OperationSpec.of("ocr", "ocr_pdf",
            "Add a searchable text layer (English and Arabic) beneath the page images of a scanned PDF. Pages that already have text keep it; skewed and rotated scans are straightened.")
            .outputs(OutputMember.NOTE)
            .deadline(OperationSpec.OCR_DEADLINE);
    private final OcrOnce ocrOnce;
    private final Poppler poppler;
    private final Qpdf qpdf;
    private final EngineCheck engines;

    public OcrOperation(OcrOnce ocrOnce, Poppler poppler, Qpdf qpdf, EngineCheck engines) {
        this.ocrOnce = ocrOnce;
        this.poppler = poppler;
        this.qpdf = qpdf;
        this.engines = engines;
    }

    @Override
    public OperationSpec<NoOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<NoOptions> ctx) {
        engines.require(Engine.OCRMYPDF, Engine.TESSERACT, Engine.PDFTOTEXT);
    }

    @Override
    public OperationResult run(OperationContext<NoOptions> ctx) throws Exception {
        Path in = ctx.input().path();
        Integer known = ctx.input().file().pages();
        int pages = known != null ? known : poppler.pageTexts(in).size();
        List<Integer> toOcr = poppler.pagesWithoutText(in);
        int withText = pages - toOcr.size();
        if (toOcr.isEmpty() && qpdf.undecodableStreams(in).isEmpty()) {
            // Nothing to recognise (issue 12): OCRmyPDF would spend a minute per 50 pages to change nothing. A page
            // with a damaged stream may show some text yet lose the rest: it still goes through OCR's repair (issue 16).
            Files.copy(in, ctx.output("ocr", "pdf"), StandardCopyOption.REPLACE_EXISTING);
            ctx.progress(pages, pages, "pages");
            return OperationResult.ofNote("Every page already had a text layer; the PDF is returned unchanged, without OCR.");
        }
        ctx.progress(withText, pages, "pages");
        OcrOnce.Result ocr = ocrOnce.ocr(ctx.input(), pages, ctx.tempDir("ocr"),
                done -> ctx.progress(Math.min(pages, withText + done), pages, "pages"));
        Files.copy(ocr.pdf(), ctx.output("ocr", "pdf"), StandardCopyOption.REPLACE_EXISTING);
        List<Integer> repaired = ocr.repaired();
        ctx.progress(pages, pages, "pages");
        String note = "OCR'd " + toOcr.size() + " of " + pages + " page" + (pages == 1 ? "" : "s") + " (English and Arabic)"
                        + (withText > 0 ? "; " + withText + " page" + (withText == 1 ? "" : "s") + " with a text layer kept theirs." : ".");
        String repairedNote = Ocrmypdf.repairedNote(repaired);
        return OperationResult.ofNote(repairedNote == null ? note : note + " " + repairedNote);
    }
}
