package dev.docapi.openapi;

import static dev.docapi.core.J.o;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON Schema of a record as Jackson writes it, derived from the record itself so the two cannot drift (the
 * document model, issue 36): a record is a closed object whose members are its components under their
 * {@code @JsonProperty} names; a primitive is a required integer, number or boolean; a {@code String} a string; an
 * enum a string of its constants as Jackson writes them; a {@code List} an array; a nested record an object, inline. In a record
 * marked {@code @JsonInclude(NON_NULL)} the members of reference types are optional (left out when null); elsewhere
 * every member is required. Only these shapes are known: anything else is a programming error.
 */
final class RecordSchema {
    private static final JsonMapper JSON = JsonMapper.shared();

    private RecordSchema() {
    }

    /** The schema of {@code type}, with {@code description} at its root. */
    static Map<String, Object> of(Class<? extends Record> type, String description) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("description", description);
        schema.putAll(object(type));
        return schema;
    }

    private static Map<String, Object> object(Class<?> type) {
        JsonInclude include = type.getAnnotation(JsonInclude.class);
        boolean optionalReferences = include != null && include.value() == JsonInclude.Include.NON_NULL;
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (RecordComponent c : type.getRecordComponents()) {
            JsonProperty renamed = c.getAccessor().getAnnotation(JsonProperty.class);
            String name = renamed != null ? renamed.value() : c.getName();
            properties.put(name, of(c.getGenericType()));
            if (c.getType().isPrimitive() || !optionalReferences) required.add(name);
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        schema.put("additionalProperties", false);
        return schema;
    }

    private static Map<String, Object> of(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            return o("type", "array", "items", of(p.getActualTypeArguments()[0]));
        }
        if (!(type instanceof Class<?> c)) throw new IllegalArgumentException("no JSON Schema for " + type);
        if (c == int.class || c == long.class || c == Integer.class || c == Long.class) return o("type", "integer");
        if (c == float.class || c == double.class || c == Float.class || c == Double.class) return o("type", "number");
        if (c == boolean.class || c == Boolean.class) return o("type", "boolean");
        if (c == String.class) return o("type", "string");
        if (c.isEnum()) return o("type", "string", "enum", enumValues(c));
        if (c.isRecord()) return object(c);
        throw new IllegalArgumentException("no JSON Schema for " + c.getName());
    }

    /** The constants' JSON strings, as Jackson writes them (their {@code @JsonValue}). */
    private static List<String> enumValues(Class<?> type) {
        return Arrays.stream(type.getEnumConstants()).map(c -> JSON.valueToTree(c).asString()).toList();
    }
}
