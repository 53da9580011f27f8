package dev.docapi.operations.merge;

import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.NoOptions;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import org.springframework.stereotype.Component;

/** {@code POST /merge}: 2-50 PDFs joined in the order given, links, outlines and forms kept by qpdf (spec §4.4). */
@Component
public class MergeOperation implements Operation<NoOptions> {
    private static final OperationSpec<NoOptions> SPEC = OperationSpec.of("merge", "merge_pdfs",
            "Merge 2 to 50 PDFs into one, in the order given.")
            .inputs(Inputs.many(2, 50, FileKind.PDF));
    private final Qpdf qpdf;

    public MergeOperation(Qpdf qpdf) {
        this.qpdf = qpdf;
    }

    @Override
    public OperationSpec<NoOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<NoOptions> ctx) throws Exception {
        qpdf.merge(ctx.inputs().stream().map(InputFile::path).toList(), ctx.output("merged", "pdf"));
        return OperationResult.empty();
    }
}
