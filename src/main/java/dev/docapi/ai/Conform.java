package dev.docapi.ai;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Types extracted values (spec §4.4 {@code extract}): the simple field types and a JSON Schema subset (type,
 * properties, required, items, enum, anyOf). A value that cannot be read as its type becomes null and its path is
 * reported; a value written as text is read as its type where that is unambiguous ("1,234.50" as a number).
 */
public final class Conform {
    public static final List<String> FIELD_TYPES = List.of("string", "number", "integer", "boolean", "date", "list");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Conform() {
    }

    /** The JSON Schema the model is asked to fill for a simple field type (always nullable). */
    public static ObjectNode fieldSchema(String type) {
        ObjectNode s = F.objectNode();
        switch (type) {
            case "date" -> {
                s.putArray("type").add("string").add("null");
                s.put("description", "a date written in the document, given as YYYY-MM-DD");
            }
            case "list" -> {
                s.putArray("type").add("array").add("null");
                s.putObject("items").put("type", "string");
            }
            default -> s.putArray("type").add(type).add("null");
        }
        return s;
    }

    /** @return the value as {@code type}, or null (Java) when it cannot be read as that type */
    public static JsonNode field(JsonNode v, String type) {
        if (v == null || v.isNull()) return F.nullNode();
        return switch (type) {
            case "string" -> v.isValueNode() ? F.stringNode(v.asString()) : null;
            case "number" -> number(v, false);
            case "integer" -> number(v, true);
            case "boolean" -> v.isBoolean() ? v : v.isString() ? switch (v.asString().strip().toLowerCase(java.util.Locale.ROOT)) {
                case "true", "yes", "y", "checked", "x", "✓", "✔", "✘" -> F.booleanNode(true);
                case "false", "no", "n", "unchecked" -> F.booleanNode(false);
                default -> null;
            } : null;
            case "date" -> v.isString() && isDate(v.asString().strip()) ? F.stringNode(v.asString().strip()) : null;
            case "list" -> {
                if (v.isArray()) {
                    ArrayNode out = F.arrayNode();
                    for (JsonNode item : v) if (!item.isNull()) out.add(item.isValueNode() ? F.stringNode(item.asString()) : item);
                    yield out;
                }
                yield v.isString() ? F.arrayNode().add(v.asString()) : null;
            }
            default -> null;
        };
    }

    /** Conforms {@code v} to {@code schema}; invalid parts become null and their paths are added to {@code invalid}. */
    public static JsonNode schema(JsonNode v, JsonNode schema, String path, List<String> invalid) {
        if (v == null || v.isNull()) return F.nullNode();
        if (schema == null || !schema.isObject()) return v;
        if (schema.has("enum")) {
            for (JsonNode allowed : schema.get("enum")) if (allowed.equals(v) || allowed.asString().equals(v.asString())) return allowed;
            return bad(path, invalid);
        }
        if (schema.has("anyOf") || schema.has("oneOf")) {
            for (JsonNode option : schema.has("anyOf") ? schema.get("anyOf") : schema.get("oneOf")) {
                List<String> trial = new java.util.ArrayList<>();
                JsonNode out = schema(v.deepCopy(), option, path, trial);
                if (trial.isEmpty() && !out.isNull()) return out;
            }
            return bad(path, invalid);
        }
        JsonNode type = schema.get("type");
        List<String> types = new java.util.ArrayList<>();
        if (type == null) types.add(schema.has("properties") ? "object" : schema.has("items") ? "array" : "any");
        else if (type.isArray()) for (JsonNode t : type) types.add(t.asString());
        else types.add(type.asString());
        for (String t : types) {
            switch (t) {
                case "any" -> {
                    return v;
                }
                case "object" -> {
                    if (!v.isObject()) continue;
                    ObjectNode out = F.objectNode();
                    JsonNode props = schema.path("properties");
                    for (String name : props.propertyNames()) out.set(name, schema(v.get(name), props.get(name), path.isEmpty() ? name : path + "." + name, invalid));
                    return out;
                }
                case "array" -> {
                    if (!v.isArray()) continue;
                    ArrayNode out = F.arrayNode();
                    for (int i = 0; i < v.size(); i++) out.add(schema(v.get(i), schema.get("items"), path + "[" + i + "]", invalid));
                    return out;
                }
                case "string" -> {
                    if (!v.isValueNode()) continue;
                    String fmt = schema.path("format").asString("");
                    if (fmt.equals("date") && !isDate(v.asString())) continue;
                    return F.stringNode(v.asString());
                }
                case "number", "integer" -> {
                    JsonNode n = number(v, t.equals("integer"));
                    if (n != null) return n;
                }
                case "boolean" -> {
                    JsonNode b = field(v, "boolean");
                    if (b != null) return b;
                }
                default -> {
                    // "null" or unknown: try the next type
                }
            }
        }
        return bad(path, invalid);
    }

    private static JsonNode bad(String path, List<String> invalid) {
        invalid.add(path);
        return F.nullNode();
    }

    private static JsonNode number(JsonNode v, boolean integer) {
        double d;
        if (v.isNumber()) d = v.asDouble();
        else if (v.isString()) {
            Double read = readNumber(v.asString());
            if (read == null) return null;
            d = read;
        } else return null;
        if (integer) return d == Math.rint(d) ? F.numberNode((long) d) : null;
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? F.numberNode((long) d) : F.numberNode(d);
    }

    /**
     * One number written as text, e.g. "1,234.50", "1.234,50", "€ 12", "-3": with both marks the last one is the
     * decimal mark; a single ',' followed by exactly three digits groups thousands; several '.' group thousands.
     *
     * @return the number, or null when the text holds none or more than one
     */
    static Double readNumber(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[-−]?\\d[\\d,.' \u00a0]*").matcher(text);
        if (!m.find()) return null;
        String raw = m.group().replace('−', '-').replaceAll("[' \u00a0]", "").replaceAll("[,.]$", "");
        if (m.find()) return null;
        int comma = raw.lastIndexOf(','), dot = raw.lastIndexOf('.');
        String normal;
        if (comma >= 0 && dot >= 0) {
            normal = comma > dot ? raw.replace(".", "").replace(',', '.') : raw.replace(",", "");
        } else if (comma >= 0) {
            boolean grouping = raw.indexOf(',') != comma || raw.length() - comma - 1 == 3;
            normal = grouping ? raw.replace(",", "") : raw.replace(',', '.');
        } else if (dot >= 0 && raw.indexOf('.') != dot) {
            normal = raw.replace(".", "");
        } else {
            normal = raw;
        }
        try {
            return Double.parseDouble(normal);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static boolean isDate(String s) {
        if (!s.matches("\\d{4}-\\d{2}-\\d{2}")) return false;
        try {
            LocalDate.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
