package dev.docapi.operations.agent;

import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.ModelClient;
import dev.docapi.ai.Pipeline;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.ModelOperation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OperationService;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * {@code POST /agent} (spec §4.4): a goal in plain words reached by a tool-calling loop over the operation registry
 * ({@link AgentRun}). {@code max_steps} caps the model turns. {@code output.text} is the model's summary,
 * {@code output.files} the files the run produced that no later step consumed, {@code output.steps} every operation
 * run with its arguments and result.
 */
@Component
public class AgentOperation extends ModelOperation<AgentOperation.AgentOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record AgentOptions(String goal, int maxSteps, String model) implements ModelChoice {
    }

    private static final OptionSchema<AgentOptions> OPTIONS = OptionSchema.of(AgentOptions.class,
            OptionField.string("goal").minLength(1).pattern("\\S", "must not be blank").maxLength(4000).required().description("What to do with the files, in plain words"),
            OptionField.integer("max_steps").min(1).max(15).defaultValue(8).description("Maximum model turns, 1-15"),
            modelOption(Pipeline.AGENT));
    private static final OperationSpec<AgentOptions> SPEC = OperationSpec.of("agent", "run_agent",
            "Reach a goal given in plain words: a language model chooses docapi operations, runs them on the files given, reads each result and stops when the goal is met.")
            .inputs(Inputs.many(1, 20, FileKind.PDF, FileKind.IMAGE, FileKind.OFFICE, FileKind.HTML, FileKind.MARKDOWN, FileKind.TEXT,
                    FileKind.ZIP, FileKind.JSON))
            .options(OPTIONS)
            .traits(OperationSpec.Trait.USES_MODEL, OperationSpec.Trait.NOT_A_STEP)
            .outputs(OutputMember.TEXT, OutputMember.MODEL, OutputMember.STEPS);

    private final ObjectProvider<OperationService> operations;
    private final ObjectProvider<dev.docapi.operations.OperationRegistry> registry;
    private final dev.docapi.files.FileService files;

    private final dev.docapi.limits.Reservations reservations;

    public AgentOperation(ModelCatalog catalog, ObjectProvider<OperationService> operations,
                          ObjectProvider<dev.docapi.operations.OperationRegistry> registry, dev.docapi.files.FileService files,
                          dev.docapi.limits.Reservations reservations) {
        super(catalog, Pipeline.AGENT);
        this.reservations = reservations;
        this.operations = operations;
        this.registry = registry;
        this.files = files;
    }

    @Override
    public OperationSpec<AgentOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<AgentOptions> ctx) throws Exception {
        ModelClient model = model(ctx);
        return new AgentRun(ctx, model, registry.getObject(), operations.getObject(), files, reservations).run();
    }
}
