package dev.docapi.operations.editplan;

import dev.docapi.ai.DocumentText;
import dev.docapi.ai.JsonSchemas;
import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.ModelClient;
import dev.docapi.ai.ModelJson;
import dev.docapi.ai.Pipeline;
import dev.docapi.operations.ModelOperation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /edit-plan} (an addition, issue 26: the editor's AI edits; spec §2.5 "editor" pipeline, §8 "editor AI
 * edits"): an instruction in plain words turned into workflow steps for one PDF by the editor pipeline's model, which
 * reads the page count, each page's text (the text layer, OCR where a page has none) and the operations of the
 * {@link PlanCatalogue}. Nothing is changed: {@code output.data} is {@code {summary, steps, pages?, deleted_pages?}}
 * ({@link PlanCheck}), to be run with {@code POST /v1/workflows/run}. A plan that names an unknown operation, one a
 * plan cannot use, wrong options or a page the document does not have fails the job (a job that ran fails with
 * {@code internal_error}, spec §7), naming the step. One AI operation on the service's model, none on the account's own key.
 */
@Component
public class EditPlanOperation extends ModelOperation<EditPlanOperation.EditPlanOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record EditPlanOptions(String instruction, String model) implements ModelChoice {
    }

    /** The operation's name, for the editor page that submits it. */
    public static final String NAME = "edit-plan";
    /** Characters of one page's text the model reads: enough to tell pages apart, bounded for long documents. */
    static final int PAGE_TEXT = 1500;
    private static final String SYSTEM = """
            You plan edits of a PDF document for the docapi page editor. You are given the page count, the text of each \
            page and the operations you may use, each with its options as JSON Schema. Answer with a JSON object:
            "summary": one or two sentences in plain words saying what the plan does;
            "steps": the operations to run, in order, each {"operation": name, "options": {…}} with options exactly as the \
            operation declares them.
            Steps run one after the other, each on the document the step before it produced, so the page numbers of a step \
            count in the document as the earlier steps left it (pages count from 1). A page shown with "(no text)" has no \
            text. Use as few steps as possible and only what the instruction asks. When the instruction cannot be done \
            with these operations, answer with no steps and say why in "summary".""";
    private static final OptionSchema<EditPlanOptions> OPTIONS = OptionSchema.of(EditPlanOptions.class,
            OptionField.string("instruction").minLength(1).pattern("\\S", "must not be blank").maxLength(4000).required()
                    .description("What should change, in plain words (e.g. 'remove the blank pages', 'put the last page first')"),
            modelOption(Pipeline.EDITOR));
    private static final OperationSpec<EditPlanOptions> SPEC = OperationSpec.of(NAME, "plan_edit",
            "Plan edits of a PDF from an instruction in plain words: a language model proposes workflow steps (organize, rotate, "
                    + "remove-pages, page-numbers, …), checked against the document; when every step arranges pages, the resulting "
                    + "page order is given too. Nothing is changed: run the steps with POST /v1/workflows/run.")
            .options(OPTIONS)
            .traits(OperationSpec.Trait.USES_MODEL, OperationSpec.Trait.NOT_A_STEP, OperationSpec.Trait.DATA_ONLY_OUTPUT)
            .outputs(OutputMember.DATA, OutputMember.MODEL);

    private final DocumentText text;
    private final PlanCatalogue operations;
    private final PlanCheck check;

    EditPlanOperation(ModelCatalog catalog, DocumentText text, PlanCatalogue operations, PlanCheck check) {
        super(catalog, Pipeline.EDITOR);
        this.text = text;
        this.operations = operations;
        this.check = check;
    }

    @Override
    public OperationSpec<EditPlanOptions> spec() {
        return SPEC;
    }

    /**
     * @return {@code output.data} {@code {summary, steps, pages?, deleted_pages?}} and {@code output.model}
     * @throws OperationFailure when the plan is refused (naming the step and why) or the model's answer is not the JSON
     *                          asked for
     */
    @Override
    public OperationResult run(OperationContext<EditPlanOptions> ctx) throws Exception {
        ModelClient model = model(ctx);
        List<String> pages = text.pages(ctx.input(), ctx.tempDir("text")).stream().map(EditPlanOperation::shortened).toList();
        String document = "The document '" + ctx.input().file().name() + "' has " + pages.size() + " page" + (pages.size() == 1 ? "" : "s")
                + ". Its text, page by page:\n\n" + DocumentText.withPageMarkers(pages)
                + "Operations you may use:\n" + operations.describe() + "\nInstruction: " + ctx.options().instruction();
        ChatRequest request = ChatRequest.builder()
                .messages(SystemMessage.from(SYSTEM), UserMessage.from(document))
                .responseFormat(ResponseFormat.builder().type(ResponseFormatType.JSON)
                        .jsonSchema(JsonSchema.builder().name("edit_plan").rootElement(JsonSchemas.element(answerSchema())).build()).build())
                .build();
        var response = chat(ctx, model, request);
        JsonNode answer = ModelJson.object(response.aiMessage().text(), model.id());
        String summary = answer.path("summary").asString("").strip();
        JsonNode steps = answer.path("steps");
        if (steps.isArray() && steps.isEmpty()) {
            throw new OperationFailure("the model made no plan" + (summary.isEmpty() ? "" : ": " + summary));
        }
        ObjectNode data = ModelJson.JSON.createObjectNode().put("summary", summary);
        data.setAll(check.check(ctx.account(), ctx.input(), answer.get("steps")));
        return OperationResult.empty().withData(data).withModel(model.id());
    }

    private static String shortened(String page) {
        String t = page.strip();
        if (t.isEmpty()) return "(no text)";
        return t.length() <= PAGE_TEXT ? t : t.substring(0, PAGE_TEXT) + " …";
    }

    /** {@code {summary, steps: [{operation (one of the catalogue), options}]}}; options are checked by each operation. */
    private JsonNode answerSchema() {
        ObjectNode s = ModelJson.JSON.createObjectNode().put("type", "object").put("additionalProperties", false);
        ObjectNode props = s.putObject("properties");
        props.putObject("summary").put("type", "string");
        ObjectNode step = props.putObject("steps").put("type", "array").putObject("items").put("type", "object");
        ObjectNode stepProps = step.putObject("properties");
        operations.names().forEach(stepProps.putObject("operation").putArray("enum")::add);
        stepProps.putObject("options").put("type", "object");
        step.putArray("required").add("operation").add("options");
        s.putArray("required").add("summary").add("steps");
        return s;
    }
}
