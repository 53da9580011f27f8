package dev.docapi.operations;

import dev.docapi.accounts.Account;
import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.ModelClient;
import dev.docapi.ai.Pipeline;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * An AI operation (spec §8), the one path for "which model, may the account use it, count it": the model is the
 * request's {@code model} option ({@link #modelOption}) or else its pipeline's ({@link ModelCatalog#resolve}: 400
 * for an unknown model, 503 when none is configured); validation refuses a run on the service's own model when the
 * account's AI operations are spent (402 {@code quota_exceeded}); admission reserves one AI operation for such a run
 * ({@link #aiOperations}) and the job counts it with its first model call ({@link #chat}).
 *
 * @param <O> the options record, which has the {@code model} option
 */
public abstract class ModelOperation<O extends Record & ModelOperation.ModelChoice> implements Operation<O> {

    /** Options that name the model to run on: the {@code model} option, null for the pipeline's. */
    public interface ModelChoice {
        String model();
    }

    protected final ModelCatalog catalog;
    private final Pipeline pipeline;

    protected ModelOperation(ModelCatalog catalog, Pipeline pipeline) {
        this.catalog = catalog;
        this.pipeline = pipeline;
    }

    /** The {@code model} option of an operation on {@code pipeline}'s model. */
    public static OptionField modelOption(Pipeline pipeline) {
        return OptionField.string("model").maxLength(200).description("Model id (GET /v1/models); default: the " + pipeline.id() + " pipeline's model");
    }

    /** Checks the options beyond what their declaration says (e.g. two that exclude each other), before the model. */
    protected void validateOptions(ValidationContext<O> ctx) {
    }

    @Override
    public final void validate(ValidationContext<O> ctx) {
        validateOptions(ctx);
        catalog.checkAiQuota(ctx.account(), model(ctx.account(), ctx.options()));
    }

    @Override
    public final int aiOperations(ValidationContext<O> ctx) {
        return model(ctx.account(), ctx.options()).serviceModel() ? 1 : 0;
    }

    /** The model a request of {@code account} with {@code options} runs on. */
    protected final ModelClient model(Account account, O options) {
        return catalog.resolve(account, pipeline, options.model());
    }

    /** The model this job runs on. */
    protected final ModelClient model(OperationContext<O> ctx) {
        return model(ctx.account(), ctx.options());
    }

    /**
     * One call of {@code model}. The job's first call on the service's own model counts its one AI operation: a job
     * is one AI operation however many turns it takes (spec §8).
     */
    public static ChatResponse chat(OperationContext<?> ctx, ModelClient model, ChatRequest request) throws OperationFailure {
        ChatResponse response = model.chat(request);
        if (model.serviceModel() && ctx.aiOperations() == 0) ctx.useAiOperation();
        return response;
    }
}
