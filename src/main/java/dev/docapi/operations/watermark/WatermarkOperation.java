package dev.docapi.operations.watermark;

import dev.docapi.core.ApiException;
import dev.docapi.engines.Engine;
import dev.docapi.engines.EngineCheck;
import dev.docapi.engines.fonts.FontCatalog;
import dev.docapi.engines.fonts.VisualText;
import dev.docapi.engines.fonts.FontCatalog.FontFace;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.ValidationContext;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.springframework.stereotype.Component;

/**
 * {@code POST /watermark} (spec §4.4, limits §6): draws {@code text} (1-120 characters, any script; Arabic is shaped
 * and laid out right to left) diagonally across the middle of every page, semi-transparent and upright as the page is
 * shown, with embedded fonts so it stays extractable. Output {@code <input>-watermarked.pdf}.
 * A character no installed font can draw is refused with 400 {@code invalid_request} before any job exists.
 */
@Component
public class WatermarkOperation implements Operation<WatermarkOperation.WatermarkOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record WatermarkOptions(String text) {
    }

    /** Spec §6: {@code watermark} text, max 120 characters (code points). */
    public static final int MAX_TEXT = 120;
    private static final OptionSchema<WatermarkOptions> OPTIONS = OptionSchema.of(WatermarkOptions.class,
            OptionField.string("text").required().minLength(1).maxLength(MAX_TEXT)
                    .description("The watermark text, any script (Arabic is shaped and right to left), at most 120 characters"));
    private static final OperationSpec<WatermarkOptions> SPEC = OperationSpec.of("watermark", "watermark_pdf",
            "Stamp a line of text (any script, up to 120 characters) diagonally across every page of a PDF, semi-transparent. Returns the watermarked PDF.")
            .options(OPTIONS);
    private final PdfBox pdfBox;
    private final FontCatalog fonts;
    private final EngineCheck engines;

    public WatermarkOperation(PdfBox pdfBox, FontCatalog fonts, EngineCheck engines) {
        this.pdfBox = pdfBox;
        this.fonts = fonts;
        this.engines = engines;
    }

    @Override
    public OperationSpec<WatermarkOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<WatermarkOptions> ctx) {
        engines.require(Engine.FC_MATCH, Engine.FC_LIST); // fontconfig finds the fonts; without it no character could be drawn
        String text = ctx.options().text();
        if (text.isBlank()) throw ApiException.invalid("'text' must contain something to draw, not only spaces");
        text.codePoints().filter(Character::isISOControl).findFirst().ifPresent(cp -> {
            throw ApiException.invalid("'text' must be one line without control characters; it has " + describe(cp));
        });
        try {
            fontsFor(VisualText.of(text));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public OperationResult run(OperationContext<WatermarkOptions> ctx) throws Exception {
        String visual = VisualText.of(ctx.options().text());
        List<FontFace> files;
        try {
            files = fontsFor(visual);
        } catch (ApiException e) {
            throw new OperationFailure(e.getMessage()); // fonts removed since validation
        }
        try (PDDocument doc = pdfBox.open(ctx.input().path(), null, ctx.tempDir("open"));
             WatermarkStamper stamper = new WatermarkStamper(doc, visual, files)) {
            int total = doc.getNumberOfPages();
            for (int i = 0; i < total; i++) {
                stamper.stamp(doc, doc.getPage(i));
                if ((i + 1) % 10 == 0 || i + 1 == total) ctx.progress(i + 1, total, "pages");
            }
            stamper.finish();
            // A PDF that opens without a password may still carry owner restrictions (or RC4): PDFBox cannot re-encrypt
            // without the owner password, and unlock lifts such restrictions anyway (spec §4.4), so the output is plain.
            doc.setAllSecurityToBeRemoved(true);
            PdfBox.save(doc, ctx.output("watermarked", "pdf"));
        }
        return OperationResult.empty();
    }

    /**
     * The font face for each code point of {@code visual}, in order.
     *
     * @throws ApiException {@code invalid_request} naming the first character no installed font can draw
     */
    private List<FontFace> fontsFor(String visual) throws InterruptedException {
        List<FontFace> out = new ArrayList<>();
        for (int cp : visual.codePoints().toArray()) {
            Optional<FontFace> f = fonts.fontFor(cp);
            if (f.isEmpty()) throw ApiException.invalid("'text' has a character no installed font can draw: " + describe(cp));
            out.add(f.get());
        }
        return out;
    }

    private static String describe(int cp) {
        String c = Character.toString(cp);
        String base = Normalizer.normalize(c, Normalizer.Form.NFKC);
        String name = Character.isISOControl(cp) ? "" : "'" + c + "' ";
        return name + String.format(Locale.ROOT, "(U+%04X%s)", cp, base.equals(c) ? "" : ", a form of '" + base + "'");
    }
}
