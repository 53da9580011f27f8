package dev.docapi.operations.redact;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.J;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.Engine;
import dev.docapi.engines.EngineCheck;
import dev.docapi.engines.pdfbox.AnnotationRedactor;
import dev.docapi.engines.pdfbox.PageFrame;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.pymupdf.PyMuPdf;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import dev.docapi.text.OcrText;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /redact} (an addition beyond the spec, issue 27): true redaction. The glyphs of every match of
 * {@code text}, {@code patterns} (Java regular expressions) and {@code presets}, and everything under {@code areas}
 * (points from the page's top-left as seen), are removed from the content streams and the image pixels under them
 * blanked (PyMuPDF's {@code apply_redactions}, {@link PyMuPdf}); a box in {@code fill} is drawn in their place.
 * Annotations, links, form fields, metadata entries, bookmarks and embedded files whose text matches are removed.
 * A page without a text layer is read from the file's OCR ({@link OcrText#withTextLayer}, kept with the file), so its
 * words are found and its picture blacked out under them. {@code output.data} lists what was redacted per page (count
 * and boxes, never the text). A pattern that does not compile, an unknown preset or an area outside its page answers
 * 400 {@code invalid_request} before any job; a pattern still matching after {@link #MATCH_SECONDS_PER_PAGE} s per
 * page fails the job ({@code internal_error}, as every job that ran and failed), naming it.
 *
 * <p>Issue 35: matches are also removed where no viewer paints them ({@code AnnotationRedactor}, {@code HiddenText}:
 * annotation appearances, field options and names, text outside the crop box or in layers that are off,
 * {@code /ActualText}, pattern cells, page XMP, names trees, page labels, JavaScript, embedded files in any encoding,
 * the structure tree), and the output is checked before it is delivered by readers that did not redact it
 * ({@link RedactionCheck}; also a word still under an area, or what {@code sanitize} removes): anything left fails the job
 * naming where (never the text), with {@code output.data.leftovers}.
 * {@code sanitize} removes what can hide content whether or not it matches. docs/redaction.md has the whole list.
 */
@Component
public class RedactOperation implements Operation<RedactOperation.RedactOptions> {
    /** The options, as {@link #OPTIONS} declares them; absent arrays are empty. */
    public record RedactOptions(List<String> text, List<String> patterns, List<Searches.Preset> presets, List<Area> areas, boolean ignoreCase, String fill,
                                boolean sanitize) {
    }

    private static final int MAX_STRINGS = 200, MAX_STRING = 500, MAX_AREAS = 1000;
    /** Matching time per page for all searches together: a hostile regex fails the job instead of holding it. */
    static final int MATCH_SECONDS_PER_PAGE = 2;
    /** How far (points) an area may reach past its page's edge: rounding in the caller's arithmetic. */
    private static final double EDGE = 0.5;
    private static final JsonMapper JSON = JsonMapper.shared();
    /** An area: page from 1, then points from the page's top-left as seen. */
    private static final OptionSchema<Area> AREA = OptionSchema.of(Area.class,
            OptionField.integer("page").min(1).required(),
            OptionField.number("x").min(0).required(),
            OptionField.number("y").min(0).required(),
            OptionField.number("width").above(0).required(),
            OptionField.number("height").above(0).required());
    private static final OptionSchema<RedactOptions> OPTIONS = OptionSchema.of(RedactOptions.class,
            strings("text").description("Texts to redact, matched literally; a space matches any run of whitespace, a line break included"),
            strings("patterns").description("Regular expressions to redact (Java syntax, e.g. \\\\b[A-Z]{2}\\\\d{2}[A-Z0-9 ]{11,30}\\\\b)"),
            OptionField.array("presets", OptionField.choice("presets", Searches.Preset.class)).maxItems(Searches.Preset.values().length)
                    .description("Kinds of personal data to redact: email, phone (9-15 digits), iban (checksum checked), credit_card (Luhn checked), ip_address"),
            OptionField.array("areas", OptionField.object("areas", AREA)).maxItems(MAX_AREAS)
                    .description("Rectangles to redact whatever they cover (text, images, drawings): page from 1, x, y, width, height in PDF points from the page's top-left as seen (after rotation)"),
            OptionField.bool("ignore_case").defaultValue(false).description("Match text and patterns regardless of case"),
            OptionField.string("fill").pattern("^#[0-9A-Fa-f]{6}$", "must be a colour as #RRGGBB, e.g. #000000").defaultValue("#000000").description("Colour of the boxes drawn over what was removed, #RRGGBB"),
            OptionField.bool("sanitize").defaultValue(false).description("Also remove what can hide content whether or not it matches: JavaScript, "
                    + "embedded files and file attachments, text in layers that are off or outside the crop box, metadata (Info, XMP), hidden "
                    + "annotations and annotations' rich text, form field defaults, page-piece dictionaries; output.data.removed says what went"));
    private static final OperationSpec<RedactOptions> SPEC = OperationSpec.of("redact", "redact_pdf",
            "Truly redact a PDF: the text matching texts, regular expressions or presets (email, phone, iban, credit_card, ip_address), and areas, is removed from the page content and images (not just covered), with matching annotations, form values, metadata, bookmarks and embedded files; scanned pages are OCR'd first. output.data lists the redactions per page (count and boxes, never the text). Addition beyond the spec.")
            .options(OPTIONS)
            .outputs(OutputMember.DATA, OutputMember.NOTE);

    private final PyMuPdf pymupdf;
    private final AnnotationRedactor annotationRedactor;
    private final OcrText ocrText;
    private final Poppler poppler;
    private final EngineCheck engines;
    private final RedactionCheck check;

    public RedactOperation(PyMuPdf pymupdf, AnnotationRedactor annotationRedactor, OcrText ocrText, Poppler poppler, EngineCheck engines,
                           RedactionCheck check) {
        this.check = check;
        this.pymupdf = pymupdf;
        this.annotationRedactor = annotationRedactor;
        this.ocrText = ocrText;
        this.poppler = poppler;
        this.engines = engines;
    }

    @Override
    public OperationSpec<RedactOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<RedactOptions> ctx) {
        RedactOptions o = ctx.options();
        Searches searches = searches(o);
        List<Area> areas = o.areas();
        if (searches.isEmpty() && areas.isEmpty() && !o.sanitize()) {
            throw ApiException.invalid("give something to redact: 'text', 'patterns', 'presets' or 'areas' (or sanitize: true)");
        }
        engines.require(Engine.PYTHON3);
        // pages without a text layer need OCR too: without OCRmyPDF, their job fails as service_unavailable
        if (check.enabled()) engines.require(Engine.PDFTOTEXT, Engine.MUTOOL, Engine.QPDF); // the check of the output
        if (areas.isEmpty()) return;
        ctx.requirePagesExist("areas", areas.stream().map(Area::page).toList());
        try (PDDocument doc = Loader.loadPDF(ctx.input().path().toFile(), "", null, null, IOUtils.createTempFileOnlyStreamCache())) {
            for (Area a : areas) {
                PageFrame frame = PageFrame.of(doc.getPage(a.page() - 1));
                String outside = a.outside(frame.width(), frame.height());
                if (outside != null) throw ApiException.invalid(outside);
            }
        } catch (IOException e) {
            // PDFBox cannot read it; MuPDF may: the areas are checked against MuPDF's pages when the job runs
        }
    }

    @Override
    public OperationResult run(OperationContext<RedactOptions> ctx) throws Exception {
        RedactOptions o = ctx.options();
        Searches searches = searches(o);
        List<Area> areas = o.areas();
        Path in = ctx.input().path();
        Integer known = ctx.input().file().pages();
        int pageCount = known != null ? known : poppler.pageTexts(in).size();
        ctx.progress(0, pageCount, "pages");
        // a page without a text layer is redacted in the file's OCR, whose invisible words lie over its picture
        OcrText.WithTextLayer source = searches.isEmpty() ? new OcrText.WithTextLayer(in, List.of())
                : ocrText.withTextLayer(ctx.input(), pageCount, ctx.tempDir("ocr"), (done, total) -> ctx.progress(done, total, "pages"));
        Path work = ctx.tempDir("redact");
        Path pdf = source.pdf();
        AnnotationRedactor.Removed annotations = AnnotationRedactor.Removed.none(pageCount);
        if (!searches.isEmpty() || o.sanitize()) {
            long deadline = System.nanoTime() + MATCH_SECONDS_PER_PAGE * 1_000_000_000L * Math.max(1, pageCount);
            Path withoutAnnotations = work.resolve("annotations-redacted.pdf");
            try {
                annotations = annotationRedactor.redact(pdf, text -> {
                    Searches.Found found = searches.find(text, deadline);
                    if (found.tooSlow() != null) throw new TooSlowIn(found.tooSlow() + " in the annotations or form fields");
                    return !found.matches().isEmpty();
                }, o.sanitize(), withoutAnnotations, ctx.tempDir("pdfbox"));
            } catch (TooSlowIn e) {
                throw tooSlow(e.getMessage());
            }
            if (annotations.any()) pdf = withoutAnnotations;
        }
        PyMuPdf.Document doc = pymupdf.read(pdf, work, pageCount);
        Redactions redactions = Redactions.of(doc, searches, areas, source.ocrPages(), MATCH_SECONDS_PER_PAGE);
        if (redactions.tooSlow() != null) throw tooSlow(redactions.tooSlow());
        if (redactions.areaOutside() != null) throw new OperationFailure(redactions.areaOutside());
        PyMuPdf.Plan plan = redactions.plan(fill(o.fill()), o.sanitize());
        // written apart and checked before it becomes the job's output: a file that fails the check is never delivered
        Path redacted = work.resolve("redacted.pdf");
        pymupdf.apply(pdf, plan, redacted, work, pageCount);
        JsonNode data = JSON.valueToTree(redactions.data(annotations, source.ocrPages()));
        if (check.enabled()) verify(pdf, redacted, searches, areas, o.sanitize(), ctx.tempDir("check"), pageCount, data);
        java.nio.file.Files.move(redacted, ctx.output("redacted", "pdf"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ctx.progress(pageCount, pageCount, "pages");
        OperationResult result = OperationResult.empty().withData(data);
        if (redactions.count() == 0 && redactions.removedCount() == 0 && !annotations.any() && !o.sanitize()) result = result.withNote("Nothing matched; nothing was redacted.");
        else if (!source.ocrPages().isEmpty()) {
            boolean one = source.ocrPages().size() == 1;
            result = result.withNote((one ? "Page " : "Pages ") + join(source.ocrPages()) + " had no text layer and " + (one ? "was" : "were")
                    + " searched in the file's OCR; the output keeps that OCR's text layer.");
        }
        return result;
    }

    /**
     * Fails the job when {@link RedactionCheck} finds in {@code out} a match left, a word still inside an area that
     * held it in {@code in}, or with {@code sanitize} something it removes: a redaction that cannot be verified is
     * never delivered. The failure names the places (never the text) and keeps {@code data} with them as
     * {@code leftovers} on the failed job.
     */
    private void verify(Path in, Path out, Searches searches, List<Area> areas, boolean sanitize, Path dir, int pageCount, JsonNode data)
            throws OperationFailure, EngineFailure, InterruptedException {
        long deadline = System.nanoTime() + 3L * MATCH_SECONDS_PER_PAGE * 1_000_000_000L * Math.max(1, pageCount);
        List<String> left = new ArrayList<>();
        long start = System.nanoTime();
        try {
            if (!searches.isEmpty()) left.addAll(check.leftovers(out, searches, dir, pageCount, deadline));
        } catch (RedactionCheck.TooSlow e) {
            throw tooSlow(e.getMessage() + " in the check of the redacted PDF");
        }
        if (!areas.isEmpty()) left.addAll(check.areaLeftovers(in, out, areas, dir));
        if (sanitize) left.addAll(check.sanitizeLeftovers(out, dir));
        tools.jackson.databind.node.ObjectNode d = (tools.jackson.databind.node.ObjectNode) data;
        d.set("verification", JSON.valueToTree(J.o("readers", RedactionCheck.READERS, "ms", (System.nanoTime() - start) / 1_000_000,
                "leftovers", left.size())));
        if (left.isEmpty()) return;
        d.set("leftovers", JSON.valueToTree(left));
        throw new OperationFailure(ErrorCode.INTERNAL_ERROR, "the redaction could not be verified, so it is not delivered: what it removes is still in "
                + String.join("; ", left) + ".", null, OperationResult.empty().withData(data));
    }

    private static OperationFailure tooSlow(String what) {
        return new OperationFailure("the " + what + " took more than " + MATCH_SECONDS_PER_PAGE
                + " s per page to match; simplify it (nested repetition such as (a+)+ backtracks without end)");
    }

    /** A search ran out of time inside {@link AnnotationRedactor}'s test; the message names it and where. */
    private static final class TooSlowIn extends RuntimeException {
        TooSlowIn(String message) {
            super(message, null, false, false);
        }
    }

    /** A rectangle to redact, as the caller gave it. */
    record Area(int page, double x, double y, double width, double height) {
        /** Why the area does not lie on a page of {@code width} × {@code height} points, or null when it does. */
        String outside(double pageWidth, double pageHeight) {
            if (x + width <= pageWidth + EDGE && y + height <= pageHeight + EDGE) return null;
            return String.format(java.util.Locale.ROOT, "'areas': the area x %s, y %s, width %s, height %s lies outside page %d, which is %.1f × %.1f points (as seen)",
                    num(x), num(y), num(width), num(height), page, pageWidth, pageHeight);
        }

        double[] box() {
            return new double[] {x, y, x + width, y + height};
        }

        private static String num(double v) {
            return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
        }
    }

    private static Searches searches(RedactOptions o) {
        try {
            return Searches.of(o.text(), o.patterns(), o.presets(), o.ignoreCase());
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid(e.getMessage());
        }
    }

    private static double[] fill(String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        return new double[] {(rgb >> 16 & 0xFF) / 255.0, (rgb >> 8 & 0xFF) / 255.0, (rgb & 0xFF) / 255.0};
    }

    private static String join(List<Integer> pages) {
        return String.join(", ", pages.stream().map(String::valueOf).toList());
    }

    /** Strings to look for: none blank. */
    private static OptionField strings(String name) {
        return OptionField.array(name, OptionField.string(name).minLength(1).maxLength(MAX_STRING).pattern("\\S", "must not be blank")).maxItems(MAX_STRINGS);
    }
}
