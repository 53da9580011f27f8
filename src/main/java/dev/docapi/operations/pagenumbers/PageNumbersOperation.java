package dev.docapi.operations.pagenumbers;

import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.springframework.stereotype.Component;

/**
 * {@code POST /page-numbers} (spec §4.4): numbers every page 1..n at {@code position}, upright as the page is shown
 * (its {@code /Rotate} and CropBox respected). Output {@code <input>-numbered.pdf}.
 */
@Component
public class PageNumbersOperation implements Operation<PageNumbersOperation.PageNumbersOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record PageNumbersOptions(PageNumberPosition position) {
    }

    private static final OptionSchema<PageNumbersOptions> OPTIONS = OptionSchema.of(PageNumbersOptions.class,
            OptionField.choice("position", PageNumberPosition.class).defaultValue(PageNumberPosition.BOTTOM_CENTER)
                    .description("Where the number goes, as the page is seen"));
    private static final OperationSpec<PageNumbersOptions> SPEC = OperationSpec.of("page-numbers", "add_page_numbers",
            "Number the pages of a PDF 1, 2, 3 ... at the bottom or top (left, centre or right), upright on rotated pages too. Returns the numbered PDF.")
            .options(OPTIONS);
    private final PdfBox pdfBox;

    public PageNumbersOperation(PdfBox pdfBox) {
        this.pdfBox = pdfBox;
    }

    @Override
    public OperationSpec<PageNumbersOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<PageNumbersOptions> ctx) throws Exception {
        PageNumberStamper stamper = new PageNumberStamper(ctx.options().position());
        try (PDDocument doc = pdfBox.open(ctx.input().path(), null, ctx.tempDir("open"))) {
            int total = doc.getNumberOfPages();
            for (int i = 0; i < total; i++) {
                stamper.stamp(doc, doc.getPage(i), i + 1);
                if ((i + 1) % 10 == 0 || i + 1 == total) ctx.progress(i + 1, total, "pages");
            }
            // A PDF that opens without a password may still carry owner restrictions (or RC4): PDFBox cannot re-encrypt
            // without the owner password, and unlock lifts such restrictions anyway (spec §4.4), so the output is plain.
            doc.setAllSecurityToBeRemoved(true);
            PdfBox.save(doc, ctx.output("numbered", "pdf"));
        }
        return OperationResult.empty();
    }
}
