package dev.docapi.operations.extract;

import dev.docapi.core.J;
import dev.docapi.ai.Citations;
import dev.docapi.ai.Conform;
import dev.docapi.ai.DocumentInput;
import dev.docapi.ai.DocumentText;
import dev.docapi.ai.Grounding;
import dev.docapi.ai.JsonSchemas;
import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.ModelClient;
import dev.docapi.ai.ModelJson;
import dev.docapi.ai.Pipeline;
import dev.docapi.core.ApiException;
import dev.docapi.core.FileKind;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.ModelOperation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /extract} (spec §4.4): fields or a JSON Schema filled from a PDF or image by a language model.
 * {@code output.data} has every requested field; a field the document does not contain is null; each non-null value
 * must be backed by a quote the model cites and {@link Grounding} finds in the document's text, else it becomes null
 * and {@code output.note} names it. {@code output.sources} says where each kept value stands ({@link Citations}): the
 * text a {@code custom/} model reads carries element ids for it to cite. Also a {@code .json} output file with the data.
 */
@Component
public class ExtractOperation extends ModelOperation<ExtractOperation.ExtractOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record ExtractOptions(JsonNode fields, JsonNode schema, String instructions, String model) implements ModelChoice {
    }

    private static final int MAX_FIELDS = 100;
    private static final String SYSTEM = """
            You extract data from the document you are given. Use only what is written in the document.
            If the document does not contain a value, give null. Never guess, infer, compute or make up a value.
            For every value that is not null, add one entry to "sources": "field" is the value's path \
            (the field name; for nested data e.g. "customer.name" or "items[0].price"), "quote" is the exact text \
            copied from the document that contains the value (at most 200 characters), "page" is its page number (from 1), \
            and "element" is the id in brackets before the paragraph the quote comes from (e.g. "e12" for [e12]) when the \
            document's text has such ids, else "".
            Dates are given as YYYY-MM-DD. Numbers are given as JSON numbers without currency signs or thousands separators.""";

    private static final OptionSchema<ExtractOptions> OPTIONS = OptionSchema.of(ExtractOptions.class,
            OptionField.custom("fields", J.o("type", "array", "maxItems", MAX_FIELDS,
                            "items", J.o("oneOf", List.of(J.o("type", "string"), J.o("type", "object",
                                    "properties", J.o("name", J.o("type", "string"), "type", J.o("type", "string", "enum", Conform.FIELD_TYPES)),
                                    "required", List.of("name"))))),
                    ExtractOperation::checkFields)
                    .description("Fields to extract: names (type string) or {name, type} with type string, number, integer, boolean, date (YYYY-MM-DD) or list"),
            OptionField.custom("schema", J.o("type", "object"), ExtractOperation::checkSchema)
                    .description("A JSON Schema (an object) for nested data, used instead of fields"),
            OptionField.string("instructions").maxLength(4000).description("Extra guidance for the model"),
            modelOption(Pipeline.EXTRACTION));
    private static final OperationSpec<ExtractOptions> SPEC = OperationSpec.of("extract", "extract_data",
            "Extract fields (or data matching a JSON Schema) from a PDF or image with a language model. A field the document does not contain is null; values are never guessed.")
            .inputs(Inputs.one(FileKind.PDF, FileKind.IMAGE))
            .options(OPTIONS)
            .traits(OperationSpec.Trait.USES_MODEL, OperationSpec.Trait.DATA_ONLY_OUTPUT)
            .outputs(OutputMember.DATA, OutputMember.MODEL, OutputMember.NOTE, OutputMember.SOURCES);

    private final DocumentText text;

    public ExtractOperation(ModelCatalog catalog, DocumentText text) {
        super(catalog, Pipeline.EXTRACTION);
        this.text = text;
    }

    @Override
    public OperationSpec<ExtractOptions> spec() {
        return SPEC;
    }

    @Override
    protected void validateOptions(ValidationContext<ExtractOptions> ctx) {
        boolean fields = ctx.options().fields() != null;
        boolean schema = ctx.options().schema() != null;
        if (!fields && !schema) throw ApiException.invalid("extract needs 'fields' (names or {name, type}) or 'schema' (a JSON Schema)");
        if (fields && schema) throw ApiException.invalid("give 'fields' or 'schema', not both");
    }

    @Override
    public OperationResult run(OperationContext<ExtractOptions> ctx) throws Exception {
        ModelClient model = model(ctx);
        DocumentText.Cited document = text.cited(ctx.input(), ctx.tempDir("text"));
        List<String> pages = document.pages();
        ctx.progress(1, 3, "steps");

        Map<String, String> fieldTypes = fields(ctx.options().fields());
        JsonNode userSchema = ctx.options().schema();
        ObjectNode dataSchema = userSchema != null ? (ObjectNode) userSchema.deepCopy() : fieldsSchema(fieldTypes);
        ObjectNode answerSchema = answerSchema(dataSchema);

        List<Content> parts = new ArrayList<>(DocumentInput.parts(model, ctx.input(), document.withIds()));
        StringBuilder ask = new StringBuilder("Extract ");
        ask.append(userSchema != null ? "the data described by the JSON schema of \"data\"." : "these fields: " + String.join(", ", fieldTypes.keySet()) + ".");
        if (ctx.options().instructions() != null) ask.append("\nInstructions from the user: ").append(ctx.options().instructions());
        parts.add(TextContent.from(ask.toString()));
        ChatRequest request = ChatRequest.builder()
                .messages(SystemMessage.from(SYSTEM), UserMessage.from(parts))
                .responseFormat(ResponseFormat.builder().type(ResponseFormatType.JSON)
                        .jsonSchema(JsonSchema.builder().name("extraction").rootElement(JsonSchemas.element(answerSchema)).build()).build())
                .build();
        var response = chat(ctx, model, request);
        ctx.progress(2, 3, "steps");

        JsonNode answer = ModelJson.object(response.aiMessage().text(), model.id());
        JsonNode raw = answer.path("data");
        List<String> invalid = new ArrayList<>();
        ObjectNode data = ModelJson.JSON.createObjectNode();
        if (userSchema != null) {
            JsonNode conformed = Conform.schema(raw.isObject() ? raw : data, userSchema, "", invalid);
            if (conformed.isObject()) data = (ObjectNode) conformed;
        } else {
            for (var f : fieldTypes.entrySet()) {
                JsonNode typed = Conform.field(raw.get(f.getKey()), f.getValue());
                if (typed == null) invalid.add(f.getKey());
                data.set(f.getKey(), typed == null ? data.nullNode() : typed);
            }
        }
        List<Grounding.Source> sources = new ArrayList<>();
        for (JsonNode s : answer.path("sources")) {
            sources.add(new Grounding.Source(s.path("field").asString(""), Citations.withoutIds(s.path("quote").asString(null)),
                    s.path("page").isNumber() ? s.get("page").asInt() : null));
        }
        List<String> ungrounded = new Grounding(pages).check(data, sources);
        ArrayNode located = located(answer.path("sources"), data, new Citations(document.elements()), pages.size());

        Files.writeString(ctx.output("extracted", "json"), ModelJson.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(data));
        ctx.progress(3, 3, "steps");
        List<String> notes = new ArrayList<>();
        if (!invalid.isEmpty()) notes.add("not a valid value of its type, set to null: " + String.join(", ", invalid));
        if (!ungrounded.isEmpty()) notes.add("not found in the document, set to null: " + String.join(", ", ungrounded));
        return OperationResult.empty().withData(data).withModel(model.id()).withNote(notes.isEmpty() ? null : String.join("; ", notes))
                .withSources(located);
    }

    /**
     * The model's sources of the values kept in {@code data} (a value set to null has none), each located
     * ({@link Citations#source}) and led by its {@code field}, in the model's order.
     */
    private static ArrayNode located(JsonNode sources, ObjectNode data, Citations citations, int pages) {
        ArrayNode out = ModelJson.JSON.createArrayNode();
        for (JsonNode s : sources) {
            String field = s.path("field").asString("");
            JsonNode value = Grounding.value(data, field);
            if (value == null || value.isNull()) continue;
            ObjectNode located = ModelJson.JSON.createObjectNode().put("field", field);
            // a list's source ("names" for all its items) is found by its quote alone
            located.setAll(citations.source(s.path("element").asString(null), s.path("quote").asString(null),
                    value.isContainer() ? null : value.asString(),
                    s.path("page").isNumber() ? s.get("page").asInt() : null, pages));
            out.add(located);
        }
        return out;
    }

    /** Field name → type, in request order. */
    static Map<String, String> fields(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        if (node == null) return out;
        for (JsonNode f : node) {
            if (f.isString()) out.put(f.asString().strip(), "string");
            else out.put(f.get("name").asString().strip(), f.path("type").asString("string"));
        }
        return out;
    }

    private static ObjectNode fieldsSchema(Map<String, String> fields) {
        ObjectNode s = ModelJson.JSON.createObjectNode();
        s.put("type", "object");
        ObjectNode props = s.putObject("properties");
        var required = s.putArray("required");
        for (var f : fields.entrySet()) {
            props.set(f.getKey(), Conform.fieldSchema(f.getValue()));
            required.add(f.getKey());
        }
        s.put("additionalProperties", false);
        return s;
    }

    private static ObjectNode answerSchema(ObjectNode data) {
        ObjectNode s = ModelJson.JSON.createObjectNode();
        s.put("type", "object");
        ObjectNode props = s.putObject("properties");
        props.set("data", data);
        ObjectNode sources = props.putObject("sources");
        sources.put("type", "array");
        ObjectNode item = sources.putObject("items");
        item.put("type", "object");
        ObjectNode ip = item.putObject("properties");
        ip.putObject("field").put("type", "string");
        ip.putObject("quote").put("type", "string");
        ip.putObject("page").put("type", "integer");
        ip.putObject("element").put("type", "string");
        item.putArray("required").add("field").add("quote").add("page").add("element");
        s.putArray("required").add("data").add("sources");
        return s;
    }

    private static String checkFields(JsonNode v) {
        if (!v.isArray() || v.isEmpty()) return "must be a non-empty array of field names or {name, type} objects";
        if (v.size() > MAX_FIELDS) return "must have at most " + MAX_FIELDS + " fields";
        Set<String> seen = new HashSet<>();
        for (JsonNode f : v) {
            String name;
            if (f.isString()) {
                name = f.asString();
            } else if (f.isObject() && f.path("name").isString()) {
                name = f.get("name").asString();
                for (String member : f.propertyNames()) {
                    if (!member.equals("name") && !member.equals("type")) return "items take 'name' and 'type' only, not '" + member + "'";
                }
                if (f.has("type") && !(f.get("type").isString() && Conform.FIELD_TYPES.contains(f.get("type").asString()))) {
                    return "has field '" + name + "' with type " + f.get("type") + "; types are " + Conform.FIELD_TYPES;
                }
            } else {
                return "items must be field names or {name, type} objects";
            }
            if (name.isBlank() || name.length() > 100) return "field names must be 1-100 characters";
            if (!seen.add(name.strip())) return "names field '" + name + "' twice";
        }
        return null;
    }

    private static String checkSchema(JsonNode v) {
        if (!v.isObject()) return "must be a JSON Schema object";
        if (!"object".equals(v.path("type").asString("")) || !v.path("properties").isObject()) {
            return "must be a JSON Schema of type object with properties";
        }
        try {
            JsonSchemas.element(v);
        } catch (IllegalArgumentException | ClassCastException e) {
            return "is not supported: " + e.getMessage();
        }
        return null;
    }
}
