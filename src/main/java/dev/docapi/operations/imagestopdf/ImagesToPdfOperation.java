package dev.docapi.operations.imagestopdf;

import dev.docapi.engines.pdfbox.ImagePdfWriter;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.NoOptions;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import org.springframework.stereotype.Component;

/**
 * {@code POST /images-to-pdf} (spec §4.4): 1-50 images (JPEG, PNG, WebP, TIFF) → one PDF, one page per image (per
 * frame of a multi-frame TIFF) in the order given, each page sized to its image; JPEGs embedded without
 * recompression (see {@link ImagePdfWriter}). Output {@code <first input>-images.pdf}.
 */
@Component
public class ImagesToPdfOperation implements Operation<NoOptions> {
    private static final OperationSpec<NoOptions> SPEC = OperationSpec.of("images-to-pdf", "images_to_pdf",
            "Combine 1-50 images (JPG, PNG, WebP, TIFF) into one PDF, one page per image in the order given, each page the size of its image; JPEGs are not recompressed.")
            .inputs(Inputs.many(1, 50, FileKind.IMAGE));
    private final ImagePdfWriter writer;

    public ImagesToPdfOperation(ImagePdfWriter writer) {
        this.writer = writer;
    }

    @Override
    public OperationSpec<NoOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<NoOptions> ctx) throws Exception {
        var sources = ctx.inputs().stream().map(in -> new ImagePdfWriter.Source(in.path(), in.file().name())).toList();
        writer.write(sources, ctx.output("images", "pdf"), done -> ctx.progress(done, sources.size(), "images"));
        return OperationResult.empty();
    }
}
