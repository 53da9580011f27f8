package dev.docapi.operations.verifysignatures;

import dev.docapi.core.J;
import dev.docapi.engines.dss.PdfSignatureValidator;
import dev.docapi.operations.NoOptions;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import dev.docapi.operations.sign.SignedInput;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /verify-signatures} (an addition beyond the spec, issue 27): every signature of a PDF validated with
 * DSS, offline, in {@code output.data.signatures} — field, signer, signing time, timestamp time, format, whether
 * the signature is intact (digest and signature value), whether it covers the whole document and whether the
 * document changed after it, DSS's indication and sub-indication, and the certificate chain with each certificate's
 * validity — and the same as a .json file. No trust list is configured, so a chain ends at an untrusted certificate
 * and an intact signature's indication is {@code INDETERMINATE} ({@code NO_CERTIFICATE_CHAIN_FOUND}).
 */
@Component
public class VerifySignaturesOperation implements Operation<NoOptions> {
    private static final JsonMapper JSON = JsonMapper.shared();
    private static final OperationSpec<NoOptions> SPEC = OperationSpec.of("verify-signatures", "verify_pdf_signatures",
            "Validate every digital signature of a PDF (DSS, offline) in output.data.signatures: signer, signing_time, intact, covers_whole_document, modified_after, indication, certificate_chain with validity. Addition beyond the spec.")
            .traits(OperationSpec.Trait.DATA_ONLY_OUTPUT)
            .outputs(OutputMember.DATA, OutputMember.NOTE);
    private final PdfSignatureValidator validator;
    private final SignedInput signedInput;

    public VerifySignaturesOperation(PdfSignatureValidator validator, SignedInput signedInput) {
        this.validator = validator;
        this.signedInput = signedInput;
    }

    /** Refuses a PDF of more than {@code DOCAPI_MAX_SIGNATURES} signatures, or a hostile one, before any job ({@link SignedInput}). */
    @Override
    public void validate(ValidationContext<NoOptions> ctx) {
        signedInput.check(ctx.input());
    }

    @Override
    public OperationSpec<NoOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<NoOptions> ctx) throws Exception {
        List<PdfSignatureValidator.Signature> signatures = validator.validate(ctx.input().path());
        JsonNode data = JSON.valueToTree(J.o("signatures", signatures.stream().map(VerifySignaturesOperation::json).toList()));
        Files.writeString(ctx.output("signatures", "json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(data));
        OperationResult result = OperationResult.empty().withData(data);
        return signatures.isEmpty() ? result.withNote("The PDF has no digital signatures.") : result;
    }

    private static Map<String, Object> json(PdfSignatureValidator.Signature s) {
        List<Map<String, Object>> chain = s.certificateChain().stream().map(c -> J.o("subject", c.subject(), "issuer", c.issuer(),
                "serial_number", c.serialNumber(), "not_before", text(c.notBefore()), "not_after", text(c.notAfter()),
                "self_signed", c.selfSigned(), "trusted", c.trusted())).toList();
        return J.o("field", s.field(), "signer", s.signer(), "signing_time", text(s.signingTime()), "timestamp_time", text(s.timestampTime()),
                "format", s.format(), "intact", s.intact(), "covers_whole_document", s.coversWholeDocument(), "modified_after", s.modifiedAfter(),
                "modifications", s.modifications(), "indication", s.indication(), "sub_indication", s.subIndication(),
                "certificate_valid_at_signing_time", s.certificateValidAtSigning(), "certificate_chain", chain);
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }
}
