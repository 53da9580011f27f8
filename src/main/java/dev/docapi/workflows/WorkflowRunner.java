package dev.docapi.workflows;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.files.StoredFile;
import dev.docapi.jobs.JobWork;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationService;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.Step;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs a workflow's steps in process, through {@link OperationService} (spec §4.3; never over HTTP), as one job.
 *
 * <p>Files between steps (DESIGN §4): each step works on the previous step's output files; a ZIP is opened into its
 * files (so {@code split}'s PDFs reach the next step one by one); a step that takes one {@code file} runs once per
 * incoming file and its outputs together feed the step after; a step that takes {@code files} ({@code merge},
 * {@code images-to-pdf}, {@code compare}) takes them all. A step that only produces data ({@code extract}, {@code ask},
 * {@code extract-text}: {@link OperationSpec.Trait#DATA_ONLY_OUTPUT}) passes its inputs on. Every step but the first is validated
 * against its real incoming files when it is reached.
 *
 * <p>{@code output.files} is the last step's files; {@code output.steps} is one record per step: {@code {step,
 * operation, options (passwords removed), status, input_files, output_files, text?, data?, note?, model?,
 * duration_ms}}. When a step ran once per file, its {@code text} is the texts joined by a blank line and its
 * {@code data} an array. Each successful step counts one operation; a failing step fails the job with a message
 * that names it, and the failed job keeps {@code output.steps} up to that step (its record has {@code status:
 * "failed"} and {@code error: {code, message}}).
 */
@Service
public class WorkflowRunner {
    private static final Logger log = LoggerFactory.getLogger(WorkflowRunner.class);
    private static final OperationContext.ProgressListener QUIET = (d, t, u) -> { };

    private final OperationService operations;
    private final ZipOpener zips;
    private final JsonMapper json;

    public WorkflowRunner(OperationService operations, ZipOpener zips, JsonMapper json) {
        this.operations = operations;
        this.zips = zips;
        this.json = json;
    }

    /** The first step, validated against the run's real files before any job exists. */
    public record Prepared(List<Step> steps, List<OperationService.Submission> first, List<StoredFile> inputs) {
    }

    /**
     * Validates the first step against the files of the run request (spec §4.3 rule 1).
     *
     * @throws ApiException 400 {@code invalid_request} naming step 1; 404 {@code file_not_found}; 410 {@code file_expired}
     */
    public Prepared prepare(Account account, List<Step> steps, List<String> fileIds) {
        Step first = steps.getFirst();
        try {
            List<OperationService.Submission> subs = new ArrayList<>();
            if (first.operation().inputs().many()) {
                subs.add(operations.prepare(account, first.operation(), fileIds, first.options()));
            } else {
                for (String id : fileIds) subs.add(operations.prepare(account, first.operation(), List.of(id), first.options()));
            }
            List<StoredFile> inputs = subs.stream().flatMap(s -> s.inputs().stream()).toList();
            return new Prepared(steps, subs, inputs);
        } catch (ApiException e) {
            if (e.code() != ErrorCode.INVALID_REQUEST) throw e;
            throw new ApiException(e.code(), "step 1 (" + first.operation().name() + "): " + e.getMessage());
        }
    }

    /**
     * The job's {@code input}: {@code {files, options: {}, steps: [{operation, options}], workflow?}} with passwords
     * removed; {@code workflow} is the saved workflow's id (absent for an ad hoc run).
     */
    /** {@code {files, steps}} with every option (secrets included): what {@link WorkflowJobs} runs. Seal it. */
    public ObjectNode payload(Prepared p) {
        ObjectNode empty = json.createObjectNode();
        ArrayNode files = empty.putArray("files");
        p.inputs().forEach(f -> files.add(f.id()));
        ArrayNode steps = empty.putArray("steps");
        p.steps().forEach(s -> steps.addObject().put("operation", s.operation().name()).set("options", s.options()));
        return empty;
    }

    public ObjectNode storedInput(Prepared p, String workflowId) {
        ObjectNode input = json.createObjectNode();
        ArrayNode files = input.putArray("files");
        p.inputs().forEach(f -> files.add(f.id()));
        input.putObject("options");
        ArrayNode steps = input.putArray("steps");
        p.steps().forEach(s -> steps.add(s.view(json.createObjectNode())));
        if (workflowId != null) input.put("workflow", workflowId);
        return input;
    }

    /** Runs every step; the job's task. */
    public JobWork.Outcome run(Account account, Prepared p, String jobId, OperationContext.ProgressListener progress, JobWork.Meter meter)
            throws Exception {
        List<Step> steps = p.steps();
        ArrayNode records = json.createArrayNode();
        List<StoredFile> incoming = p.inputs();
        List<StoredFile> lastFiles = List.of();
        List<OperationResult> lastResults = List.of();
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            Operation<?> op = step.operation();
            String where = "step " + (i + 1) + " of " + steps.size() + " (" + op.name() + ")";
            progress.progress(i, steps.size(), "steps");
            long started = System.nanoTime();
            List<StoredFile> in = incoming;
            List<StoredFile> produced = new ArrayList<>();
            List<OperationResult> results = new ArrayList<>();
            try {
                in = i == 0 ? incoming : openArchives(incoming);
                List<OperationService.Submission> subs = i == 0 ? p.first() : submissions(account, step, in);
                for (OperationService.Submission s : subs) {
                    OperationService.Execution e = operations.execute(account, s, jobId, QUIET, 0);
                    produced.addAll(e.files());
                    results.add(e.result());
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (OperationFailure | ApiException e) {
                ErrorCode code = e instanceof OperationFailure f ? f.code() : ((ApiException) e).code();
                throw failed(records, i, step, in, produced, started, code, where + " failed: " + e.getMessage() + done(i), e);
            } catch (Exception e) {
                log.error("job {}: {} failed unexpectedly", jobId, where, e);
                throw failed(records, i, step, in, produced, started, ErrorCode.INTERNAL_ERROR,
                        where + " failed unexpectedly; it is safe to retry" + done(i), e);
            }
            meter.succeeded(1);
            records.add(record(i, step, in, produced, results, System.nanoTime() - started));
            lastFiles = produced.isEmpty() ? in : produced;
            lastResults = results;
            incoming = op.has(OperationSpec.Trait.DATA_ONLY_OUTPUT) ? in : lastFiles;
            if (incoming.isEmpty() && i + 1 < steps.size()) {
                throw new OperationFailure(where + " produced no files for step " + (i + 2) + done(i + 1));
            }
        }
        progress.progress(steps.size(), steps.size(), "steps");
        OperationResult merged = merge(lastResults);
        if (merged.data() instanceof ArrayNode runs) {
            // output.data is always an object (stock generated clients read no "object or array"; issue 39): the data of
            // a last step run once per file is given in the API's list envelope; output.steps keeps the plain array
            ObjectNode list = json.createObjectNode().put("object", "list");
            list.set("data", runs);
            merged = merged.withData(list);
        }
        return new JobWork.Outcome(lastFiles, merged.withSteps(records));
    }

    /** The failure of step {@code i}, carrying {@code output.steps} with that step's record (status failed). */
    private OperationFailure failed(ArrayNode records, int i, Step step, List<StoredFile> in, List<StoredFile> produced, long started,
                                    ErrorCode code, String message, Exception cause) {
        ObjectNode r = record(i, step, in, produced, List.of(), System.nanoTime() - started);
        r.put("status", "failed");
        r.set("error", json.createObjectNode().put("code", code.code()).put("message", message));
        records.add(r);
        return new OperationFailure(code, message, cause, OperationResult.empty().withSteps(records));
    }

    private List<OperationService.Submission> submissions(Account account, Step step, List<StoredFile> in) {
        List<String> ids = in.stream().map(StoredFile::id).toList();
        List<OperationService.Submission> subs = new ArrayList<>();
        if (step.operation().inputs().many()) subs.add(operations.prepare(account, step.operation(), ids, step.options()));
        else for (String id : ids) subs.add(operations.prepare(account, step.operation(), List.of(id), step.options()));
        return subs;
    }

    private List<StoredFile> openArchives(List<StoredFile> files) throws Exception {
        List<StoredFile> out = new ArrayList<>();
        for (StoredFile f : files) {
            if (f.kind() == FileKind.ZIP) out.addAll(zips.open(f));
            else out.add(f);
        }
        return out;
    }

    private ObjectNode record(int i, Step step, List<StoredFile> in, List<StoredFile> out, List<OperationResult> results, long nanos) {
        ObjectNode r = json.createObjectNode();
        r.put("step", i + 1);
        r.put("operation", step.operation().name());
        r.set("options", step.operation().options().redact(step.options()));
        r.put("status", "succeeded");
        ArrayNode inIds = r.putArray("input_files");
        in.forEach(f -> inIds.add(f.id()));
        ArrayNode outIds = r.putArray("output_files");
        out.forEach(f -> outIds.add(f.id()));
        OperationResult m = merge(results);
        if (m.text() != null) r.put("text", m.text());
        if (m.data() != null) r.set("data", m.data());
        if (m.note() != null) r.put("note", m.note());
        if (m.model() != null) r.put("model", m.model());
        if (m.sources() != null) r.set("sources", m.sources());
        r.put("duration_ms", nanos / 1_000_000);
        return r;
    }

    /**
     * The results of a step's runs as one: a single run as is; several with texts and notes joined, data as an array,
     * and no sources (a source's page would not say which file).
     */
    private OperationResult merge(List<OperationResult> results) {
        if (results.size() == 1) return results.getFirst().withSteps(null);
        if (results.isEmpty()) return OperationResult.empty();
        List<String> texts = results.stream().map(OperationResult::text).filter(t -> t != null).toList();
        List<String> notes = results.stream().map(OperationResult::note).filter(t -> t != null).distinct().toList();
        ArrayNode data = json.createArrayNode();
        results.stream().map(OperationResult::data).filter(d -> d != null).forEach(data::add);
        String model = results.stream().map(OperationResult::model).filter(m -> m != null).findFirst().orElse(null);
        return new OperationResult(texts.isEmpty() ? null : String.join("\n\n", texts), data.isEmpty() ? null : data,
                notes.isEmpty() ? null : String.join("; ", notes), model, null, null);
    }

    private static String done(int succeeded) {
        return succeeded == 0 ? " (no step had finished)" : " (" + succeeded + " step" + (succeeded == 1 ? "" : "s") + " had succeeded and counted)";
    }
}
