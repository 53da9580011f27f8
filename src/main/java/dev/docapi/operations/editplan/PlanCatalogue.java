package dev.docapi.operations.editplan;

import dev.docapi.ai.ModelJson;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The operations an edit plan may use, read from the registry's declarations: the workflow steps that take one PDF
 * and return a document, and need nothing a model cannot know — no password (protect, unlock, sign) and no other
 * file (sign's certificate). Read lazily: the registry holds {@code edit-plan} itself.
 */
@Component
class PlanCatalogue {
    private final ObjectProvider<OperationRegistry> registry;

    PlanCatalogue(ObjectProvider<OperationRegistry> registry) {
        this.registry = registry;
    }

    List<Operation<?>> operations() {
        return registry.getObject().all().stream().filter(PlanCatalogue::allowed).toList();
    }

    List<String> names() {
        return operations().stream().map(Operation::name).toList();
    }

    static boolean allowed(Operation<?> op) {
        Inputs in = op.inputs();
        return !in.many() && in.pdfOnly() && !op.has(OperationSpec.Trait.NOT_A_STEP) && !op.has(OperationSpec.Trait.DATA_ONLY_OUTPUT)
                && op.options().fields().stream().noneMatch(f -> f.isSecret() || f.fileKinds() != null);
    }

    /** The catalogue as the model reads it: per operation its name, description and options as JSON Schema. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (Operation<?> op : operations()) {
            sb.append("- ").append(op.name()).append(": ").append(op.description()).append('\n');
            List<OptionField> fields = op.options().fields();
            if (fields.isEmpty()) {
                sb.append("  options: none ({})\n");
            } else {
                sb.append("  options (JSON Schema properties): ").append(ModelJson.JSON.writeValueAsString(op.options().properties())).append('\n');
                if (!op.options().required().isEmpty()) sb.append("  required: ").append(String.join(", ", op.options().required())).append('\n');
            }
        }
        return sb.toString();
    }
}
