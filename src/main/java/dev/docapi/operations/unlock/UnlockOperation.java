package dev.docapi.operations.unlock;

import dev.docapi.core.ApiException;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.ValidationContext;
import org.springframework.stereotype.Component;

/**
 * {@code POST /unlock}: removes a PDF's encryption. {@code password} (user or owner) is required when the file needs
 * one to open; a file that only restricts printing or copying is unlocked without it (spec §4.4).
 */
@Component
public class UnlockOperation implements Operation<UnlockOperation.UnlockOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record UnlockOptions(String password) {
    }

    private static final OptionSchema<UnlockOptions> OPTIONS = OptionSchema.of(UnlockOptions.class,
            OptionField.string("password").maxLength(127).secret()
                    .description("The password that opens the PDF; not needed when it only restricts printing or copying"));
    private static final OperationSpec<UnlockOptions> SPEC = OperationSpec.of("unlock", "unlock_pdf",
            "Remove a PDF's password and restrictions; give the password unless the PDF only restricts printing or copying.")
            .options(OPTIONS)
            .traits(OperationSpec.Trait.ACCEPTS_ENCRYPTED_INPUT);
    private final Qpdf qpdf;
    private final PdfBox pdfBox;

    public UnlockOperation(Qpdf qpdf, PdfBox pdfBox) {
        this.qpdf = qpdf;
        this.pdfBox = pdfBox;
    }

    @Override
    public OperationSpec<UnlockOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<UnlockOptions> ctx) {
        String password = ctx.options().password();
        if (!ctx.input().file().encrypted()) return;
        if (password == null) throw ApiException.invalid("'password' is required: this PDF needs a password to open");
        if (!pdfBox.opensWith(ctx.input().path(), password)) throw ApiException.invalid("the password does not open this PDF");
    }

    @Override
    public OperationResult run(OperationContext<UnlockOptions> ctx) throws Exception {
        // A file that opens without a password only carries restrictions: qpdf needs no password to drop them.
        String password = ctx.input().file().encrypted() ? ctx.options().password() : null;
        qpdf.decrypt(ctx.input().path(), password, ctx.output("unlocked", "pdf"));
        return OperationResult.empty();
    }
}
