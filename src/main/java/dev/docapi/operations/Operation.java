package dev.docapi.operations;

import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;

/**
 * One document operation, declared once. This declaration drives the {@code POST /v1/{name}} endpoint, request
 * validation, the OpenAPI schema, the MCP tool, workflow steps and the agent's tools (DESIGN §1). Implementations
 * are Spring components in {@code operations/<name>/}; adding one needs nothing else.
 *
 * @param <O> the record its options are read as ({@link OperationSpec#options}; {@link NoOptions} when it takes none)
 */
public interface Operation<O extends Record> {

    /** This operation's declaration; a constant of its class. */
    OperationSpec<O> spec();

    default String name() {
        return spec().name();
    }

    default String toolName() {
        return spec().toolName();
    }

    default String description() {
        return spec().description();
    }

    default Inputs inputs() {
        return spec().inputs();
    }

    default OptionSchema<O> options() {
        return spec().options();
    }

    default boolean has(OperationSpec.Trait trait) {
        return spec().has(trait);
    }

    /**
     * How many AI operations on the service's own model (the free plan's AI cap, spec §8) a job of this request will
     * count: reserved at admission with the job, in the same transaction, so simultaneous calls cannot pass the cap
     * (issue 25 item 5). Called after {@link #validate}; 0 for every operation that is not an AI operation.
     */
    default int aiOperations(ValidationContext<O> ctx) {
        return 0;
    }

    /**
     * Checks the request against the real input files before any job exists (spec §4.4 "400 is returned at once"),
     * e.g. page numbers beyond the document or a wrong password.
     *
     * @throws dev.docapi.core.ApiException a 4xx with the spec's code
     */
    default void validate(ValidationContext<O> ctx) {
    }

    /**
     * Runs the operation. Outputs are written to paths from {@link OperationContext#output}; anything thrown fails
     * the job ({@link OperationFailure} carries a client-safe message; other exceptions become {@code internal_error}).
     * The result carries only the output members the declaration lists ({@link OperationSpec#outputs}).
     */
    OperationResult run(OperationContext<O> ctx) throws Exception;
}
