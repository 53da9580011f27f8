package dev.docapi.operations.ask;

import dev.docapi.ai.Citations;
import dev.docapi.ai.DocumentInput;
import dev.docapi.ai.DocumentText;
import dev.docapi.ai.JsonSchemas;
import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.ModelClient;
import dev.docapi.ai.ModelJson;
import dev.docapi.ai.Pipeline;
import dev.docapi.core.FileKind;
import dev.docapi.document.DocumentModel;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.ModelOperation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * {@code POST /ask} (spec §4.4): a question answered from the document only. The model answers in a JSON object
 * {@code {in_document: boolean, answer: string}}; when the document does not answer the question, {@code output.text}
 * starts with "The document does not say." whatever else the model wrote. The model also cites the passages its answer
 * rests on; {@code output.sources} says where each stands ({@link Citations}: by the element id the text a
 * {@code custom/} model reads carries, else by its words).
 */
@Component
public class AskOperation extends ModelOperation<AskOperation.AskOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record AskOptions(String question, String instructions, String model) implements ModelChoice {
    }

    public static final String DOES_NOT_SAY = "The document does not say.";
    private static final String SYSTEM = """
            You answer questions about the document you are given, using only what the document says.
            Do not use outside knowledge and do not guess. Set "in_document" to true only when the document itself \
            answers the question; then "answer" is the answer, citing page numbers where useful.
            When the document does not answer it, set "in_document" to false and say briefly what the document does cover.
            In "sources", list the passages the answer rests on (none when the document does not answer): "quote" is the \
            exact text copied from the document (at most 200 characters), "page" its page number (from 1), and "element" \
            the id in brackets before the paragraph it comes from (e.g. "e12" for [e12]) when the document's text has such \
            ids, else "".""";
    private static final String ANSWER_SCHEMA = """
            {"type":"object","properties":{"in_document":{"type":"boolean"},"answer":{"type":"string"},
             "sources":{"type":"array","items":{"type":"object","properties":{"quote":{"type":"string"},"page":{"type":"integer"},"element":{"type":"string"}},
               "required":["quote","page","element"],"additionalProperties":false}}},
             "required":["in_document","answer","sources"],"additionalProperties":false}""";
    private static final OptionSchema<AskOptions> OPTIONS = OptionSchema.of(AskOptions.class,
            OptionField.string("question").minLength(1).pattern("\\S", "must not be blank").maxLength(4000).required().description("The question, in plain words"),
            OptionField.string("instructions").maxLength(4000).description("Extra guidance for the model (e.g. answer language or length)"),
            modelOption(Pipeline.QUESTIONS));
    private static final OperationSpec<AskOptions> SPEC = OperationSpec.of("ask", "ask_document",
            "Answer a question about a PDF or image from the document only; when the document does not say, the answer says so.")
            .inputs(Inputs.one(FileKind.PDF, FileKind.IMAGE))
            .options(OPTIONS)
            .traits(OperationSpec.Trait.USES_MODEL, OperationSpec.Trait.DATA_ONLY_OUTPUT)
            .outputs(OutputMember.TEXT, OutputMember.MODEL, OutputMember.SOURCES);

    private final DocumentText text;

    public AskOperation(ModelCatalog catalog, DocumentText text) {
        super(catalog, Pipeline.QUESTIONS);
        this.text = text;
    }

    @Override
    public OperationSpec<AskOptions> spec() {
        return SPEC;
    }

    @Override
    public OperationResult run(OperationContext<AskOptions> ctx) throws Exception {
        ModelClient model = model(ctx);
        // a model that reads the PDF itself needs no text; custom/ models get the text (OCR'd for scans)
        DocumentText.Cited document = model.readsPdf() && DocumentInput.sendsFile(ctx.input()) ? null : text.cited(ctx.input(), ctx.tempDir("text"));
        List<Content> parts = new ArrayList<>(DocumentInput.parts(model, ctx.input(), document == null ? List.of() : document.withIds()));
        String q = "Question: " + ctx.options().question();
        if (ctx.options().instructions() != null) q += "\nInstructions from the user: " + ctx.options().instructions();
        parts.add(TextContent.from(q));
        ChatRequest request = ChatRequest.builder()
                .messages(SystemMessage.from(SYSTEM), UserMessage.from(parts))
                .responseFormat(ResponseFormat.builder().type(ResponseFormatType.JSON)
                        .jsonSchema(JsonSchema.builder().name("answer").rootElement(JsonSchemas.element(ModelJson.JSON.readTree(ANSWER_SCHEMA))).build()).build())
                .build();
        var response = chat(ctx, model, request);
        JsonNode answer = ModelJson.object(response.aiMessage().text(), model.id());
        String said = answer.path("answer").asString("").strip();
        boolean inDocument = answer.path("in_document").asBoolean(false);
        String out = inDocument && !said.isEmpty() ? said : said.isEmpty() ? DOES_NOT_SAY : DOES_NOT_SAY + " " + said;
        return OperationResult.ofText(out).withModel(model.id()).withSources(inDocument ? sources(ctx, answer.path("sources"), document) : null);
    }

    /**
     * The answer's sources, located ({@link Citations#source}); the document model of a file the model read itself is
     * read only now, when there are sources to locate.
     */
    private ArrayNode sources(OperationContext<AskOptions> ctx, JsonNode cited, DocumentText.Cited document) throws Exception {
        ArrayNode out = ModelJson.JSON.createArrayNode();
        if (cited.isEmpty()) return out;
        List<DocumentModel.Element> elements = document != null ? document.elements() : text.elements(ctx.input(), ctx.tempDir("text"));
        Integer count = document != null ? Integer.valueOf(document.pages().size()) : ctx.input().file().pages();
        Citations citations = new Citations(elements);
        for (JsonNode s : cited) {
            out.add(citations.source(s.path("element").asString(null), s.path("quote").asString(null), null,
                    s.path("page").isNumber() ? s.get("page").asInt() : null, count == null ? 1 : count));
        }
        return out;
    }
}
