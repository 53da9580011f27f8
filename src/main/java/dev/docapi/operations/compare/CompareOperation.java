package dev.docapi.operations.compare;

import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.NoOptions;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.compare.PdfWords.Word;
import java.util.List;
import java.util.TreeSet;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.springframework.stereotype.Component;

/**
 * {@code POST /compare} (spec §4.4): {@code files} = two PDFs; the output is one PDF that opens on a summary page and
 * then shows page {@code i} of {@code files[0]} beside page {@code i} of {@code files[1]}, words deleted from the first
 * highlighted in red where they stood, words inserted into the second in green. {@code output.note} gives the counts.
 * Side by side, because a deleted word only has a place in the old document: laying it over the new page would
 * have to invent a position.
 */
@Component
public class CompareOperation implements Operation<NoOptions> {
    private static final OperationSpec<NoOptions> SPEC = OperationSpec.of("compare", "compare_pdfs",
            "Compare the text of two PDFs word by word. Returns a PDF with a summary page, then each page of the first "
            + "file beside the same page of the second, deleted words highlighted in red and inserted words in green; "
            + "the note gives the counts.")
            .inputs(Inputs.many(2, 2, FileKind.PDF))
            .outputs(OutputMember.NOTE);
    /** How long the whole-document word diff may run before falling back to page-by-page (see {@link WordDiff}). */
    private static final long WHOLE_DIFF_BUDGET_MS = 20_000;
    private final PdfBox pdfBox;

    public CompareOperation(PdfBox pdfBox) {
        this.pdfBox = pdfBox;
    }

    @Override
    public OperationSpec<NoOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<NoOptions> ctx) throws Exception {
        InputFile first = ctx.inputs().get(0);
        InputFile second = ctx.inputs().get(1);
        // encrypted inputs are refused before the job (OperationService), so no password is needed here
        String password = null;
        try (PDDocument a = pdfBox.open(first.path(), password, ctx.tempDir("a"));
             PDDocument b = pdfBox.open(second.path(), password, ctx.tempDir("b"))) {
            int pagesA = a.getNumberOfPages();
            int pagesB = b.getNumberOfPages();
            int sideBySide = Math.max(pagesA, pagesB);
            // progress: reading both documents, then composing the output pages
            int total = pagesA + pagesB + sideBySide;
            List<Word> wordsA = PdfWords.of(a, p -> ctx.progress(p, total, "pages"));
            List<Word> wordsB = PdfWords.of(b, p -> ctx.progress(pagesA + p, total, "pages"));
            WordDiff.Result diff = WordDiff.diff(wordsA, wordsB, WHOLE_DIFF_BUDGET_MS);

            TreeSet<Integer> changed = new TreeSet<>();
            diff.deleted().forEach(w -> changed.add(w.page() + 1));
            diff.inserted().forEach(w -> changed.add(w.page() + 1));
            ComparisonReport.Summary summary = new ComparisonReport.Summary(first.file().name(), pagesA, wordsA.size(),
                    second.file().name(), pagesB, wordsB.size(), diff.deleted().size(), diff.inserted().size(),
                    List.copyOf(changed), diff.pageByPage());
            ComparisonReport.write(a, b, diff, summary, ctx.output(first.file().baseName() + "-compared.pdf"),
                    p -> ctx.progress(pagesA + pagesB + p, total, "pages"));
            return OperationResult.ofNote(summary.note());
        }
    }
}
