package dev.docapi.operations.organize;

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

/** {@code POST /organize}: keeps exactly the pages listed, in that order; a page may appear more than once (spec §4.4). */
@Component
public class OrganizeOperation implements Operation<OrganizeOperation.OrganizeOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record OrganizeOptions(List<Integer> pages) {
    }

    private static final OptionSchema<OrganizeOptions> OPTIONS = OptionSchema.of(OrganizeOptions.class,
            OptionField.integers("pages", 1).minItems(1).maxItems(10_000).required()
                    .description("Page numbers (from 1) in the new order; pages not listed are dropped"));
    private static final OperationSpec<OrganizeOptions> SPEC = OperationSpec.of("organize", "organize_pdf",
            "Reorder a PDF's pages: keeps exactly the pages listed, in the order listed (duplicates allowed).")
            .options(OPTIONS);
    private final Qpdf qpdf;

    public OrganizeOperation(Qpdf qpdf) {
        this.qpdf = qpdf;
    }

    @Override
    public OperationSpec<OrganizeOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<OrganizeOptions> ctx) {
        ctx.requirePagesExist("pages", ctx.options().pages());
    }

    @Override
    public OperationResult run(OperationContext<OrganizeOptions> ctx) throws Exception {
        qpdf.selectPages(ctx.input().path(), ctx.options().pages(), ctx.output("organized", "pdf"));
        return OperationResult.empty();
    }
}
