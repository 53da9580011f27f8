package dev.docapi.operations.editplan;

import dev.docapi.accounts.Account;
import dev.docapi.ai.ModelJson;
import dev.docapi.core.ApiException;
import dev.docapi.files.StoredFile;
import dev.docapi.contract.InputFile;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationFailure;
import dev.docapi.operations.ValidationContext;
import dev.docapi.operations.Step;
import dev.docapi.operations.StepValidator;
import java.util.List;
import java.util.Collections;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks the steps a model proposed for one PDF, all of them before anything runs: as a workflow run validates them
 * ({@link StepValidator}), each an operation of the {@link PlanCatalogue}, and each through its operation's own
 * validation against the document as the steps before it leave it — so page 99 of a 6-page file, or page 6 after a
 * step kept 4 pages, is refused. After {@code split} the later steps run on each part (a workflow run does so) and
 * their page numbers are checked on the parts when the plan is applied.
 */
@Component
class PlanCheck {
    private final ObjectProvider<StepValidator> validator;
    private final PlanCatalogue catalogue;

    PlanCheck(ObjectProvider<StepValidator> validator, PlanCatalogue catalogue) {
        this.validator = validator;
        this.catalogue = catalogue;
    }

    /**
     * @param proposed the model's {@code steps}
     * @return {@code {steps, pages?, deleted_pages?}}: the validated steps as {@code [{operation, options}]}, and when
     *         every step arranges pages, the result's pages {@code [{page, rotation}]} (source pages from 1, in the new
     *         order) and the source pages no longer in it
     * @throws OperationFailure naming the step and what is wrong (an unknown or unusable operation, wrong options, a
     *                          page the document does not have); nothing of the plan is kept. A job that ran carries a
     *                          5xx code (spec §7 rule 3): {@code internal_error}
     */
    ObjectNode check(Account account, InputFile input, JsonNode proposed) throws OperationFailure {
        List<Step> steps;
        try {
            steps = validator.getObject().validate(proposed);
        } catch (ApiException e) {
            throw refused(e.getMessage());
        }
        Integer count = input.file().pages();
        PageArrangement arrangement = count == null ? null : new PageArrangement(count);
        ObjectNode out = ModelJson.JSON.createObjectNode();
        ArrayNode shown = out.putArray("steps");
        boolean arrangesOnly = true; // the other operations keep the page count (split aside) but change what a preview cannot show
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            Operation<?> op = step.operation();
            String where = "step " + (i + 1) + " (" + op.name() + ")";
            if (!PlanCatalogue.allowed(op)) {
                throw refused(where + ": an edit plan cannot use '" + op.name() + "'; it uses " + String.join(", ", catalogue.names()));
            }
            try {
                validate(op, account, new InputFile(withPages(input.file(), count), input.path()), step.options());
            } catch (ApiException e) {
                throw refused(where + ": " + e.getMessage());
            }
            boolean arranges = PageArrangement.OPERATIONS.contains(op.name());
            arrangesOnly &= arranges;
            if (arrangement != null && arranges) {
                arrangement.apply(op.name(), step.options());
                count = arrangement.size();
            } else if (op.name().equals("split")) {
                arrangement = null; // the parts' page counts: checked on each part when the plan is applied
                count = null;
            }
            shown.add(step.view(out.objectNode()));
        }
        if (arrangesOnly && arrangement != null) {
            ArrayNode pages = out.putArray("pages");
            arrangement.pages().forEach(p -> pages.addObject().put("page", p.page()).put("rotation", p.rotation()));
            ArrayNode deleted = out.putArray("deleted_pages");
            arrangement.deleted().forEach(deleted::add);
        }
        return out;
    }

    private static OperationFailure refused(String reason) {
        return new OperationFailure("the plan is refused and nothing was changed: " + reason);
    }

    /** Runs {@code op}'s own validation with the options as its record (generic, so that an {@code Operation<?>} fits). */
    private static <O extends Record> void validate(Operation<O> op, Account account, InputFile in, JsonNode options) {
        op.validate(new ValidationContext<>(account, List.of(in), op.options().bind((ObjectNode) options), Collections.emptyMap()));
    }

    /** The file as a step sees it: its pages as the steps before left them (null: not known before the plan runs). */
    private static StoredFile withPages(StoredFile f, Integer pages) {
        return new StoredFile(f.id(), f.accountId(), f.name(), f.size(), f.contentType(), f.kind(), pages, f.encrypted(), f.source(),
                f.createdAt(), f.expiresAt(), f.deletedAt());
    }
}
