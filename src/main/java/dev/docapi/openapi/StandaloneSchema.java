package dev.docapi.openapi;

import dev.docapi.operations.Operation;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A resource schema of the OpenAPI description (e.g. {@code Job}) as a JSON Schema that stands alone: the schema at
 * the root and the components it refers to, directly or not, under {@code $defs}. MCP tools declare their
 * {@code outputSchema} with it, so a tool's structured result is described exactly as the HTTP answer is.
 */
public final class StandaloneSchema {
    private static final String COMPONENTS = "#/components/schemas/";
    private static final Pattern REF = Pattern.compile("\"" + Pattern.quote(COMPONENTS) + "([A-Za-z0-9]+)\"");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StandaloneSchema() {
    }

    /** @param component a name in {@code components.schemas}, e.g. {@code Job} or {@code FileList} */
    public static Map<String, Object> of(String component, Collection<Operation<?>> operations) {
        Map<String, Object> all = ComponentSchemas.all(operations);
        if (!all.containsKey(component)) throw new IllegalArgumentException("no component schema " + component);
        Map<String, String> used = new LinkedHashMap<>();
        Deque<String> todo = new ArrayDeque<>(java.util.List.of(component));
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (used.containsKey(name)) continue;
            String text = JSON.writeValueAsString(all.get(name)).replace(COMPONENTS, "#/$defs/");
            used.put(name, text);
            Matcher m = REF.matcher(JSON.writeValueAsString(all.get(name)));
            while (m.find()) todo.push(m.group(1));
        }
        Map<String, Object> root = read(used.remove(component));
        if (!used.isEmpty()) {
            Map<String, Object> defs = new LinkedHashMap<>();
            used.forEach((name, text) -> defs.put(name, read(text)));
            root.put("$defs", defs);
        }
        return root;
    }

    private static Map<String, Object> read(String json) {
        return JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
    }
}
