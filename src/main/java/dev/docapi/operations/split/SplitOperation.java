package dev.docapi.operations.split;

import dev.docapi.core.ApiException;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.PageRange;
import dev.docapi.operations.ValidationContext;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.springframework.stereotype.Component;

/**
 * {@code POST /split}: a ZIP of PDFs, either one per {@code every} pages or one per {@code [from, to]} range;
 * {@code ranges} wins when both are given (DESIGN §4). Parts are named {@code <input>-pages-<from>-<to>.pdf}.
 */
@Component
public class SplitOperation implements Operation<SplitOperation.SplitOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record SplitOptions(int every, List<PageRange> ranges) {
    }

    private static final OptionSchema<SplitOptions> OPTIONS = OptionSchema.of(SplitOptions.class,
            OptionField.integer("every").min(1).defaultValue(1).description("Pages per part (default 1: one PDF per page)"),
            OptionField.ranges("ranges").maxItems(10_000)
                    .description("Parts as [from, to] page ranges (inclusive, from 1); wins over 'every'"));
    private static final OperationSpec<SplitOptions> SPEC = OperationSpec.of("split", "split_pdf",
            "Split a PDF into a ZIP of PDFs: every N pages (default 1), or by [from, to] page ranges.")
            .options(OPTIONS)
            .outputs(OutputMember.NOTE)
            .traits(OperationSpec.Trait.NOT_ONE_PDF_OUT);
    private final Qpdf qpdf;

    public SplitOperation(Qpdf qpdf) {
        this.qpdf = qpdf;
    }

    @Override
    public OperationSpec<SplitOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<SplitOptions> ctx) {
        Integer count = ctx.input().file().pages();
        for (PageRange r : ctx.options().ranges()) {
            if (count != null && r.to() > count) {
                throw ApiException.invalid("'ranges' has [" + r.from() + ", " + r.to() + "] but the document has " + count + " page" + (count == 1 ? "" : "s"));
            }
        }
    }

    @Override
    public OperationResult run(OperationContext<SplitOptions> ctx) throws Exception {
        Path in = ctx.input().path();
        String base = ctx.input().file().baseName();
        int pages = ctx.input().file().pages();
        List<PageRange> ranges = ctx.options().ranges();
        Path dir = ctx.tempDir("parts");
        List<Path> parts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        if (ranges.isEmpty()) {
            int every = ctx.options().every();
            parts.addAll(qpdf.splitEvery(in, every, dir));
            for (int from = 1; from <= pages; from += every) names.add(partName(base, from, Math.min(pages, from + every - 1)));
            if (parts.size() != names.size()) throw new IllegalStateException("qpdf wrote " + parts.size() + " parts, expected " + names.size());
        } else {
            for (int i = 0; i < ranges.size(); i++) {
                PageRange r = ranges.get(i);
                Path part = dir.resolve("range-" + i + ".pdf");
                qpdf.selectRange(in, r.from(), r.to(), part);
                parts.add(part);
                names.add(partName(base, r.from(), r.to()));
                ctx.progress(i + 1, ranges.size(), "parts");
            }
        }
        Path zip = ctx.output("split", "zip");
        try (OutputStream out = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(out)) {
            z.setLevel(Deflater.BEST_SPEED); // PDF streams are compressed already; deflating again buys little
            List<String> used = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                String name = unique(names.get(i), used);
                z.putNextEntry(new ZipEntry(name));
                Files.copy(parts.get(i), z);
                z.closeEntry();
            }
        }
        return OperationResult.ofNote(parts.size() + " part" + (parts.size() == 1 ? "" : "s"));
    }

    private static String partName(String base, int from, int to) {
        return from == to ? base + "-page-" + from + ".pdf" : base + "-pages-" + from + "-" + to + ".pdf";
    }

    /** Ranges may repeat; ZIP entry names may not. */
    private static String unique(String name, List<String> used) {
        String candidate = name;
        for (int n = 2; used.contains(candidate); n++) candidate = name.replaceFirst("\\.pdf$", "-" + n + ".pdf");
        used.add(candidate);
        return candidate;
    }
}
