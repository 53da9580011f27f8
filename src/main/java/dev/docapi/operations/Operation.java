package dev.docapi.operations;

/**
 * One document operation, declared once. This declaration drives the {@code POST /v1/{name}} endpoint, request
 * validation, the OpenAPI schema, the MCP tool, workflow steps and the agent's tools (DESIGN §1). Implementations
 * are Spring components in {@code operations/<name>/}; adding one needs nothing else.
 */
public interface Operation {

    /** This operation's declaration; a constant of its class. */
    OperationSpec spec();

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

    default OptionSchema options() {
        return spec().options();
    }

    default boolean has(OperationSpec.Trait trait) {
        return spec().has(trait);
    }

    /**
     * Checks the request against the real input files before any job exists (spec §4.4 "400 is returned at once"),
     * e.g. page numbers beyond the document or a wrong password.
     *
     * @throws dev.docapi.api.ApiException a 4xx with the spec's code
     */
    default void validate(ValidationContext ctx) {
    }

    /**
     * Runs the operation. Outputs are written to paths from {@link OperationContext#output}; anything thrown fails
     * the job ({@link OperationFailure} carries a client-safe message; other exceptions become {@code internal_error}).
     */
    OperationResult run(OperationContext ctx) throws Exception;
}
