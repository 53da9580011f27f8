package dev.docapi.mcp;

import dev.docapi.core.J;
import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.api.JobResponses;
import dev.docapi.api.OperationSubmitter;
import dev.docapi.api.Views;
import dev.docapi.api.WebhookUrls;
import dev.docapi.files.FileService;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobRunner;
import dev.docapi.jobs.JobStore;
import dev.docapi.operations.StepValidator;
import dev.docapi.workflows.WorkflowService;
import dev.docapi.workflows.WorkflowStore;
import dev.docapi.openapi.OperationRequestSchema;
import dev.docapi.openapi.StandaloneSchema;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The MCP tools (spec §1, §4.2, §5.6): one per registered operation (name {@link Operation#toolName()}, input schema
 * = the input files + the operation's options + {@code wait}/{@code webhook_url}), plus {@code get_job},
 * {@code list_files}, {@code list_workflows} and {@code run_workflow}. Each tool declares an {@code outputSchema} (MCP
 * 2025-06-18 on: the API's Job, FileList or WorkflowList, which its structured result is) and annotations: the tools
 * that only read (get and list tools, and operations whose output is data or text: validate-pdfa, form-fields, …)
 * are {@code readOnlyHint}; none is destructive (an operation writes new files, never over its input). A tool call goes through the same services as the HTTP API ({@link OperationSubmitter},
 * {@link JobRunner}), so it is validated, limited (job cap, quota) and counted the same way; the
 * per-key request rate limit applies to {@code /v1/mcp} like every path.
 */
@Component
public class McpTools {
    private static final Logger log = LoggerFactory.getLogger(McpTools.class);

    private final OperationRegistry registry;
    private final OperationSubmitter submitter;
    private final JobRunner runner;
    private final WorkflowStore workflows;
    private final WorkflowService workflowService;
    private final JobStore jobs;
    private final FileService files;
    private final ToolFiles toolFiles;
    private final Views views;
    private final WebhookUrls webhookUrls;
    private final JsonMapper json;

    public McpTools(OperationRegistry registry, OperationSubmitter submitter, JobRunner runner, JobStore jobs,
                    FileService files, ToolFiles toolFiles, Views views, WebhookUrls webhookUrls, JsonMapper json,
                    WorkflowStore workflows, WorkflowService workflowService) {
        this.workflows = workflows;
        this.workflowService = workflowService;
        this.registry = registry;
        this.submitter = submitter;
        this.runner = runner;
        this.jobs = jobs;
        this.files = files;
        this.toolFiles = toolFiles;
        this.views = views;
        this.webhookUrls = webhookUrls;
        this.json = json;
    }

    /** Every tool, operations first (in name order). */
    public List<SyncToolSpecification> all() {
        Map<String, Object> job = StandaloneSchema.of("Job", registry.all());
        List<SyncToolSpecification> tools = new ArrayList<>();
        for (Operation<?> op : registry.all()) tools.add(operationTool(op, job));
        tools.add(tool("get_job", "Get a job by id: its status and, once succeeded, its output files with one-hour download_url links, text and data. "
                        + "Poll with this when a tool answered with a job that is still running.",
                schema(J.o("job_id", J.o("type", "string", "description", "the job id (job_...)")), List.of("job_id")), job, Kind.LOOKS_UP,
                (account, args) -> ToolResults.job(views.job(jobs.get(account.id(), string(args, "job_id"))))));
        tools.add(tool("list_files", "List the account's files of the last 24 hours, newest first, each with its id and a one-hour download_url. "
                        + "Pass a file id to any tool instead of sending the file again.",
                schema(J.o("limit", J.o("type", "integer", "minimum", 1, "maximum", 200, "default", 50)), List.of()),
                StandaloneSchema.of("FileList", registry.all()), Kind.LOOKS_UP,
                (account, args) -> {
                    boolean given = args.hasNonNull("limit");
                    if (given && !(args.get("limit").isIntegralNumber() && args.get("limit").canConvertToInt())) throw ApiException.invalid("'limit' must be an integer from 1 to 200");
                    int limit = given ? args.get("limit").asInt() : 50;
                    if (limit < 1 || limit > 200) throw ApiException.invalid("'limit' must be an integer from 1 to 200");
                    var list = views.list(files.list(account, limit).stream().map(views::file).toList());
                    return ToolResults.value(list, list.get("data").size() + " files:\n" + list.get("data").valueStream()
                            .map(f -> f.path("id").asString() + "  " + f.path("name").asString() + "  " + f.path("size").asLong() + " bytes")
                            .reduce("", (a, b) -> a + b + "\n"));
                }));
        tools.add(tool("list_workflows", "List the account's saved workflows (named chains of 1-10 operation steps) with their ids and steps. "
                        + "Run one with run_workflow.",
                schema(J.o(), List.of()), StandaloneSchema.of("WorkflowList", registry.all()), Kind.LOOKS_UP,
                (account, args) -> {
                    var list = views.list(workflows.list(account.id()).stream().map(workflowService::view).toList());
                    return ToolResults.value(list, list.get("data").size() + " workflows:\n" + list.get("data").valueStream()
                            .map(w -> w.path("id").asString() + "  " + w.path("name").asString() + "  " + w.path("steps").toString())
                            .reduce("", (a, b) -> a + b + "\n"));
                }));
        Map<String, Object> runProps = new LinkedHashMap<>();
        runProps.put("workflow_id", J.o("type", "string", "description", "a saved workflow's id (wf_...); or give steps"));
        runProps.put("steps", J.o("type", "array", "minItems", 1, "maxItems", StepValidator.MAX_STEPS,
                "description", "steps to run without saving: [{operation, options?}], e.g. [{\"operation\": \"compress\", \"options\": {\"level\": \"ebook\"}}]",
                "items", J.o("type", "object", "required", List.of("operation"), "properties", J.o(
                        "operation", J.o("type", "string", "enum", registry.all().stream().map(Operation::name).toList()),
                        "options", J.o("type", "object")))));
        runProps.put("file", ToolFiles.fileSchema("the input file (or give files)"));
        runProps.put("files", J.o("type", "array", "minItems", 1, "items", ToolFiles.fileSchema("an input file"), "description", "the input files"));
        runProps.putAll(OperationRequestSchema.commonMembers(
                "seconds to wait for the result; a job still running then is returned with its id (poll with get_job)"));
        tools.add(tool("run_workflow", "Run a saved workflow (workflow_id) or ad hoc steps on a file or files, as one job: each step works on the "
                        + "previous step's output; each succeeded step counts as one operation. Returns the job with the last step's files.",
                schema(runProps, List.of()), job, Kind.WRITES, this::runWorkflow));
        return tools;
    }

    private CallToolResult runWorkflow(Account account, ObjectNode args) throws InterruptedException {
        boolean saved = args.hasNonNull("workflow_id");
        if (saved == args.hasNonNull("steps")) {
            throw ApiException.invalid(saved ? "give either 'workflow_id' (a saved workflow) or 'steps', not both"
                    : "give 'workflow_id' (a saved workflow) or 'steps' (a list of {operation, options}) to run");
        }
        if (args.hasNonNull("file") == args.hasNonNull("files")) {
            throw ApiException.invalid(args.hasNonNull("file") ? "give the input as 'file' or 'files', not both"
                    : "give the input as 'file' (one file id) or 'files' (an array of file ids)");
        }
        int wait = JobResponses.waitSeconds(args.get("wait"));
        String webhook = webhookUrls.check(args.get("webhook_url"));
        List<String> ids = args.hasNonNull("file")
                ? toolFiles.resolve(account, args.get("file"), dev.docapi.operations.Inputs.onePdf())
                : toolFiles.resolve(account, args.get("files"), new dev.docapi.operations.Inputs(true, 1, Integer.MAX_VALUE, java.util.EnumSet.allOf(dev.docapi.core.FileKind.class)));
        Job job = saved ? workflowService.runSaved(account, string(args, "workflow_id"), ids, webhook)
                : workflowService.runAdHoc(account, args.get("steps"), ids, webhook);
        Job current = wait > 0 ? runner.await(job, wait) : job;
        return ToolResults.job(views.job(current));
    }

    private SyncToolSpecification operationTool(Operation<?> op, Map<String, Object> job) {
        Map<String, Object> props = op.spec().requestProperties(ToolFiles.inputSchema(op.inputs()));
        props.putAll(OperationRequestSchema.commonMembers(
                "seconds to wait for the result; if the job is still running after that, the result is its id and status (poll with get_job)"));
        String description = op.description() + " Files: a file id, an http(s) URL, or {name, content_base64} up to 10 MB. "
                + "Returns the job id and status and, when finished, the output files as one-hour download_url links"
                + " (plus text or data where the operation has them).";
        // an operation whose output is data or text (validate-pdfa, form-fields, extract, …) reads its input and changes nothing
        Kind kind = op.spec().has(OperationSpec.Trait.DATA_ONLY_OUTPUT) ? Kind.READS_DOCUMENT : Kind.WRITES;
        return tool(op.toolName(), description, schema(props, op.spec().requiredMembers()), job, kind, (account, args) -> runOperation(account, op, args));
    }

    private CallToolResult runOperation(Account account, Operation<?> op, ObjectNode args) throws InterruptedException {
        // Exactly as POST /v1/{operation}: validated, admitted against the job cap and quota, counted once on success.
        OperationSubmitter.Submitted s = submitter.submit(account, op, args, (member, inputs) -> toolFiles.resolve(account, member, inputs));
        Job current = s.waitSeconds() > 0 ? runner.await(s.job(), s.waitSeconds()) : s.job();
        return ToolResults.job(views.job(current));
    }

    @FunctionalInterface
    interface Handler {
        CallToolResult handle(Account account, ObjectNode args) throws Exception;
    }

    /**
     * What a tool does, for its MCP annotations ({@code readOnlyHint}, {@code destructiveHint}, {@code idempotentHint},
     * {@code openWorldHint}). No tool is destructive: nothing is overwritten or deleted, an operation's outputs are new files.
     */
    private enum Kind {
        /** get and list: read the account's records only; read-only, idempotent, closed world. */
        LOOKS_UP(true, false),
        /** an operation whose output is data or text (validate-pdfa, form-fields, extract, …): reads its input, changes no
         * document; read-only, idempotent; open world (a URL input is fetched, a webhook is POSTed, a model may be asked). */
        READS_DOCUMENT(true, true),
        /** an operation or workflow that makes new documents: each call is a new job; open world as above. */
        WRITES(false, true);

        final boolean readOnly;
        final boolean openWorld;

        Kind(boolean readOnly, boolean openWorld) {
            this.readOnly = readOnly;
            this.openWorld = openWorld;
        }

        ToolAnnotations annotations() {
            return new ToolAnnotations(null, readOnly, false, readOnly, openWorld, null);
        }
    }

    private SyncToolSpecification tool(String name, String description, Map<String, Object> inputSchema, Map<String, Object> outputSchema,
                                       Kind kind, Handler handler) {
        Tool tool = Tool.builder().name(name).description(description).inputSchema(inputSchema).outputSchema(outputSchema)
                .annotations(kind.annotations()).build();
        BiFunction<McpTransportContext, CallToolRequest, CallToolResult> call = (ctx, request) -> {
            try {
                Account account = (Account) ctx.get(McpServerConfig.ACCOUNT);
                if (account == null) throw new ApiException(ErrorCode.MISSING_API_KEY, "send your API key as 'Authorization: Bearer <key>'");
                ObjectNode args = request.arguments() == null ? json.createObjectNode() : json.valueToTree(request.arguments());
                return handler.handle(account, args);
            } catch (ApiException e) {
                return ToolResults.error(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ToolResults.error(new ApiException(ErrorCode.INTERRUPTED, "the call was interrupted; try again"));
            } catch (Exception e) {
                log.error("MCP tool {} failed unexpectedly", name, e);
                return ToolResults.error(new ApiException(ErrorCode.INTERNAL_ERROR, "an unexpected error occurred; it is safe to retry"));
            }
        };
        return SyncToolSpecification.builder().tool(tool).callHandler(call).build();
    }

    private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        if (!required.isEmpty()) s.put("required", required);
        s.put("additionalProperties", false);
        return s;
    }

    private static String string(ObjectNode args, String member) {
        if (!args.path(member).isString()) throw ApiException.invalid("'" + member + "' is required (a string)");
        return args.get(member).asString();
    }
}
