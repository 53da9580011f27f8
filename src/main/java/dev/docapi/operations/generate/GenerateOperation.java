package dev.docapi.operations.generate;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.FileKind;
import dev.docapi.core.J;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.libreoffice.OfficePool;
import dev.docapi.engines.templates.DocxTemplate;
import dev.docapi.engines.templates.Templates;
import dev.docapi.engines.templates.Templates.Image;
import dev.docapi.engines.templates.Templates.TemplateError;
import dev.docapi.files.BlobStore;
import dev.docapi.files.FileService;
import dev.docapi.files.ImageSize;
import dev.docapi.files.StoredFile;
import dev.docapi.contract.InputFile;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationService;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.ValidationContext;
import dev.docapi.operations.convert.ConvertOperation;
import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.operations.convert.Converter;
import dev.docapi.operations.convert.TextDecoding;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /generate} (an addition beyond the spec, issue 28): fills a template — the input {@code file}, a .docx,
 * .odt or .html — with {@code data} in one Mustache-style language ({@link Templates}: {@code {{customer}}},
 * {@code {{#items}}…{{/items}}} (a table row in .docx), {@code {{^paid}}…{{/paid}}}, {@code {{number total "0.00"}}},
 * {@code {{date due "d MMM yyyy"}}}, {@code {{image logo}}} for {@code "logo": {"file": "file_…"}}, an image of the same
 * account), then prints it through the convert operation's LibreOffice (.docx, .odt) or Chromium (.html) path, the
 * latter with the same sandbox as HTML conversion. {@code to: "docx"} returns the filled .docx instead. The template is
 * filled once at validation, so a missing value, a syntax error or a bad format answers 400 {@code invalid_request}
 * naming the paragraph (.docx) or line (.html) before any job; so does a fill past its bounds ({@link Templates}:
 * nesting, repetitions, output, time, the format helpers' inputs) or an image in {@code data} larger than
 * {@code DOCAPI_MAX_PIXELS} (issue 40). An .odt template is turned into .docx by LibreOffice
 * first, so its paragraphs are numbered as in that .docx.
 */
@Component
public class GenerateOperation implements Operation<GenerateOperation.GenerateOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record GenerateOptions(JsonNode data, ConvertTarget to) {
    }

    /** The largest {@code data} (bytes of its JSON). */
    static final int MAX_DATA_BYTES = 1024 * 1024;
    private static final int MAX_IMAGE_BYTES = 20 * 1024 * 1024;
    /** The frames of an animated GIF looked at for the pixel limit. */
    private static final int MAX_IMAGE_FRAMES = 1000;
    private static final Set<String> IMAGE_TYPES = Set.of("image/png", "image/jpeg", "image/gif");
    private static final String DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    private static final OptionSchema<GenerateOptions> OPTIONS = OptionSchema.of(GenerateOptions.class,
            OptionField.custom("data", J.o("type", "object"), GenerateOperation::checkData).required()
                    .description("The values the template's tags name (JSON object, at most 1 MB): {{customer}}, {{#items}}…{{/items}} over an array, "
                            + "{{^paid}}…{{/paid}}, {{number total \"#,##0.00\"}}, {{date due \"d MMMM yyyy\"}}, {{image logo}} with \"logo\": {\"file\": \"file_…\"}. "
                            + "A key the template names but the data lacks answers 400; null renders empty"),
            OptionField.choice("to", ConvertTarget.PDF, ConvertTarget.DOCX).defaultValue(ConvertTarget.PDF)
                    .description("pdf (printed), or docx: the filled document itself (.docx and .odt templates only)"));
    private static final OperationSpec<GenerateOptions> SPEC = OperationSpec.of("generate", "generate_document",
            "Fill a template (.docx, .odt or .html, Mustache-style tags: {{name}}, {{#items}}…{{/items}}, {{^paid}}…{{/paid}}, number/date formats, "
            + "images) with JSON data and print it to PDF, or return the filled .docx. Addition beyond the spec.")
            .inputs(Inputs.one(FileKind.OFFICE, FileKind.HTML))
            .options(OPTIONS);

    private final FileService files;
    private final OfficePool office;
    private final List<Converter> converters;
    private final long maxPixels;

    /** @param maxPixels the largest image (width × height of one frame) {@code data} may name ({@code DOCAPI_MAX_PIXELS}) */
    public GenerateOperation(FileService files, OfficePool office, List<Converter> converters,
                             @org.springframework.beans.factory.annotation.Value("${docapi.max-pixels:100000000}") long maxPixels) {
        this.files = files;
        this.office = office;
        this.converters = List.copyOf(converters);
        this.maxPixels = maxPixels;
    }

    @Override
    public OperationSpec<GenerateOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<GenerateOptions> ctx) {
        String ext = ConvertOperation.extension(ctx.input().file());
        if (!Set.of("docx", "odt", "html").contains(ext)) {
            throw ApiException.invalid("a template is a .docx, .odt or .html file, not '" + ctx.input().file().name() + "'");
        }
        boolean html = ext.equals("html");
        if (html && ctx.options().to() == ConvertTarget.DOCX) throw ApiException.invalid("to: docx takes a .docx or .odt template, not an HTML one");
        if (!html && !office.available() || ctx.options().to() == ConvertTarget.PDF && converter(html ? "html" : "docx") == null) {
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "generating from '" + ctx.input().file().name()
                    + "' needs an engine that is not installed on this service");
        }
        Map<String, Image> images = images(ctx.account(), ctx.options().data());
        Path dir = null;
        try {
            dir = Files.createTempDirectory("docapi-generate");
            fill(ctx.input(), ext, ctx.options().data(), images, dir);
        } catch (TemplateError e) {
            throw ApiException.invalid(e.getMessage());
        } catch (IOException e) {
            throw new ApiException(ErrorCode.INVALID_FILE, "'" + ctx.input().file().name() + "' is not a readable template: " + e.getMessage());
        } catch (EngineFailure e) {
            // LibreOffice reading an .odt template: its code comes from the one mapping (a crash is not the file's fault)
            throw new ApiException(OperationService.failure(e).code(), "'" + ctx.input().file().name() + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "interrupted");
        } finally {
            if (dir != null) FileSystemUtils.deleteRecursively(dir.toFile());
        }
    }

    @Override
    public OperationResult run(OperationContext<GenerateOptions> ctx) throws Exception {
        InputFile in = ctx.input();
        String ext = ConvertOperation.extension(in.file());
        Map<String, Image> images = images(ctx.account(), ctx.options().data());
        Path filled;
        try {
            filled = fill(in, ext, ctx.options().data(), images, ctx.tempDir("generate"));
        } catch (TemplateError e) {
            throw new OperationFailure(ErrorCode.INVALID_REQUEST, e.getMessage(), e);
        }
        String base = in.file().baseName();
        if (ctx.options().to() == ConvertTarget.DOCX) {
            Files.move(filled, ctx.output(base + ".docx"));
            return OperationResult.empty();
        }
        boolean html = ext.equals("html");
        StoredFile f = in.file();
        StoredFile printed = new StoredFile(f.id(), f.accountId(), base + (html ? ".html" : ".docx"), Files.size(filled),
                html ? "text/html" : DOCX_TYPE, html ? FileKind.HTML : FileKind.OFFICE, null, false, f.source(), f.createdAt(),
                f.expiresAt(), null);
        converter(html ? "html" : "docx").convert(new InputFile(printed, filled), ctx.output(base + ".pdf"), ctx);
        return OperationResult.empty();
    }

    /** Fills the template into {@code dir}: the filled .docx, or the filled HTML as UTF-8. */
    private Path fill(InputFile in, String ext, JsonNode data, Map<String, Image> images, Path dir)
            throws TemplateError, IOException, EngineFailure, InterruptedException {
        Object model = Templates.model(data);
        if (ext.equals("html")) {
            String source = TextDecoding.decode(Files.readAllBytes(in.path()), true);
            Path out = dir.resolve("filled.html");
            // with a byte-order mark, which the HTML printer's decoding puts before the template's <meta charset>
            Files.writeString(out, "\uFEFF" + Templates.html(source, model, images), StandardCharsets.UTF_8);
            return out;
        }
        Path docx = in.path();
        if (ext.equals("odt")) {
            Path odt = dir.resolve("template.odt");
            Files.copy(in.path(), odt);
            docx = dir.resolve("template.docx");
            office.convert(odt, docx);
        }
        Path out = dir.resolve("filled.docx");
        DocxTemplate.fill(docx, model, images, out);
        return out;
    }

    /**
     * The images that {@code data} names ({@code {"file": "file_…"}}), each a PNG, JPEG or GIF of this account.
     *
     * @throws ApiException 404 {@code file_not_found} for another account's (or an unknown) file; 400 for a file that
     *                      is not such an image, or one larger than {@code DOCAPI_MAX_PIXELS} (read from its header:
     *                      nothing is decoded here)
     */
    private Map<String, Image> images(Account account, JsonNode data) {
        Map<String, Image> images = new LinkedHashMap<>();
        for (String id : Templates.imageFileIds(data)) {
            if (images.containsKey(id)) continue;
            StoredFile f = files.get(account, id);
            if (f.kind() != FileKind.IMAGE || !IMAGE_TYPES.contains(f.contentType())) {
                throw ApiException.invalid("data: file '" + id + "' is not a PNG, JPEG or GIF image (" + f.contentType() + ")");
            }
            if (f.size() > MAX_IMAGE_BYTES) throw ApiException.invalid("data: image '" + id + "' is larger than 20 MB");
            try (BlobStore.Content content = files.content(f); InputStream is = content.stream()) {
                byte[] bytes = is.readNBytes(MAX_IMAGE_BYTES);
                long pixels = ImageSize.largestFrame(bytes, MAX_IMAGE_FRAMES);
                if (pixels > maxPixels) {
                    throw ApiException.invalid(String.format(Locale.ROOT, "data: image '%s' has %,d pixels; the limit is %,d pixels per image (DOCAPI_MAX_PIXELS)",
                            id, pixels, maxPixels));
                }
                int[] size = ImageSize.firstFrame(bytes);
                if (size == null) throw ApiException.invalid("data: image '" + id + "' cannot be read");
                images.put(id, new Image(id, bytes, f.contentType(), size[0], size[1]));
            } catch (IOException e) {
                throw new ApiException(ErrorCode.INVALID_FILE, "data: image '" + id + "' cannot be read: " + e.getMessage());
            }
        }
        return images;
    }

    private Converter converter(String ext) {
        FileKind kind = ext.equals("html") ? FileKind.HTML : FileKind.OFFICE;
        return converters.stream().filter(c -> c.accepts(kind, ext, ConvertTarget.PDF) && c.available()).findFirst().orElse(null);
    }

    private static String checkData(JsonNode data) {
        if (!data.isObject()) return "must be a JSON object of the values the template names";
        if (data.toString().getBytes(StandardCharsets.UTF_8).length > MAX_DATA_BYTES) return "must be at most 1 MB of JSON";
        return null;
    }
}
