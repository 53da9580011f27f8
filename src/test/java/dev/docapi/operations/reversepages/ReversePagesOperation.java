package dev.docapi.operations.reversepages;

import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;

/**
 * Test only: an operation written as a new one would be, in its own package and nowhere else. It is not a
 * {@code @Component} only so that other tests' service (and the OpenAPI dump) do not see it; {@link
 * ReversePagesOperationTest} imports it.
 */
public class ReversePagesOperation implements Operation<ReversePagesOperation.ReversePagesOptions> {
    /** The options, as {@link #SPEC} declares them. */
    public record ReversePagesOptions(boolean keepFirst) {
    }

    private static final OperationSpec<ReversePagesOptions> SPEC = OperationSpec.of("reverse-pages", "reverse_pages",
            "Test only: put the pages of a PDF in reverse order.")
            .options(OptionSchema.of(ReversePagesOptions.class, OptionField.bool("keep_first").description("Leave page 1 where it is")));

    @Override
    public OperationSpec<ReversePagesOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<ReversePagesOptions> ctx) throws Exception {
        try (PDDocument doc = Loader.loadPDF(ctx.input().path().toFile())) {
            List<PDPage> pages = new ArrayList<>();
            doc.getPages().forEach(pages::add);
            int from = ctx.options().keepFirst() ? 1 : 0;
            Collections.reverse(pages.subList(from, pages.size()));
            for (PDPage p : pages.subList(from, pages.size())) doc.removePage(p);
            for (PDPage p : pages.subList(from, pages.size())) doc.addPage(p);
            doc.save(ctx.output("reversed", "pdf").toFile());
        }
        return OperationResult.empty();
    }
}
