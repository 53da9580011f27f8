package dev.docapi.operations.convert;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.files.StoredFile;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Inputs;
import dev.docapi.contract.InputFile;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.ValidationContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * {@code POST /convert} (spec §4.4): converts one file to {@code to} through the first {@link Converter} bean that
 * accepts the (input kind, input extension, target) pair. A pair no converter accepts is refused with 400
 * {@code invalid_request} before any job, naming the targets that input can have. The output is named
 * {@code <input base name>.<extension>} (e.g. {@code report.docx} → {@code report.pdf}).
 */
@Component
public class ConvertOperation implements Operation<ConvertOperation.ConvertOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record ConvertOptions(ConvertTarget to, boolean images) {
    }

    private static final OptionSchema<ConvertOptions> OPTIONS = OptionSchema.of(ConvertOptions.class,
            OptionField.choice("to", ConvertTarget.class).required()
                    .description("Target format: pdf (from images, Office files, HTML, Markdown, plain text), or docx, xlsx, "
                            + "pptx, jpg (a ZIP of page images) from a PDF; additions: md (Markdown) and html from a PDF, and json (the PDF's "
                            + "document model, as the DocumentModel schema describes)"),
            OptionField.bool("images").defaultValue(true)
                    .description("PDF → md or html only (addition): carry the PDF's pictures over as files beside the text, "
                            + "the output then being a ZIP of the document and an images/ folder; false leaves them out "
                            + "and the output is the document alone"));
    private static final OperationSpec<ConvertOptions> SPEC = OperationSpec.of("convert", "convert_file",
            "Convert a file: images, Word/Excel/PowerPoint/OpenDocument files, HTML, Markdown or plain text to PDF; "
            + "a PDF to docx, xlsx, pptx, jpg (a ZIP of page images), or (additions) md or html with headings, lists "
            + "and tables, or json: the document model (elements in reading order with type, text, page and box). Returns "
            + "the converted file.")
            .inputs(Inputs.one(FileKind.PDF, FileKind.IMAGE, FileKind.OFFICE, FileKind.HTML, FileKind.MARKDOWN, FileKind.TEXT))
            .options(OPTIONS)
            .traits(OperationSpec.Trait.NOT_ONE_PDF_OUT)
            .deadline(OperationSpec.OCR_DEADLINE);
    /** Canonical extensions by media type, for files whose name has no usable extension. */
    private static final Map<String, String> EXTENSION_BY_TYPE = Map.ofEntries(
            Map.entry("application/pdf", "pdf"), Map.entry("image/jpeg", "jpg"), Map.entry("image/png", "png"),
            Map.entry("image/webp", "webp"), Map.entry("image/tiff", "tiff"),
            Map.entry("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"),
            Map.entry("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"),
            Map.entry("application/vnd.openxmlformats-officedocument.presentationml.presentation", "pptx"),
            Map.entry("application/msword", "doc"), Map.entry("application/vnd.ms-excel", "xls"),
            Map.entry("application/vnd.ms-powerpoint", "ppt"), Map.entry("application/vnd.oasis.opendocument.text", "odt"),
            Map.entry("application/vnd.oasis.opendocument.spreadsheet", "ods"),
            Map.entry("application/vnd.oasis.opendocument.presentation", "odp"), Map.entry("text/html", "html"),
            Map.entry("text/markdown", "md"), Map.entry("text/plain", "txt"));

    private final List<Converter> converters;

    public ConvertOperation(List<Converter> converters) {
        this.converters = List.copyOf(converters);
    }

    @Override
    public OperationSpec<ConvertOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<ConvertOptions> ctx) {
        StoredFile f = ctx.input().file();
        ConvertTarget to = ctx.options().to();
        Converter c = find(f, to).orElseThrow(() -> {
            List<String> possible = Arrays.stream(ConvertTarget.values()).filter(t -> find(f, t).isPresent()).map(ConvertTarget::id).toList();
            return ApiException.invalid("cannot convert " + describe(f) + " to " + to.id() + "; "
                    + (possible.isEmpty() ? "this file cannot be converted on this service"
                    : "it can be converted to: " + String.join(", ", possible)));
        });
        if (!c.available()) {
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "converting " + describe(f) + " to " + to.id()
                    + " needs an engine that is not installed on this service");
        }
    }

    @Override
    public OperationResult run(OperationContext<ConvertOptions> ctx) throws Exception {
        InputFile in = ctx.input();
        ConvertTarget to = ctx.options().to();
        Converter c = find(in.file(), to).orElseThrow(() -> new IllegalStateException("validated pair has no converter"));
        ctx.progress(0, 1, "files");
        Path written = c.convert(in, ctx.tempDir("convert").resolve(in.file().baseName() + "." + c.outputExtension(to)), ctx);
        if (!Files.isRegularFile(written)) throw new IllegalStateException(c.getClass().getSimpleName() + " wrote no output");
        Files.move(written, ctx.output(written.getFileName().toString()));
        ctx.progress(1, 1, "files");
        return OperationResult.empty();
    }

    /** The input's extension, lower case: from its name when that is a known one, else from its sniffed media type. */
    public static String extension(StoredFile f) {
        String name = f.name();
        int dot = name.lastIndexOf('.');
        String ext = dot >= 0 ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
        if (ext.equals("jpeg")) ext = "jpg";
        if (ext.equals("htm")) ext = "html";
        if (ext.equals("tif")) ext = "tiff";
        if (ext.equals("markdown")) ext = "md";
        if (ext.equals("text")) ext = "txt";
        if (EXTENSION_BY_TYPE.containsValue(ext)) return ext;
        return EXTENSION_BY_TYPE.getOrDefault(f.contentType(), ext);
    }

    private Optional<Converter> find(StoredFile f, ConvertTarget to) {
        String ext = extension(f);
        return converters.stream().filter(c -> c.accepts(f.kind(), ext, to)).findFirst();
    }

    private static String describe(StoredFile f) {
        String ext = extension(f);
        return "'" + f.name() + "' (" + (ext.isEmpty() ? f.kind().id() : ext) + ")";
    }
}
