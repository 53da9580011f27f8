package dev.docapi.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Terse, ordered JSON literals for building the API description and the tool schemas: {@code o("type", "object", ...)}
 * and {@code a(...)}. Ordered so that both come out the same at every start (a {@code Map.of} changes its iteration
 * order from one JVM to the next, and generated clients with it).
 */
public final class J {
    private J() {
    }

    /** An ordered object from alternating keys and values; null values are left out. */
    public static Map<String, Object> o(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    public static List<Object> a(Object... items) {
        return new ArrayList<>(Arrays.asList(items));
    }

    public static Map<String, Object> ref(String schema) {
        return o("$ref", "#/components/schemas/" + schema);
    }

    public static Map<String, Object> str(String description) {
        return o("type", "string", "description", description);
    }

    public static Map<String, Object> constant(String value) {
        return o("type", "string", "const", value);
    }

    public static Map<String, Object> timestamp(String description, boolean nullable) {
        return o("type", nullable ? a("string", "null") : "string", "format", "date-time", "description", description);
    }

    /** A closed object: the listed properties, these required, nothing else (an undocumented member is an error). */
    public static Map<String, Object> object(String description, Map<String, Object> properties, String... required) {
        return o("type", "object", "description", description, "properties", properties,
                "required", required.length == 0 ? null : List.of(required), "additionalProperties", false);
    }

    public static Map<String, Object> list(String itemSchema, String description) {
        return object(description, o("object", constant("list"), "data", o("type", "array", "items", ref(itemSchema))), "object", "data");
    }
}
