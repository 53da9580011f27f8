package dev.docapi.operations.agent;

import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.ModelClient;
import dev.docapi.ai.Pipeline;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OperationService;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * {@code POST /agent} (spec §4.4): a goal in plain words reached by a tool-calling loop over the operation registry
 * ({@link AgentRun}). {@code max_steps} caps the model turns. {@code output.text} is the model's summary,
 * {@code output.files} the files the run produced that no later step consumed, {@code output.steps} every operation
 * run with its arguments and result.
 */
@Component
public class AgentOperation implements Operation<AgentOperation.AgentOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record AgentOptions(String goal, int maxSteps, String model) {
    }

    private static final OptionSchema<AgentOptions> OPTIONS = OptionSchema.of(AgentOptions.class,
            OptionField.string("goal").minLength(1).maxLength(4000).required().description("What to do with the files, in plain words"),
            OptionField.integer("max_steps").min(1).max(15).defaultValue(8).description("Maximum model turns, 1-15"),
            OptionField.string("model").maxLength(200).description("Model id (GET /v1/models); default: the agent pipeline's model"));
    private static final OperationSpec<AgentOptions> SPEC = OperationSpec.of("agent", "run_agent",
            "Reach a goal given in plain words: a language model chooses docapi operations, runs them on the files given, reads each result and stops when the goal is met.")
            .inputs(Inputs.many(1, 20, FileKind.PDF, FileKind.IMAGE, FileKind.OFFICE, FileKind.HTML, FileKind.MARKDOWN, FileKind.TEXT,
                    FileKind.ZIP, FileKind.JSON))
            .options(OPTIONS)
            .traits(OperationSpec.Trait.USES_MODEL, OperationSpec.Trait.NOT_A_STEP)
            .outputs(OutputMember.TEXT, OutputMember.MODEL, OutputMember.STEPS);

    private final ModelCatalog catalog;
    private final ObjectProvider<OperationService> operations;
    private final ObjectProvider<dev.docapi.operations.OperationRegistry> registry;
    private final dev.docapi.files.FileService files;

    private final dev.docapi.limits.Reservations reservations;

    public AgentOperation(ModelCatalog catalog, ObjectProvider<OperationService> operations,
                          ObjectProvider<dev.docapi.operations.OperationRegistry> registry, dev.docapi.files.FileService files,
                          dev.docapi.limits.Reservations reservations) {
        this.reservations = reservations;
        this.catalog = catalog;
        this.operations = operations;
        this.registry = registry;
        this.files = files;
    }

    @Override
    public OperationSpec<AgentOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<AgentOptions> ctx) {
        if (ctx.options().goal().isBlank()) throw dev.docapi.core.ApiException.invalid("'goal' must not be blank");
        ModelClient model = catalog.resolve(ctx.account(), Pipeline.AGENT, ctx.options().model());
        catalog.checkAiQuota(ctx.account(), model);
    }

    @Override
    public int aiOperations(ValidationContext<AgentOptions> ctx) {
        return catalog.resolve(ctx.account(), Pipeline.AGENT, ctx.options().model()).serviceModel() ? 1 : 0;
    }

    @Override
    public OperationResult run(OperationContext<AgentOptions> ctx) throws Exception {
        ModelClient model = catalog.resolve(ctx.account(), Pipeline.AGENT, ctx.options().model());
        return new AgentRun(ctx, model, registry.getObject(), operations.getObject(), files, reservations).run();
    }
}
