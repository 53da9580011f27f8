package dev.docapi.operations;

import dev.docapi.contract.OperationResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What an operation is, declared once in its package (DESIGN §1): the path name, the MCP tool name, the description
 * shown in OpenAPI, MCP and to the agent, the input files, the options, the output members and the traits.
 * Everything that routes, validates or describes operations (HTTP, OpenAPI, MCP, workflows, the agent) reads this
 * declaration, never a name. Build with
 * {@code OperationSpec.of("rotate", "rotate_pdf", "Rotate …").inputs(Inputs.onePdf()).options(OptionSchema.of(RotateOptions.class, ...))}.
 *
 * @param name        the path name, e.g. {@code remove-pages}
 * @param toolName    the MCP tool name, e.g. {@code remove_pages}
 * @param description one or two sentences for OpenAPI and MCP: what it does, what it returns
 * @param inputs      the input files ({@code file} or {@code files}) and their kinds
 * @param options     the options: validation, JSON Schema and the record {@code O} from one declaration
 * @param outputs     the members of {@code output} it may return besides {@code files} (always there), e.g. {@code note}
 * @param traits      what callers must know about it besides its options
 * @param deadline    how long a job of it may run when that is known to be longer than {@code DOCAPI_JOB_DEADLINE}
 *                    (the job gets the longer of the two; issue 40 item 1), or null: {@code DOCAPI_JOB_DEADLINE}
 * @param <O>         the options record the operation reads ({@link NoOptions} when it takes none)
 */
public record OperationSpec<O extends Record>(String name, String toolName, String description, Inputs inputs, OptionSchema<O> options,
                                              Set<OutputMember> outputs, Set<Trait> traits,
                                              java.time.Duration deadline) {

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
        NOT_A_STEP,
        /**
         * Leaves an input's digital signatures valid (sign appends an incremental update; compress returns a signed PDF
         * unchanged). Every other operation that writes a PDF says in its note that a signed input's signature is lost.
         */
        KEEPS_SIGNATURES,
        /**
         * Gives something other than one PDF for a PDF (split: a ZIP of parts; convert: another format), though it
         * writes files: the page editor does not offer it among the tools applied to the open document.
         */
        NOT_ONE_PDF_OUT
    }

    /**
     * The deadline of operations that may OCR a whole document (ocr, extract-text, convert from PDF): the page limit
     * ({@code DOCAPI_MAX_PAGES}, 2,000) at the ~12 pages a minute OCRmyPDF reads on one node (bench/RESULTS-engines.md)
     * is under 3 h (issue 40 item 1).
     */
    public static final java.time.Duration OCR_DEADLINE = java.time.Duration.ofHours(3);

    public OperationSpec {
        Objects.requireNonNull(name);
        Objects.requireNonNull(toolName);
        Objects.requireNonNull(description);
        Objects.requireNonNull(inputs, () -> name + ": inputs are not declared");
        Objects.requireNonNull(options, () -> name + ": options are not declared");
        Set<OutputMember> withFiles = EnumSet.of(OutputMember.FILES);
        withFiles.addAll(outputs);
        outputs = Collections.unmodifiableSet(withFiles);
        traits = traits.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(traits));
        if (deadline != null && (deadline.isNegative() || deadline.isZero())) throw new IllegalArgumentException(name + ": deadline must be positive");
    }

    /** A declaration of one PDF in, no options, only {@code files} out and no traits; refine it with the other builders. */
    public static OperationSpec<NoOptions> of(String name, String toolName, String description) {
        return new OperationSpec<>(name, toolName, description, Inputs.onePdf(), OptionSchema.none(), Set.of(), Set.of(), null);
    }

    public OperationSpec<O> inputs(Inputs value) {
        return new OperationSpec<>(name, toolName, description, value, options, outputs, traits, deadline);
    }

    public <P extends Record> OperationSpec<P> options(OptionSchema<P> value) {
        return new OperationSpec<>(name, toolName, description, inputs, value, outputs, traits, deadline);
    }

    /** The members of {@code output} besides {@code files} that the operation may return. */
    public OperationSpec<O> outputs(OutputMember first, OutputMember... rest) {
        return new OperationSpec<>(name, toolName, description, inputs, options, EnumSet.of(first, rest), traits, deadline);
    }

    public OperationSpec<O> traits(Trait first, Trait... rest) {
        return new OperationSpec<>(name, toolName, description, inputs, options, outputs, EnumSet.of(first, rest), deadline);
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

    /**
     * This operation's jobs may run {@code value} (issue 40 item 1): for operations known to take longer than
     * {@code DOCAPI_JOB_DEADLINE} on large inputs (OCR at ~12 pages a minute a core). A longer
     * {@code DOCAPI_JOB_DEADLINE} still wins.
     */
    public OperationSpec<O> deadline(java.time.Duration value) {
        return new OperationSpec<>(name, toolName, description, inputs, options, outputs, traits, value);
    }

    public boolean has(Trait trait) {
        return traits.contains(trait);
    }

    /**
     * Checks that {@code result} carries only the declared output members, so the job schema built from
     * {@link #outputs} stays true.
     *
     * @throws IllegalStateException naming the first undeclared member (a programming error: {@code internal_error})
     */
    public void checkOutput(OperationResult result) {
        for (OutputMember m : OutputMember.ALL) {
            if (m.in(result) && !outputs.contains(m)) throw new IllegalStateException(name + " returned output." + m.id() + ", which it does not declare");
        }
    }
}
