package dev.docapi.operations.compress;

import dev.docapi.engines.Engine;
import dev.docapi.engines.EngineCheck;
import dev.docapi.engines.ghostscript.Ghostscript;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.springframework.stereotype.Component;

/**
 * {@code POST /compress} (spec §4.4): a smaller PDF, never a larger one. {@code level} picks image settings as
 * Ghostscript's preset of that name defines them (images re-encoded in place; the preset itself is a candidate too);
 * {@code target_mb} (which wins when both are given) searches for the best quality that fits. {@code output.note}
 * gives the sizes before and after, the settings chosen and whether the target was reached.
 */
@Component
public class CompressOperation implements Operation<CompressOperation.CompressOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record CompressOptions(Double targetMb, Ghostscript.Preset level) {
    }

    private static final OptionSchema<CompressOptions> OPTIONS = OptionSchema.of(CompressOptions.class,
            OptionField.number("target_mb").min(0.05).max(500)
                    .description("Fit under this size (1 MB = 1,000,000 bytes) at the best quality that does; lossless first, then lower image resolution and JPEG quality. Takes precedence over level. When it cannot be reached, the smallest result is returned and output.note says so."),
            OptionField.choice("level", Ghostscript.Preset.class).defaultValue(Ghostscript.Preset.EBOOK)
                    .description("Fixed quality (Ghostscript -dPDFSETTINGS): screen (smallest, 72 dpi), ebook (150 dpi), printer (300 dpi), prepress (300 dpi, colour kept)"));
    private static final OperationSpec<CompressOptions> SPEC = OperationSpec.of("compress", "compress_pdf",
            "Make a PDF smaller: a quality level (screen, ebook, printer, prepress) or a target size in MB reached at the best quality that fits. Never returns a larger file; output.note gives sizes and settings.")
            .options(OPTIONS)
            .outputs(OutputMember.NOTE)
            .traits(OperationSpec.Trait.KEEPS_SIGNATURES);
    private final Compressor compressor;
    private final EngineCheck engines;

    public CompressOperation(Compressor compressor, EngineCheck engines) {
        this.compressor = compressor;
        this.engines = engines;
    }

    @Override
    public OperationSpec<CompressOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<CompressOptions> ctx) {
        engines.require(Engine.GS, Engine.QPDF);
    }

    @Override
    public OperationResult run(OperationContext<CompressOptions> ctx) throws Exception {
        Path in = ctx.input().path();
        Path scratch = ctx.tempDir("compress");
        Double targetMb = ctx.options().targetMb();
        Compressor.Steps steps = (done, total) -> ctx.progress(done, total, "steps");
        Compressor.Outcome o;
        long target = 0;
        if (targetMb != null) {
            target = Math.round(targetMb * Compressor.MB);
            o = compressor.toTarget(in, target, scratch, steps);
        } else {
            o = compressor.withLevel(in, ctx.options().level(), scratch, steps);
        }
        Path out = ctx.output("compressed", "pdf");
        Files.copy(o.file(), out, StandardCopyOption.REPLACE_EXISTING);
        return OperationResult.ofNote(note(o, targetMb, target));
    }

    static String note(Compressor.Outcome o, Double targetMb, long target) {
        StringBuilder s = new StringBuilder();
        if (o.unchanged()) {
            s.append("Returned the input unchanged (").append(Compressor.mb(o.before())).append("): ").append(o.how()).append('.');
        } else {
            long saved = Math.round(100.0 * (o.before() - o.after()) / o.before());
            s.append(String.format(Locale.ROOT, "Compressed from %s to %s (%d%% smaller). ", Compressor.mb(o.before()), Compressor.mb(o.after()), saved));
        }
        if (!o.unchanged()) s.append("Settings: ").append(o.how()).append('.');
        if (targetMb != null) {
            String t = Compressor.mb(target);
            s.append(o.after() <= target ? " Target " + t + " reached." : " Target " + t + " not reached: this is the smallest result found.");
        }
        return s.toString();
    }
}
