package dev.docapi.operations;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Typed read access to an operation's validated options, with the declared defaults. */
public final class Options {
    private final ObjectNode values;
    private final OptionSchema schema;

    public Options(ObjectNode values, OptionSchema schema) {
        this.values = values;
        this.schema = schema;
    }

    public ObjectNode json() {
        return values;
    }

    public boolean has(String name) {
        JsonNode v = values.get(name);
        return v != null && !v.isNull();
    }

    public JsonNode node(String name) {
        return values.get(name);
    }

    public String string(String name) {
        if (has(name)) return values.get(name).asString();
        Object d = defaultOf(name);
        return d == null ? null : d.toString();
    }

    public Integer integer(String name) {
        if (has(name)) return values.get(name).asInt();
        return defaultOf(name) instanceof Number n ? n.intValue() : null;
    }

    public Double number(String name) {
        if (has(name)) return values.get(name).asDouble();
        return defaultOf(name) instanceof Number n ? n.doubleValue() : null;
    }

    public boolean bool(String name) {
        if (has(name)) return values.get(name).asBoolean();
        return defaultOf(name) instanceof Boolean b && b;
    }

    /** The integers of an array option, or an empty list when absent. */
    public List<Integer> integers(String name) {
        List<Integer> out = new ArrayList<>();
        if (has(name)) for (JsonNode n : values.get(name)) out.add(n.asInt());
        return out;
    }

    /** The {@code [from, to]} pairs of a ranges option, or an empty list when absent. */
    public List<int[]> ranges(String name) {
        List<int[]> out = new ArrayList<>();
        if (has(name)) for (JsonNode p : values.get(name)) out.add(new int[] {p.get(0).asInt(), p.get(1).asInt()});
        return out;
    }

    private Object defaultOf(String name) {
        OptionField f = schema.field(name);
        return f == null ? null : f.defaultValue();
    }
}
