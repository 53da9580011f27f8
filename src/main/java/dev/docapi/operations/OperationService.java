package dev.docapi.operations;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.UsageService;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.config.DocapiProperties;
import dev.docapi.config.ValidationPool;
import dev.docapi.core.FileKind;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.pdfbox.PdfSignatures;
import dev.docapi.files.FileService;
import dev.docapi.files.StoredFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates operation requests against the real files (before any job exists) and executes operations in process.
 * The HTTP endpoint, MCP tools, workflow steps and the agent all come through here.
 */
@Service
public class OperationService {
    private final OperationRegistry registry;
    private final FileService files;
    private final UsageService usage;
    private final DocapiProperties props;
    private final int maxPages;
    private final long maxPixels;
    private final PdfRepair repair;
    private final ValidationPool validation;

    /**
     * @param maxPages  the most pages a job may read ({@code DOCAPI_MAX_PAGES}, default 2,000; issue 9 "bounds")
     * @param maxPixels the largest image (width × height of one frame) a job may decode ({@code DOCAPI_MAX_PIXELS},
     *                  default 100,000,000)
     */
    public OperationService(OperationRegistry registry, FileService files, UsageService usage, DocapiProperties props, PdfRepair repair,
                            ValidationPool validation,
                            @org.springframework.beans.factory.annotation.Value("${docapi.max-pages:2000}") int maxPages,
                            @org.springframework.beans.factory.annotation.Value("${docapi.max-pixels:100000000}") long maxPixels) {
        this.registry = registry;
        this.files = files;
        this.usage = usage;
        this.props = props;
        this.maxPages = maxPages;
        this.maxPixels = maxPixels;
        this.repair = repair;
        this.validation = validation;
    }

    /** A validated request: the operation, its resolved input files and its options (passwords included). */
    /**
     * A validated request: its operation, input files and options, and the AI operations on the service's model its
     * job will count ({@link Operation#aiOperations}; reserved at admission).
     */
    public record Submission(Operation<?> operation, List<StoredFile> inputs, ObjectNode options, int aiOperations) {

        /** {@code {files, options}} with every option (passwords included): what {@link OperationJobs} runs. Seal it. */
        public ObjectNode payload(ObjectNode empty) {
            var fileIds = empty.putArray("files");
            inputs.forEach(f -> fileIds.add(f.id()));
            empty.set("options", options);
            return empty;
        }

        /** {@code {files, options}} as stored on the job: passwords removed (spec §2.3). */
        public ObjectNode storedInput(ObjectNode empty) {
            var fileIds = empty.putArray("files");
            inputs.forEach(f -> fileIds.add(f.id()));
            empty.set("options", operation.options().redact(options));
            return empty;
        }
    }

    /** What an executed operation produced: stored output files and the other output members. */
    public record Execution(List<StoredFile> files, OperationResult result) {
    }

    /**
     * Validates a request body of {@code POST /{operation}}: the input member, every option, the files themselves.
     *
     * @throws ApiException 404 {@code unknown_operation}, 400 {@code invalid_request}, 404 {@code file_not_found},
     *                      410 {@code file_expired}
     */
    public Submission prepare(Account account, String operationName, ObjectNode body) {
        Operation<?> op = registry.get(operationName);
        return prepare(account, op, body, (member, inputs) -> fileIds(member, inputs, op.name()));
    }

    /** How a request's input member becomes file ids: ids as given (HTTP, the agent) or imported first (MCP). */
    @FunctionalInterface
    public interface FileIds {
        List<String> of(JsonNode member, Inputs inputs);
    }

    /**
     * Validates a request body of {@code op} whose input member {@code fileIds} turns into file ids: the member's
     * name, every option (before any file is read or imported: a wrong option costs nothing), then the files.
     *
     * @throws ApiException as {@link #prepare(Account, String, ObjectNode)}, and whatever {@code fileIds} throws
     */
    public Submission prepare(Account account, Operation<?> op, ObjectNode body, FileIds fileIds) {
        Inputs inputs = op.inputs();
        String other = inputs.many() ? "file" : "files";
        if (body.has(other) && !body.has(inputs.member())) {
            throw ApiException.invalid(op.name() + " takes '" + inputs.member() + "'" + (inputs.many() ? " (an array of file ids)" : " (one file id)") + ", not '" + other + "'");
        }
        ObjectNode options = op.options().validate(body, op.name());
        return prepare(account, op, fileIds.of(body.get(inputs.member()), inputs), options);
    }

    /**
     * Validates already-separated inputs and options (workflow steps, MCP, the agent).
     *
     * @throws ApiException as {@link #prepare(Account, String, ObjectNode)}
     */
    public Submission prepare(Account account, Operation<?> op, List<String> fileIds, ObjectNode options) {
        Inputs inputs = op.inputs();
        if (fileIds.size() < inputs.min() || fileIds.size() > inputs.max()) {
            throw ApiException.invalid(op.name() + " takes " + (inputs.min() == inputs.max() ? inputs.min() + "" : inputs.min() + "-" + inputs.max())
                    + " file" + (inputs.max() == 1 ? "" : "s") + ", got " + fileIds.size());
        }
        List<StoredFile> resolved = new ArrayList<>();
        for (String id : fileIds) {
            StoredFile f = files.get(account, id);
            if (!inputs.kinds().contains(f.kind())) {
                throw ApiException.invalid(op.name() + " takes " + describe(inputs) + "; '" + f.name() + "' (" + f.id() + ") is "
                        + article(f.kind()));
            }
            if (f.kind() == FileKind.PDF && f.encrypted() && !op.has(OperationSpec.Trait.ACCEPTS_ENCRYPTED_INPUT)) {
                throw ApiException.invalid("'" + f.name() + "' (" + f.id() + ") needs a password to open; run unlock with its password first");
            }
            resolved.add(f);
        }
        checkPageLimit(resolved);
        List<InputFile> in = resolved.stream().map(f -> new InputFile(f, files.path(f))).toList();
        Map<String, InputFile> named = optionFiles(account, op, options);
        // the files are read on a platform thread, never on the carrier of a virtual one (issue 40 item 0)
        int aiOperations = validation.call(account.id(), () -> validate(op, account, in, named, options));
        return new Submission(op, resolved, options, aiOperations);
    }

    /**
     * The files {@code op}'s options name by id ({@link OptionField#fileId}), looked up as input files are.
     *
     * @throws ApiException 404 {@code file_not_found}, 410 {@code file_expired} (also when the bytes are gone), 400
     *                      {@code invalid_request} for a file of another kind
     */
    private Map<String, InputFile> optionFiles(Account account, Operation<?> op, ObjectNode options) {
        Map<String, InputFile> named = new LinkedHashMap<>();
        for (OptionField field : op.options().fields()) {
            if (field.fileKinds() == null || !options.path(field.name()).isString()) continue;
            StoredFile f = files.get(account, options.get(field.name()).asString());
            if (!field.fileKinds().contains(f.kind())) {
                throw ApiException.invalid("'" + field.name() + "' takes " + field.fileKinds().stream().map(FileKind::id).toList()
                        + " files; '" + f.name() + "' (" + f.id() + ") is " + article(f.kind()));
            }
            Path p = files.path(f);
            if (!Files.exists(p)) throw new ApiException(ErrorCode.FILE_EXPIRED, "file '" + f.id() + "' is gone (expired or deleted)");
            named.put(field.name(), new InputFile(f, p));
        }
        return named;
    }

    /**
     * Validates with the options as {@code op}'s record (a generic method, so an {@code Operation<?>} fits).
     *
     * @return the AI operations on the service's model the job will count
     */
    private static <O extends Record> int validate(Operation<O> op, Account account, List<InputFile> in, Map<String, InputFile> optionFiles,
                                                   ObjectNode options) {
        ValidationContext<O> ctx = new ValidationContext<>(account, in, op.options().bind(options), optionFiles);
        op.validate(ctx);
        return op.aiOperations(ctx);
    }

    /**
     * The submission of a job admitted earlier, on the node that runs it: its files looked up again (they may have
     * expired or been deleted since), its options as validated then.
     *
     * @throws ApiException 404 {@code file_not_found}, 410 {@code file_expired}
     */
    public Submission resume(Account account, Operation<?> op, List<String> fileIds, ObjectNode options) {
        List<StoredFile> resolved = new ArrayList<>();
        for (String id : fileIds) resolved.add(files.get(account, id));
        return new Submission(op, resolved, options, 0); // admitted earlier: its AI operations were reserved then
    }

    /**
     * Runs a validated operation in a private work directory, stores its outputs as files (source {@code job}) and
     * counts it for the account. The work directory is removed afterwards, whatever happens.
     */
    public Execution execute(Account account, Submission s, String jobId, OperationContext.ProgressListener progress) throws Exception {
        return execute(account, s, jobId, progress, 1);
    }

    /**
     * As {@link #execute(Account, Submission, String, OperationContext.ProgressListener)}, counting
     * {@code countOperations} operations on success (0 when the caller counts them itself, e.g. against a quota
     * reservation, or a workflow step run once per file that counts once). AI operations are always counted.
     */
    public Execution execute(Account account, Submission s, String jobId, OperationContext.ProgressListener progress, int countOperations) throws Exception {
        return execute(account, s.operation(), s, jobId, progress, countOperations);
    }

    /** {@link #execute(Account, Submission, String, OperationContext.ProgressListener, int)} with {@code op}'s options record. */
    private <O extends Record> Execution execute(Account account, Operation<O> op, Submission s, String jobId, OperationContext.ProgressListener progress,
                                                 int countOperations) throws Exception {
        O options = op.options().bind(s.options());
        Files.createDirectories(props.workDir());
        Path work = Files.createTempDirectory(props.workDir(), jobId + "-");
        try {
            List<InputFile> in = new ArrayList<>();
            for (StoredFile f : s.inputs()) {
                Path p = files.path(f);
                if (!Files.exists(p)) throw new ApiException(ErrorCode.FILE_EXPIRED, "input file '" + f.id() + "' is gone (expired or deleted)");
                in.add(new InputFile(f, p));
            }
            Map<String, InputFile> named = optionFiles(account, op, s.options());
            OperationContext<O> ctx = new OperationContext<>(account, jobId, in, named, options, work, progress);
            OperationResult result;
            boolean repairedInput = false;
            try {
                result = run(op, ctx);
            } catch (OperationFailure failed) {
                // The repair chain (issue 16): a PDF qpdf cannot open but PDFBox's lenient parser can is rewritten
                // by PDFBox, and the operation runs once more on what could be read.
                List<InputFile> repaired = repair.repaired(in, Files.createDirectories(work.resolve("repaired")));
                if (repaired == null) throw failed;
                ctx = new OperationContext<>(account, jobId, repaired, named, options, Files.createDirectories(work.resolve("retry")), progress);
                result = run(op, ctx);
                repairedInput = true;
            }
            for (String sentence : ctx.notes()) result = result.withNoteAdded(sentence);
            for (String sentence : signatureNotes(op, in)) result = result.withNoteAdded(sentence);
            if (repairedInput) result = result.withNoteAdded("The input was damaged and was repaired first (only what could be read was kept).");
            // work stopped at its job's deadline stores and counts nothing (issue 40 item 1)
            OperationContext<O> done = ctx;
            List<StoredFile> out = dev.docapi.jobs.BoundedWork.commit(() -> {
                List<StoredFile> stored = new ArrayList<>();
                for (Path p : done.outputs()) {
                    if (Files.exists(p)) stored.add(files.storeOutput(account.id(), p, p.getFileName().toString()));
                }
                usage.record(account.id(), countOperations, done.aiOperations());
                return stored;
            });
            return new Execution(out, result);
        } finally {
            deleteTree(work);
        }
    }

    /**
     * For an operation that writes a new document from a signed PDF (issue 27): a sentence per signed input saying
     * its signature does not survive, since any change to a signed PDF's bytes invalidates it. None for operations
     * that return data, or that keep signatures ({@link OperationSpec.Trait#KEEPS_SIGNATURES}).
     */
    private static List<String> signatureNotes(Operation<?> op, List<InputFile> in) {
        if (op.has(OperationSpec.Trait.DATA_ONLY_OUTPUT) || op.has(OperationSpec.Trait.KEEPS_SIGNATURES)) return List.of();
        return in.stream().filter(f -> f.file().kind() == FileKind.PDF && PdfSignatures.signed(f.path()))
                .map(f -> "'" + f.file().name() + "' was digitally signed: the output no longer carries a valid signature (any change to a signed PDF breaks it).")
                .toList();
    }

    /** Runs {@code op} and checks its output against its declaration, its engines' failures turned into the API's errors ({@link #failure}). */
    private static <O extends Record> OperationResult run(Operation<O> op, OperationContext<O> ctx) throws Exception {
        try {
            OperationResult result = op.run(ctx);
            op.spec().checkOutput(result);
            return result;
        } catch (EngineFailure e) {
            throw failure(e);
        }
    }

    /**
     * An engine's failure as the job's error (spec §7), its message kept: the one place engine failures meet error
     * codes, for every engine (processes, the warm LibreOffice and Chromium, child JVMs, DSS; issue 40). The input's
     * own faults are {@code invalid_file}; an engine missing on this node is {@code service_unavailable}; the rest
     * (a crash, a timeout, a sandbox bound) is {@code internal_error}, which a client may retry — never the input's
     * fault, though the message says which bound the document reached.
     */
    public static OperationFailure failure(EngineFailure e) {
        ErrorCode code = switch (e.kind()) {
            case INVALID_INPUT, PASSWORD_NEEDED -> ErrorCode.INVALID_FILE;
            case ENGINE_MISSING -> ErrorCode.SERVICE_UNAVAILABLE;
            case TIMEOUT, BOUND_EXCEEDED, FAILED -> ErrorCode.INTERNAL_ERROR;
        };
        return new OperationFailure(code, e.getMessage(), e);
    }

    /**
     * Refuses inputs of more than {@code DOCAPI_MAX_PAGES} pages in all, or an image larger than
     * {@code DOCAPI_MAX_PIXELS}, before any job: an engine's time grows with pages, a 100,000-page file would hold a
     * worker for days, and a small PNG can decode to gigabytes.
     *
     * @throws ApiException 400 {@code invalid_request} naming the file and the limit
     */
    private void checkPageLimit(List<StoredFile> inputs) {
        long total = 0;
        for (StoredFile f : inputs) {
            int pages = f.pages() == null ? 0 : f.pages();
            if (pages > maxPages) {
                throw ApiException.invalid(String.format(java.util.Locale.ROOT, "'%s' (%s) has %,d pages; the page limit is %,d per job",
                        f.name(), f.id(), pages, maxPages));
            }
            total += pages;
            if (f.kind() == FileKind.IMAGE) {
                long pixels = dev.docapi.files.ImageSize.largestFrame(files.path(f), maxPages);
                if (pixels > maxPixels) {
                    throw ApiException.invalid(String.format(java.util.Locale.ROOT, "'%s' (%s) has an image of %,d pixels; the limit is %,d pixels per image",
                            f.name(), f.id(), pixels, maxPixels));
                }
            }
        }
        if (total > maxPages) {
            throw ApiException.invalid(String.format(java.util.Locale.ROOT, "the files have %,d pages together; the page limit is %,d per job", total, maxPages));
        }
    }

    private static List<String> fileIds(JsonNode node, Inputs inputs, String op) {
        if (node == null || node.isNull()) throw ApiException.invalid("'" + inputs.member() + "' is required for " + op);
        List<String> ids = new ArrayList<>();
        if (inputs.many()) {
            if (!node.isArray()) throw ApiException.invalid("'files' must be an array of file ids");
            for (JsonNode n : node) {
                if (!n.isString()) throw ApiException.invalid("'files' must contain file ids (strings)");
                ids.add(n.asString());
            }
        } else {
            if (!node.isString()) throw ApiException.invalid("'file' must be a file id (a string)");
            ids.add(node.asString());
        }
        return ids;
    }

    private static String describe(Inputs inputs) {
        if (inputs.pdfOnly()) return "PDF files only";
        return inputs.kinds().stream().map(k -> k.id()).toList() + " files";
    }

    private static String article(FileKind kind) {
        return switch (kind) {
            case IMAGE -> "an image";
            case OFFICE -> "an Office document";
            case PDF -> "a PDF";
            case ZIP -> "a ZIP archive";
            default -> "a " + kind.id() + " file";
        };
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // already gone
        }
    }
}
