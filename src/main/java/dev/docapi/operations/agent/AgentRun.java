package dev.docapi.operations.agent;

import dev.docapi.core.J;
import dev.docapi.ai.JsonSchemas;
import dev.docapi.ai.ModelClient;
import dev.docapi.ai.ModelJson;
import dev.docapi.core.ApiException;
import dev.docapi.files.FileService;
import dev.docapi.files.StoredFile;
import dev.docapi.limits.Reservations;
import dev.docapi.contract.InputFile;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.ModelOperation;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.operations.OperationRegistry;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OperationService;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One agent run: the model sees the registry's operations as tools (all but {@code agent} itself) and the files it
 * may use; each tool call goes through {@link OperationService#prepare} and {@link OperationService#execute} in
 * process — the same validation, limits and counting as the HTTP API: each step reserves its operation of the month's
 * quota before it runs ({@link Reservations}, as admission does), so no route overshoots the quota (issue 15). A call naming a file the run has not seen is
 * refused back to the model. Errors of one step are reported to the model, which may correct itself.
 */
final class AgentRun {
    private static final Logger log = LoggerFactory.getLogger(AgentRun.class);
    private static final int MAX_RESULT_TEXT = 4000;
    private static final String SYSTEM = """
            You are the docapi agent. You reach the user's goal by calling document operations (the tools) on the files \
            you have, referenced by file id. Call the tools needed, read each result, and use the files a step created as \
            inputs of the next step. You can only use the files listed by the user and the files your steps create.
            When the goal is met, or cannot be met, reply without calling a tool: a short summary of what you did and \
            which files are the result (or why the goal could not be met).""";

    private final OperationContext<AgentOperation.AgentOptions> ctx;
    private final ModelClient model;
    private final OperationRegistry registry;
    private final OperationService operations;
    private final FileService files;
    private final Reservations reservations;
    private final Map<String, Operation<?>> tools = new LinkedHashMap<>();
    private final Set<String> visible = new HashSet<>();
    private final Map<String, StoredFile> created = new LinkedHashMap<>();
    private final Set<String> consumed = new HashSet<>();
    private final ArrayNode steps = ModelJson.JSON.createArrayNode();

    AgentRun(OperationContext<AgentOperation.AgentOptions> ctx, ModelClient model, OperationRegistry registry, OperationService operations, FileService files,
             Reservations reservations) {
        this.reservations = reservations;
        this.ctx = ctx;
        this.model = model;
        this.registry = registry;
        this.operations = operations;
        this.files = files;
    }

    OperationResult run() throws Exception {
        List<ToolSpecification> specs = new ArrayList<>();
        for (Operation<?> op : registry.all()) {
            if (op.has(OperationSpec.Trait.NOT_A_STEP)) continue;
            tools.put(op.toolName(), op);
            specs.add(ToolSpecification.builder().name(op.toolName()).description(op.description()).parameters(JsonSchemas.object(parameters(op))).build());
        }
        StringBuilder intro = new StringBuilder("Goal: ").append(ctx.options().goal()).append("\n\nFiles:\n");
        for (InputFile in : ctx.inputs()) {
            visible.add(in.file().id());
            intro.append(describe(in.file())).append('\n');
        }
        List<ChatMessage> messages = new ArrayList<>(List.of(SystemMessage.from(SYSTEM), UserMessage.from(intro.toString())));
        int maxTurns = ctx.options().maxSteps();
        String summary = null;
        for (int turn = 1; turn <= maxTurns && summary == null; turn++) {
            ctx.progress(turn - 1, maxTurns, "steps");
            AiMessage ai = ModelOperation.chat(ctx, model, ChatRequest.builder().messages(messages).toolSpecifications(specs).build()).aiMessage();
            messages.add(ai);
            if (!ai.hasToolExecutionRequests()) {
                summary = ai.text() == null || ai.text().isBlank() ? "Done." : ai.text().strip();
                break;
            }
            for (ToolExecutionRequest call : ai.toolExecutionRequests()) {
                messages.add(ToolExecutionResultMessage.from(call, ModelJson.JSON.writeValueAsString(runTool(call))));
            }
        }
        if (summary == null) summary = "Stopped after " + maxTurns + " model turn" + (maxTurns == 1 ? "" : "s") + " (max_steps) before the goal was reported as met; "
                + steps.size() + " operation" + (steps.size() == 1 ? "" : "s") + " ran.";
        for (StoredFile f : created.values()) {
            if (consumed.contains(f.id())) continue;
            Files.copy(files.path(f), ctx.output(f.name()));
        }
        return OperationResult.ofText(summary).withModel(model.id()).withSteps(steps);
    }

    /** Runs one tool call; the returned object is what the model reads (and what the step records). */
    private ObjectNode runTool(ToolExecutionRequest call) {
        ObjectNode step = steps.addObject();
        step.put("step", steps.size());
        ObjectNode result = ModelJson.JSON.createObjectNode();
        Operation<?> op = tools.get(call.name());
        step.put("operation", op == null ? call.name() : op.name());
        JsonNode args;
        try {
            args = ModelJson.JSON.readTree(call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments());
        } catch (JacksonException e) {
            args = null;
        }
        if (op == null || args == null || !args.isObject()) {
            step.set("arguments", args == null ? step.stringNode(String.valueOf(call.arguments())) : args);
            return fail(step, result, "invalid_request", op == null ? "there is no tool '" + call.name() + "'" : "the arguments are not a JSON object");
        }
        ObjectNode body = (ObjectNode) args;
        body.remove("wait");
        body.remove("webhook_url");
        step.set("arguments", op.options().redact(body));
        List<String> ids = new ArrayList<>();
        JsonNode member = body.get(op.inputs().member());
        if (member != null) {
            if (member.isArray()) member.forEach(n -> ids.add(n.asString()));
            else ids.add(member.asString());
        }
        for (String id : ids) {
            if (!visible.contains(id)) return fail(step, result, "file_not_found", "file '" + id + "' is not one of the files of this run");
        }
        try {
            var submission = operations.prepare(ctx.account(), op.name(), body);
            Reservations.Reservation reservation = reservations.reserveFor(ctx.account(), null, 1);
            OperationService.Execution execution;
            try {
                execution = operations.execute(ctx.account(), submission, ctx.jobId() + "-s" + steps.size(), (d, t, u) -> { }, 0);
                reservations.commit(reservation, 1);
            } finally {
                reservations.releaseReservation(reservation.id());
            }
            consumed.addAll(ids);
            ArrayNode out = result.putArray("files");
            for (StoredFile f : execution.files()) {
                visible.add(f.id());
                created.put(f.id(), f);
                out.addObject().put("id", f.id()).put("name", f.name()).put("kind", f.kind().id()).put("size", f.size())
                        .put("pages", f.pages());
            }
            OperationResult r = execution.result();
            if (r.text() != null) result.put("text", r.text().length() > MAX_RESULT_TEXT ? r.text().substring(0, MAX_RESULT_TEXT) + "..." : r.text());
            if (r.data() != null) result.set("data", r.data());
            if (r.note() != null) result.put("note", r.note());
            step.put("status", "succeeded");
            step.set("result", result.deepCopy());
            result.put("status", "succeeded");
            return result;
        } catch (ApiException e) {
            return fail(step, result, e.code().code(), e.getMessage());
        } catch (OperationFailure e) {
            return fail(step, result, e.code().code(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail(step, result, "interrupted", "the run was interrupted");
        } catch (Exception e) {
            log.warn("agent step {} ({}) failed", steps.size(), op.name(), e);
            return fail(step, result, "internal_error", "the operation failed unexpectedly");
        }
    }

    private static ObjectNode fail(ObjectNode step, ObjectNode result, String code, String message) {
        step.put("status", "failed");
        step.putObject("error").put("code", code).put("message", message);
        result.put("status", "failed");
        result.putObject("error").put("code", code).put("message", message);
        return result;
    }

    /** The tool's parameters: its input member (a file id, or an array of them) and its options' JSON Schema. */
    static ObjectNode parameters(Operation<?> op) {
        Inputs in = op.inputs();
        Map<String, Object> input = in.many()
                ? J.o("type", "array", "description", "ids of the input files (" + in.min() + "-" + in.max() + ")", "items", J.o("type", "string"))
                : J.o("type", "string", "description", "id of the input file");
        ObjectNode s = ModelJson.JSON.createObjectNode();
        s.put("type", "object");
        s.set("properties", ModelJson.JSON.valueToTree(op.spec().requestProperties(input)));
        s.set("required", ModelJson.JSON.valueToTree(op.spec().requiredMembers()));
        return s;
    }

    private static String describe(StoredFile f) {
        return "- " + f.id() + ": '" + f.name() + "' (" + f.kind().id() + (f.pages() != null ? ", " + f.pages() + " page" + (f.pages() == 1 ? "" : "s") : "")
                + ", " + f.size() + " bytes)";
    }
}
