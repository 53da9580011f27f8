package dev.docapi.operations.rotate;

import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.ValidationContext;
import java.util.List;
import org.springframework.stereotype.Component;

/** {@code POST /rotate}: adds 90, 180 or 270 degrees to the rotation of all pages or of {@code pages} (spec §4.4). */
@Component
public class RotateOperation implements Operation<RotateOperation.RotateOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record RotateOptions(int angle, List<Integer> pages) {
    }

    private static final OptionSchema<RotateOptions> OPTIONS = OptionSchema.of(RotateOptions.class,
            OptionField.integer("angle").oneOf(90, 180, 270).required()
                    .description("Degrees clockwise, added to each page's current rotation"),
            OptionField.integers("pages", 1)
                    .description("Page numbers (from 1) to rotate; all pages when omitted"));
    private static final OperationSpec<RotateOptions> SPEC = OperationSpec.of("rotate", "rotate_pdf",
            "Rotate all pages of a PDF, or the pages listed, clockwise by 90, 180 or 270 degrees (added to their current rotation).")
            .options(OPTIONS);
    private final Qpdf qpdf;

    public RotateOperation(Qpdf qpdf) {
        this.qpdf = qpdf;
    }

    @Override
    public OperationSpec<RotateOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<RotateOptions> ctx) {
        ctx.requirePagesExist("pages", ctx.options().pages());
    }

    @Override
    public OperationResult run(OperationContext<RotateOptions> ctx) throws Exception {
        qpdf.rotate(ctx.input().path(), ctx.options().angle(), ctx.options().pages(), ctx.output("rotated", "pdf"));
        return OperationResult.empty();
    }
}
