package dev.docapi.operations.pdfa;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.FileKind;
import dev.docapi.engines.Engine;
import dev.docapi.engines.EngineCheck;
import dev.docapi.engines.ghostscript.Ghostscript;
import dev.docapi.engines.pdfbox.PdfaPreparation;
import dev.docapi.engines.verapdf.PdfaLevel;
import dev.docapi.engines.verapdf.VeraPdf;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import dev.docapi.operations.compress.ContentCheck;
import dev.docapi.operations.convert.OfficeToPdfConverter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * {@code POST /pdfa} (an addition beyond the spec, issue 27): the file as PDF/A-1b, 2b, 2u or 3b. An Office file is
 * first converted to PDF by LibreOffice; the form is flattened and annotations made printable with PDFBox; Ghostscript
 * writes the PDF/A (fonts embedded, colours converted to RGB with an sRGB output intent, encryption removed,
 * transparency and JavaScript dropped where the level forbids them); then veraPDF validates it. The file is returned
 * only when veraPDF finds it conforms and it kept the text layer, links and other annotations, pages, outline and
 * embedded files of the prepared input ({@link ContentCheck}). Outline items Ghostscript dropped are copied back from
 * the prepared file; when Ghostscript's output still loses text or breaks a rule, the prepared file itself is tried,
 * marked as PDF/A without rewriting its content ({@link PdfaPreparation#claimAsIs}), under the same two checks
 * (issue 37). Otherwise the job fails with {@code internal_error}
 * (502), naming veraPDF's failed rules (also in the failed job's {@code output.data}) or what was lost.
 * {@code output.data} carries veraPDF's verdict ({@link ValidatePdfaOperation#data}).
 */
@Component
public class PdfaOperation implements Operation<PdfaOperation.PdfaOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record PdfaOptions(PdfaLevel conformance) {
    }

    /** {@link ContentCheck#lost}'s words when only outline items are missing. */
    private static final String OUTLINE_LOST = "outline items (bookmarks)";
    /** Where an sRGB profile is found when {@code docapi.pdfa.icc-profile} names none: Ghostscript's, then colord's. */
    private static final List<Path> ICC_PROFILES = List.of(Path.of("/usr/share/color/icc/ghostscript/srgb.icc"),
            Path.of("/usr/share/color/icc/sRGB.icc"));
    private static final OptionSchema<PdfaOptions> OPTIONS = OptionSchema.of(PdfaOptions.class,
            // the levels docapi writes: Ghostscript writes parts 1-3 at level B; U is B with every glyph mapped to Unicode
            OptionField.choice("conformance", PdfaLevel.PDFA_1B, PdfaLevel.PDFA_2B, PdfaLevel.PDFA_2U, PdfaLevel.PDFA_3B).defaultValue(PdfaLevel.PDFA_2B)
                    .description("PDF/A part and level: 1b (ISO 19005-1), 2b (ISO 19005-2), 2u (2b with all text mapped to Unicode), 3b (ISO 19005-3)"));
    private static final OperationSpec<PdfaOptions> SPEC = OperationSpec.of("pdfa", "convert_to_pdfa",
            "Convert a PDF or an Office file to PDF/A (1b, 2b, 2u or 3b) for archiving: fonts embedded, sRGB output intent, forms flattened, text layer and links kept; the result is validated with veraPDF and returned only if it conforms (otherwise the job fails naming the failed rules). Addition beyond the spec.")
            .inputs(Inputs.one(FileKind.PDF, FileKind.OFFICE))
            .options(OPTIONS)
            .outputs(OutputMember.DATA, OutputMember.NOTE);

    private final OfficeToPdfConverter office;
    private final PdfaPreparation preparation;
    private final Ghostscript ghostscript;
    private final VeraPdf veraPdf;
    private final ContentCheck contentCheck;
    private final EngineCheck engines;
    private final String iccProfile;

    /** @param iccProfile the sRGB ICC profile of the output intent ({@code DOCAPI_PDFA_ICC_PROFILE}); empty: the first of {@link #ICC_PROFILES} */
    public PdfaOperation(OfficeToPdfConverter office, PdfaPreparation preparation, Ghostscript ghostscript, VeraPdf veraPdf,
                         ContentCheck contentCheck, EngineCheck engines, @Value("${docapi.pdfa.icc-profile:}") String iccProfile) {
        this.office = office;
        this.preparation = preparation;
        this.ghostscript = ghostscript;
        this.veraPdf = veraPdf;
        this.contentCheck = contentCheck;
        this.engines = engines;
        this.iccProfile = iccProfile;
    }

    @Override
    public OperationSpec<PdfaOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<PdfaOptions> ctx) {
        engines.require(Engine.GS, Engine.PDFTOTEXT);
        if (iccProfile() == null) {
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "PDF/A needs an sRGB ICC profile, and none is installed on this server");
        }
        if (ctx.input().file().kind() == FileKind.OFFICE && !office.available()) {
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "converting an Office file to PDF/A needs LibreOffice, which is not installed on this server");
        }
    }

    @Override
    public OperationResult run(OperationContext<PdfaOptions> ctx) throws Exception {
        PdfaLevel level = ctx.options().conformance();
        Path work = ctx.tempDir("pdfa");
        Path source = ctx.input().path();
        int total = ctx.input().file().kind() == FileKind.OFFICE ? 4 : 3;
        int done = 0;
        ctx.progress(done, total, "steps");
        if (ctx.input().file().kind() == FileKind.OFFICE) {
            source = work.resolve("office.pdf");
            office.convert(ctx.input(), source, ctx);
            ctx.progress(++done, total, "steps");
        }
        Path prepared = work.resolve("prepared.pdf");
        PdfaPreparation.Prepared changes = preparation.prepare(source, prepared, work);
        Path converted = work.resolve("pdfa.pdf");
        ghostscript.pdfa(prepared, level.part(), iccProfile(), converted);
        if (level.unicode()) preparation.claimConformance(converted, "U", work);
        ctx.progress(++done, total, "steps");
        ContentCheck.Content before = contentCheck.read(prepared);
        // veraPDF first: when the file both fails a rule and lost content, the rule says more about why
        VeraPdf.Verdict verdict = veraPdf.validate(converted, level);
        String lost = verdict.compliant() ? lost(before, converted) : null;
        if (OUTLINE_LOST.equals(lost)) {
            // Ghostscript drops outline items it cannot resolve in a repaired file: the prepared file's outline, copied
            preparation.copyOutline(prepared, converted, work);
            verdict = veraPdf.validate(converted, level);
            lost = verdict.compliant() ? lost(before, converted) : null;
        }
        Path pdfa = converted;
        boolean asIs = false;
        String asIsFailed = "";
        if (!verdict.compliant() || lost != null) {
            // Ghostscript re-encodes fonts it cannot keep (Type 3, CID fonts without a Unicode map, invisible OCR
            // text) and so loses their text, or leaves what a rule forbids: the prepared file itself, marked as
            // PDF/A, when veraPDF accepts it and it keeps everything
            Path kept = work.resolve("pdfa-as-is.pdf");
            preparation.claimAsIs(prepared, level.part(), level.id().substring(1).toUpperCase(java.util.Locale.ROOT),
                    iccProfile(), kept, work);
            VeraPdf.Verdict keptVerdict = veraPdf.validate(kept, level);
            String keptLost = keptVerdict.compliant() ? lost(before, kept) : null;
            if (keptVerdict.compliant() && keptLost == null) {
                pdfa = kept;
                verdict = keptVerdict;
                lost = null;
                asIs = true;
            } else {
                asIsFailed = " Kept as it was instead, it " + (keptLost != null ? "lost " + keptLost : keptVerdict.unreadable() != null
                        ? "could not be read by veraPDF" : "breaks " + String.join(", ", keptVerdict.failedRules().stream().map(VeraPdf.FailedRule::rule).toList())) + ".";
            }
        }
        ctx.progress(++done, total, "steps");
        if (!verdict.compliant()) {
            String why = verdict.unreadable() != null ? "veraPDF could not read the converted file (" + verdict.unreadable() + ")"
                    : "veraPDF found that the converted file breaks " + ValidatePdfaOperation.rules(verdict) + " — " + verdict.summary();
            throw new OperationFailure(ErrorCode.INTERNAL_ERROR, "The file could not be made PDF/A-" + level.id() + ": " + why + "." + asIsFailed + " No PDF/A is returned.", null,
                    OperationResult.empty().withData(ValidatePdfaOperation.data(verdict)));
        }
        if (lost != null) {
            throw new OperationFailure(ErrorCode.INTERNAL_ERROR, "The PDF/A conversion lost " + lost + ", so no PDF/A is returned." + asIsFailed, null);
        }
        ctx.progress(++done, total, "steps");
        Files.copy(pdfa, ctx.output("pdfa-" + level.id(), "pdf"), StandardCopyOption.REPLACE_EXISTING);
        int fields = changes.fields();
        String note = "Converted to PDF/A-" + level.id() + " and validated with veraPDF (no rule failed)."
                + (asIs ? " Its content was kept as it was (Ghostscript's PDF/A rewrite would have lost text or broken a rule): PDF/A metadata and an sRGB output intent were added." : "")
                + (fields > 0 ? " The form's " + fields + " field" + (fields == 1 ? " was" : "s were") + " flattened into the page." : "")
                + (changes.deadLinks() > 0 ? " " + changes.deadLinks() + " link" + (changes.deadLinks() == 1 ? "" : "s")
                   + " to a destination that is not in the file " + (changes.deadLinks() == 1 ? "was" : "were") + " removed." : "");
        return OperationResult.ofNote(note).withData(ValidatePdfaOperation.data(verdict));
    }

    /** What {@code pdf} lost of {@code before} (text layer, links, outline …), or null when nothing (or nothing to compare). */
    private String lost(ContentCheck.Content before, Path pdf) throws Exception {
        return before == null ? null : contentCheck.lost(before, contentCheck.read(pdf));
    }

    /** The sRGB profile to embed, or null when none is installed. */
    private Path iccProfile() {
        if (!iccProfile.isBlank()) {
            Path p = Path.of(iccProfile);
            return Files.isReadable(p) ? p : null;
        }
        return ICC_PROFILES.stream().filter(Files::isReadable).findFirst().orElse(null);
    }
}
