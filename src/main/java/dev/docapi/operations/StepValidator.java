package dev.docapi.operations;

import dev.docapi.core.ApiException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates workflow steps when a workflow is saved or run ad hoc (spec §4.3 rule 1): 1-10 steps, each
 * {@code {operation, options?}} whose options pass the same validation as the operation's own endpoint
 * ({@link OptionSchema#validate}). Checks that need files (pages beyond the document, a wrong password) happen when
 * the workflow runs.
 */
@Component
public class StepValidator {
    public static final int MAX_STEPS = 10;
    private final OperationRegistry registry;

    public StepValidator(OperationRegistry registry) {
        this.registry = registry;
    }

    /**
     * @throws ApiException 400 {@code invalid_request} naming the step and what is wrong with it
     */
    public List<Step> validate(JsonNode steps) {
        if (steps == null || steps.isNull()) throw ApiException.invalid("'steps' is required: an array of 1-" + MAX_STEPS + " {operation, options} objects");
        if (!steps.isArray() || steps.isEmpty() || steps.size() > MAX_STEPS) {
            throw ApiException.invalid("'steps' must be an array of 1-" + MAX_STEPS + " steps" + (steps.isArray() ? ", got " + steps.size() : ""));
        }
        List<Step> out = new ArrayList<>();
        int n = 0;
        for (JsonNode s : steps) {
            n++;
            String where = "step " + n;
            if (!s.isObject()) throw ApiException.invalid(where + " must be an object {operation, options}");
            for (String member : s.propertyNames()) {
                if (!member.equals("operation") && !member.equals("options")) {
                    throw ApiException.invalid(where + ": unknown member '" + member + "'; a step has 'operation' and 'options'");
                }
            }
            JsonNode name = s.get("operation");
            if (name == null || !name.isString() || name.asString().isBlank()) throw ApiException.invalid(where + ": 'operation' is required (an operation name)");
            if (!registry.exists(name.asString()) || registry.get(name.asString()).has(OperationSpec.Trait.NOT_A_STEP)) {
                throw ApiException.invalid(where + ": '" + name.asString() + "' is not an operation a workflow can run");
            }
            Operation<?> op = registry.get(name.asString());
            JsonNode options = s.get("options");
            ObjectNode given;
            if (options == null || options.isNull()) given = ((ObjectNode) s).objectNode();
            else if (options.isObject()) given = (ObjectNode) options;
            else throw ApiException.invalid(where + " (" + op.name() + "): 'options' must be an object");
            for (String common : OptionSchema.COMMON_MEMBERS) {
                if (given.has(common)) {
                    throw ApiException.invalid(where + " (" + op.name() + "): '" + common + "' is not a step option; "
                            + (common.startsWith("file") ? "each step works on the previous step's files" : "give it to the run request"));
                }
            }
            try {
                out.add(new Step(op, op.options().validate(given, op.name())));
            } catch (ApiException e) {
                throw new ApiException(e.code(), where + " (" + op.name() + "): " + e.getMessage());
            }
        }
        return out;
    }

    /** Saved steps as shown: {@code [{operation, options}]} with secret options removed. */
    public tools.jackson.databind.node.ArrayNode view(tools.jackson.databind.node.ArrayNode stored) {
        tools.jackson.databind.node.ArrayNode out = stored.arrayNode();
        for (JsonNode s : stored) {
            ObjectNode step = (ObjectNode) s.deepCopy();
            String name = s.path("operation").asString("");
            if (registry.exists(name) && step.get("options") instanceof ObjectNode o) {
                step.set("options", registry.get(name).options().redact(o));
            }
            out.add(step);
        }
        return out;
    }
}
