package dev.docapi.operations.pdfa;

import dev.docapi.core.FileKind;
import dev.docapi.core.J;
import dev.docapi.engines.verapdf.PdfaLevel;
import dev.docapi.engines.verapdf.VeraPdf;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /validate-pdfa} (an addition beyond the spec, issue 27): veraPDF's verdict on a PDF in
 * {@code output.data} — {@code compliant}, the {@code conformance} validated (the one asked, else the one the file's
 * XMP metadata claims, else 2b), the {@code declared} one and the {@code failed_rules} (rule id as clause-test, e.g.
 * {@code 6.2.11.4.1-1}, the standard, what the rule requires and how many objects break it), {@code unreadable} (why
 * veraPDF could not read the file at all, else null) — and in words in {@code output.note}. No output file. A file
 * PDFBox opens (validation refuses one it cannot with {@code invalid_file}) but veraPDF cannot parse — damaged beyond
 * its parser's recovery, or encrypted — is not PDF/A: {@code compliant: false} with the reason, not a failed job.
 */
@Component
public class ValidatePdfaOperation implements Operation<ValidatePdfaOperation.ValidatePdfaOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record ValidatePdfaOptions(PdfaLevel conformance) {
    }

    private static final JsonMapper JSON = JsonMapper.shared();
    private static final OptionSchema<ValidatePdfaOptions> OPTIONS = OptionSchema.of(ValidatePdfaOptions.class,
            OptionField.choice("conformance", PdfaLevel.class)
                    .description("The PDF/A part and level to validate against; by default the one the file claims in its metadata, or 2b when it claims none"));
    private static final OperationSpec<ValidatePdfaOptions> SPEC = OperationSpec.of("validate-pdfa", "validate_pdfa",
            "Check whether a PDF conforms to PDF/A with veraPDF: output.data.compliant, the conformance level checked and the failed rules (id, standard, description, count). Addition beyond the spec.")
            .inputs(Inputs.one(FileKind.PDF))
            .options(OPTIONS)
            .traits(OperationSpec.Trait.DATA_ONLY_OUTPUT)
            .outputs(OutputMember.DATA, OutputMember.NOTE);
    private final VeraPdf veraPdf;

    public ValidatePdfaOperation(VeraPdf veraPdf) {
        this.veraPdf = veraPdf;
    }

    @Override
    public OperationSpec<ValidatePdfaOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<ValidatePdfaOptions> ctx) throws Exception {
        VeraPdf.Verdict verdict = veraPdf.validate(ctx.input().path(), ctx.options().conformance());
        String note = verdict.compliant()
                ? "The PDF conforms to PDF/A-" + verdict.level() + " (veraPDF)."
                : verdict.unreadable() != null
                ? "The PDF does not conform to PDF/A-" + verdict.level() + ": " + verdict.unreadable() + "."
                : "The PDF does not conform to PDF/A-" + verdict.level() + ": it breaks " + rules(verdict) + " — " + verdict.summary() + "."
                  + (verdict.declared() == null ? " It does not claim to be PDF/A in its metadata." : "");
        return OperationResult.ofNote(note).withData(data(verdict));
    }

    /** {@code output.data} of a verdict: {@code compliant}, {@code conformance}, {@code declared}, {@code failed_rules}, {@code unreadable}. */
    static JsonNode data(VeraPdf.Verdict v) {
        java.util.Map<String, Object> data = J.o("compliant", v.compliant(), "conformance", v.level());
        data.put("declared", v.declared()); // null when the file claims no PDF/A level
        data.put("failed_rules", v.failedRules().stream().map(r -> J.o("rule", r.rule(), "specification", r.specification(),
                        "description", r.description(), "checks", r.checks())).toList());
        data.put("unreadable", v.unreadable()); // null when veraPDF read the file
        return JSON.valueToTree(data);
    }

    /** "1 rule of ISO 19005-2:2011" / "12 rules of ISO 19005-2:2011". */
    static String rules(VeraPdf.Verdict v) {
        int n = v.failedRules().size();
        String spec = n == 0 ? "" : " of " + v.failedRules().getFirst().specification();
        return n + (n == 1 ? " rule" : " rules") + spec;
    }
}
