package dev.docapi.operations.protect;

import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import org.springframework.stereotype.Component;

/**
 * {@code POST /protect}: encrypts with AES-256 (PDF 2.0 / R6) so that {@code password} is needed to open the file.
 * The same password is the owner password, so whoever opens it has full rights (spec §4.4).
 */
@Component
public class ProtectOperation implements Operation<ProtectOperation.ProtectOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record ProtectOptions(String password) {
    }

    private static final OptionSchema<ProtectOptions> OPTIONS = OptionSchema.of(ProtectOptions.class,
            OptionField.string("password").minLength(1).maxLength(127).required().secret()
                    .description("The password needed to open the PDF (1-127 characters); never stored"));
    private static final OperationSpec<ProtectOptions> SPEC = OperationSpec.of("protect", "protect_pdf",
            "Protect a PDF with a password (AES-256 encryption); the password is needed to open it.")
            .options(OPTIONS);
    private final Qpdf qpdf;

    public ProtectOperation(Qpdf qpdf) {
        this.qpdf = qpdf;
    }

    @Override
    public OperationSpec<ProtectOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<ProtectOptions> ctx) throws Exception {
        String password = ctx.options().password();
        qpdf.encryptAes256(ctx.input().path(), password, password, ctx.output("protected", "pdf"));
        return OperationResult.empty();
    }
}
