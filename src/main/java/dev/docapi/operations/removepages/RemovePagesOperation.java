package dev.docapi.operations.removepages;

import dev.docapi.core.ApiException;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.ValidationContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Component;

/** {@code POST /remove-pages}: drops the pages listed; removing every page is refused (spec §4.4). */
@Component
public class RemovePagesOperation implements Operation<RemovePagesOperation.RemovePagesOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record RemovePagesOptions(List<Integer> pages) {
    }

    private static final OptionSchema<RemovePagesOptions> OPTIONS = OptionSchema.of(RemovePagesOptions.class,
            OptionField.integers("pages", 1).minItems(1).maxItems(10_000).required()
                    .description("Page numbers (from 1) to remove"));
    private static final OperationSpec<RemovePagesOptions> SPEC = OperationSpec.of("remove-pages", "remove_pages",
            "Remove the listed pages from a PDF; the other pages keep their order.")
            .options(OPTIONS);
    private final Qpdf qpdf;

    public RemovePagesOperation(Qpdf qpdf) {
        this.qpdf = qpdf;
    }

    @Override
    public OperationSpec<RemovePagesOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<RemovePagesOptions> ctx) {
        List<Integer> pages = ctx.options().pages();
        ctx.requirePagesExist("pages", pages);
        Integer count = ctx.input().file().pages();
        if (count != null && new HashSet<>(pages).size() >= count) {
            throw ApiException.invalid("'pages' lists every page of the document; at least one page must remain");
        }
    }

    @Override
    public OperationResult run(OperationContext<RemovePagesOptions> ctx) throws Exception {
        Set<Integer> removed = new HashSet<>(ctx.options().pages());
        List<Integer> kept = new ArrayList<>();
        for (int p = 1; p <= ctx.input().file().pages(); p++) if (!removed.contains(p)) kept.add(p);
        qpdf.selectPages(ctx.input().path(), kept, ctx.output("pages-removed", "pdf"));
        return OperationResult.empty();
    }
}
