package dev.docapi.operations.extracttext;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.docapi.core.ApiException;
import dev.docapi.engines.Engine;
import dev.docapi.engines.EngineCheck;
import dev.docapi.engines.ocrmypdf.Ocrmypdf;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import dev.docapi.text.OcrText;
import dev.docapi.document.DocumentReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.stereotype.Component;

/**
 * {@code POST /extract-text} (spec §4.4): the text of a PDF or image as {@code output.text} and a {@code .txt} file.
 * Pages are separated by a form feed ({@code \f}). {@code ocr}: {@code auto} (default, DESIGN §4) reads each page's
 * text layer and OCRs only the pages that have none (once per file: the OCR is kept with it); {@code always} OCRs
 * every page afresh; {@code never} reads text layers only. Images are always OCR'd. A text layer is read through the
 * document model ({@link DocumentReader#pageTexts}: columns one after the other, paragraphs separated by blank
 * lines, table rows as tab-separated lines, right-to-left text in logical order); OCR text comes from Tesseract's own
 * output in logical order (never re-extracted from a PDF).
 */
@Component
public class ExtractTextOperation implements Operation<ExtractTextOperation.ExtractTextOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record ExtractTextOptions(Ocr ocr) {
    }

    /** When pages are OCR'd; in JSON as {@code auto}, {@code always}, {@code never}. */
    public enum Ocr {
        /** Only pages without a text layer. */
        AUTO,
        /** Every page. */
        ALWAYS,
        /** None: the text layer alone. */
        NEVER;

        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final OptionSchema<ExtractTextOptions> OPTIONS = OptionSchema.of(ExtractTextOptions.class,
            OptionField.choice("ocr", Ocr.class).defaultValue(Ocr.AUTO)
                    .description("auto: OCR only pages without a text layer; always: OCR every page; never: text layer only. Images are always OCR'd."));
    private static final OperationSpec<ExtractTextOptions> SPEC = OperationSpec.of("extract-text", "extract_text",
            "Extract the text of a PDF or image (English and Arabic OCR where needed) as output.text and a .txt file; pages are separated by form feeds.")
            .inputs(Inputs.one(FileKind.PDF, FileKind.IMAGE))
            .options(OPTIONS)
            .traits(OperationSpec.Trait.DATA_ONLY_OUTPUT)
            .outputs(OutputMember.TEXT, OutputMember.NOTE)
            .deadline(OperationSpec.OCR_DEADLINE);
    private final DocumentReader documents;
    private final OcrText ocrText;
    private final EngineCheck engines;

    public ExtractTextOperation(DocumentReader documents, OcrText ocrText, EngineCheck engines) {
        this.documents = documents;
        this.ocrText = ocrText;
        this.engines = engines;
    }

    @Override
    public OperationSpec<ExtractTextOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<ExtractTextOptions> ctx) {
        Ocr ocr = ctx.options().ocr();
        if (ctx.input().file().kind() == FileKind.IMAGE) {
            if (ocr == Ocr.NEVER) throw ApiException.invalid("an image has no text layer: use 'ocr' auto or always to read it");
            engines.require(Engine.TESSERACT);
        } else {
            engines.require(Engine.PDFTOTEXT);
            if (ocr != Ocr.NEVER) engines.require(Engine.OCRMYPDF, Engine.TESSERACT, Engine.QPDF);
        }
    }

    @Override
    public OperationResult run(OperationContext<ExtractTextOptions> ctx) throws Exception {
        List<Integer> repaired = new ArrayList<>();
        String text = ctx.input().file().kind() == FileKind.IMAGE ? image(ctx) : pdf(ctx, ctx.options().ocr(), repaired);
        Files.writeString(ctx.output("text", "txt"), text, StandardCharsets.UTF_8);
        return OperationResult.ofText(text).withNote(Ocrmypdf.repairedNote(repaired));
    }

    private String image(OperationContext<ExtractTextOptions> ctx) throws Exception {
        ctx.progress(0, 1, "images");
        String text = ocrText.image(ctx.input().path(), ctx.tempDir("tesseract"));
        ctx.progress(1, 1, "images");
        return join(List.of(text.split("\f", -1)));
    }

    /** The text of each page; pages OCR'd from a picture because they were damaged are added to {@code repaired}. */
    private String pdf(OperationContext<ExtractTextOptions> ctx, Ocr ocr, List<Integer> repaired) throws Exception {
        OcrText.Progress progress = (done, total) -> ctx.progress(done, total, "pages");
        OcrText.Pages read = ocr == Ocr.ALWAYS ? ocrText.pages(ctx.input(), true, ctx.tempDir("ocr"), progress)
                : documents.pageTexts(ctx.input(), ocr == Ocr.AUTO, ctx.tempDir("text"), progress);
        repaired.addAll(read.repaired());
        return join(read.texts());
    }

    /** Pages, each without trailing blank lines, separated by form feeds. */
    static String join(List<String> pages) {
        List<String> cleaned = new ArrayList<>();
        for (String p : pages) cleaned.add(p.stripTrailing());
        while (cleaned.size() > 1 && cleaned.getLast().isEmpty()) cleaned.removeLast();
        return String.join("\f", cleaned);
    }
}
