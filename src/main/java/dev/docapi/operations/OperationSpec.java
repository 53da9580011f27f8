package dev.docapi.operations;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What an operation is, declared once in its package (DESIGN §1): the path name, the MCP tool name, the description
 * shown in OpenAPI, MCP and to the agent, the input files, the options and the traits. Everything that routes,
 * validates or describes operations (HTTP, OpenAPI, MCP, workflows, the agent) reads this declaration, never a name.
 * Build with {@code OperationSpec.of("rotate", "rotate_pdf", "Rotate …").inputs(Inputs.onePdf()).options(...)}.
 *
 * @param name        the path name, e.g. {@code remove-pages}
 * @param toolName    the MCP tool name, e.g. {@code remove_pages}
 * @param description one or two sentences for OpenAPI and MCP: what it does, what it returns
 * @param inputs      the input files ({@code file} or {@code files}) and their kinds
 * @param options     the options: validation and JSON Schema from one declaration
 * @param traits      what callers must know about it besides its options
 */
public record OperationSpec(String name, String toolName, String description, Inputs inputs, OptionSchema options, Set<Trait> traits) {

    public enum Trait {
        /** Takes a PDF that needs a password to open (unlock); every other operation refuses one at validation (spec §4.4). */
        ACCEPTS_ENCRYPTED_INPUT,
        /**
         * Produces data (text, JSON), not a document: in a workflow the next step takes this step's input files
         * (spec §4.3 rule 3).
         */
        DATA_ONLY_OUTPUT,
        /** Calls a language model (counted as an AI operation on the service's model). */
        USES_MODEL,
        /** Plans other operations (the agent): not a workflow step and not one of the agent's own tools. */
        NOT_A_STEP
    }

    public OperationSpec {
        Objects.requireNonNull(name);
        Objects.requireNonNull(toolName);
        Objects.requireNonNull(description);
        Objects.requireNonNull(inputs, () -> name + ": inputs are not declared");
        traits = traits.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(traits));
    }

    /** A declaration of one PDF in, no options and no traits; refine it with the {@code with…} methods. */
    public static OperationSpec of(String name, String toolName, String description) {
        return new OperationSpec(name, toolName, description, Inputs.onePdf(), OptionSchema.none(), Set.of());
    }

    public OperationSpec inputs(Inputs value) {
        return new OperationSpec(name, toolName, description, value, options, traits);
    }

    public OperationSpec options(OptionSchema value) {
        return new OperationSpec(name, toolName, description, inputs, value, traits);
    }

    public OperationSpec traits(Trait first, Trait... rest) {
        return new OperationSpec(name, toolName, description, inputs, options, EnumSet.of(first, rest));
    }

    /**
     * The JSON Schema {@code properties} of a request to this operation: the input member, described by
     * {@code inputSchema} (file ids over HTTP and to the agent; ids, URLs or uploads over MCP), then the options.
     * Callers add {@code wait} and {@code webhook_url} where they take them.
     */
    public Map<String, Object> requestProperties(Map<String, Object> inputSchema) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put(inputs.member(), inputSchema);
        props.putAll(options.properties());
        return props;
    }

    /** The required members of a request: the input member, then the required options. */
    public List<String> requiredMembers() {
        List<String> required = new ArrayList<>();
        required.add(inputs.member());
        required.addAll(options.required());
        return required;
    }

    public boolean has(Trait trait) {
        return traits.contains(trait);
    }
}
