package dev.docapi.ai;

import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Converts a JSON Schema (the subset providers' structured-output modes accept: type, properties, required, items,
 * enum, anyOf, description; {@code type} may be an array such as {@code ["string","null"]}) into LangChain4j's
 * provider-neutral schema elements, which each provider module renders in its own wire format.
 */
public final class JsonSchemas {
    private JsonSchemas() {
    }

    /**
     * @throws IllegalArgumentException naming the part of the schema that is not supported
     */
    public static JsonSchemaElement element(JsonNode s) {
        if (s == null || !s.isObject()) throw new IllegalArgumentException("a schema must be a JSON object");
        String description = s.path("description").isString() ? s.get("description").asString() : null;
        if (s.has("enum")) {
            List<String> values = new ArrayList<>();
            for (JsonNode v : s.get("enum")) values.add(v.asString());
            return JsonEnumSchema.builder().enumValues(values).description(description).build();
        }
        if (s.has("anyOf") || s.has("oneOf")) {
            List<JsonSchemaElement> options = new ArrayList<>();
            for (JsonNode o : s.has("anyOf") ? s.get("anyOf") : s.get("oneOf")) options.add(element(o));
            return JsonAnyOfSchema.builder().anyOf(options).description(description).build();
        }
        JsonNode type = s.get("type");
        if (type != null && type.isArray()) {
            List<JsonSchemaElement> options = new ArrayList<>();
            for (JsonNode t : type) {
                var copy = s.deepCopy();
                ((tools.jackson.databind.node.ObjectNode) copy).put("type", t.asString());
                options.add(element(copy));
            }
            return options.size() == 1 ? options.getFirst() : JsonAnyOfSchema.builder().anyOf(options).description(description).build();
        }
        String t = type == null ? (s.has("properties") ? "object" : s.has("items") ? "array" : "string") : type.asString();
        return switch (t) {
            case "object" -> {
                var b = JsonObjectSchema.builder().description(description);
                JsonNode props = s.path("properties");
                for (String name : props.propertyNames()) b.addProperty(name, element(props.get(name)));
                List<String> required = new ArrayList<>();
                for (JsonNode r : s.path("required")) required.add(r.asString());
                if (!required.isEmpty()) b.required(required);
                if (s.path("additionalProperties").isBoolean()) b.additionalProperties(s.get("additionalProperties").asBoolean());
                yield b.build();
            }
            case "array" -> JsonArraySchema.builder().description(description)
                    .items(s.has("items") ? element(s.get("items")) : JsonStringSchema.builder().build()).build();
            case "string" -> JsonStringSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "integer" -> JsonIntegerSchema.builder().description(description).build();
            case "boolean" -> JsonBooleanSchema.builder().description(description).build();
            case "null" -> new JsonNullSchema();
            default -> throw new IllegalArgumentException("schema type '" + t + "' is not supported (object, array, string, number, integer, boolean, null)");
        };
    }

    /** An object schema, for tool parameters. */
    public static JsonObjectSchema object(JsonNode s) {
        if (element(s) instanceof JsonObjectSchema o) return o;
        throw new IllegalArgumentException("the schema must describe an object");
    }
}
