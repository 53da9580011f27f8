package dev.docapi.operations;

import dev.docapi.core.FileKind;
import dev.docapi.core.J;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One option of an operation, declared once: it validates a request value, describes itself as JSON Schema (for
 * OpenAPI, MCP and workflow steps) and names the Java types of the options-record component it is bound to
 * ({@link OptionSchema}). Build with the static factories, e.g.
 * {@code OptionField.integer("angle").oneOf(90, 180, 270).required()}. A closed set of strings is an enum
 * ({@link #choice}), a fixed shape a nested record ({@link #object}), a list of either an {@link #array}: their schema,
 * their checks and their binding all come from that one declaration.
 */
public final class OptionField {
    private static final JsonMapper JSON = JsonMapper.shared();
    private final String name;
    private final List<String> javaTypes;
    private final Map<String, Object> schema = new LinkedHashMap<>();
    private final List<Function<JsonNode, String>> checks = new ArrayList<>();
    private boolean required;
    private boolean secret;
    private Object defaultValue;
    /** For an option that names a file by id ({@link #fileId}): the kinds it takes; null otherwise. */
    private Set<FileKind> fileKinds;
    /** For an {@link #array}: what each item is; null otherwise. */
    private OptionField items;
    /** For an {@link #object}: its members, bound to a nested record; null otherwise. */
    private OptionSchema<?> members;

    private OptionField(String name, String type, Function<JsonNode, String> typeCheck, List<String> javaTypes) {
        this.name = name;
        this.javaTypes = javaTypes;
        if (type != null) schema.put("type", type);
        checks.add(typeCheck);
    }

    public static OptionField integer(String name) {
        return new OptionField(name, "integer", v -> !(v.isIntegralNumber() || (v.isNumber() && v.asDouble() == Math.rint(v.asDouble())))
                ? "must be an integer" : fitsInt(v) ? null : "must be at most " + Integer.MAX_VALUE, types(int.class, Integer.class));
    }

    /** Larger values (e.g. 99999999999999999999) are refused at validation, not met as an overflow later (issue 10). */
    private static boolean fitsInt(JsonNode v) {
        return v.isIntegralNumber() ? v.canConvertToInt() : Math.abs(v.asDouble()) <= Integer.MAX_VALUE;
    }

    public static OptionField number(String name) {
        return new OptionField(name, "number", v -> v.isNumber() ? null : "must be a number", types(double.class, Double.class));
    }

    public static OptionField string(String name) {
        return new OptionField(name, "string", v -> v.isString() ? null : "must be a string", types(String.class));
    }

    public static OptionField bool(String name) {
        return new OptionField(name, "boolean", v -> v.isBoolean() ? null : "must be true or false", types(boolean.class, Boolean.class));
    }

    /** An array of integers, each at least {@code itemMin} (page numbers: 1). */
    public static OptionField integers(String name, int itemMin) {
        OptionField f = new OptionField(name, "array", v -> {
            if (!v.isArray()) return "must be an array of integers";
            for (JsonNode item : v) {
                if (!item.isIntegralNumber()) return "must contain only integers";
                if (!item.canConvertToInt()) return "must contain integers from " + itemMin + " to " + Integer.MAX_VALUE;
                if (item.asInt() < itemMin) return "must contain integers >= " + itemMin;
            }
            return null;
        }, listOf(Integer.class));
        f.schema.put("items", J.o("type", "integer", "minimum", itemMin));
        return f;
    }

    /** An array of {@code [from, to]} pairs of integers >= 1 with from <= to (split ranges). */
    public static OptionField ranges(String name) {
        OptionField f = new OptionField(name, "array", v -> {
            if (!v.isArray()) return "must be an array of [from, to] pairs";
            for (JsonNode pair : v) {
                if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isIntegralNumber() || !pair.get(1).isIntegralNumber())
                    return "must contain [from, to] pairs of integers";
                if (!pair.get(0).canConvertToInt() || !pair.get(1).canConvertToInt()) return "has a page number above " + Integer.MAX_VALUE;
                if (pair.get(0).asLong() < 1 || pair.get(1).asLong() < 1) return "page numbers count from 1";
                if (pair.get(0).asLong() > pair.get(1).asLong()) return "has a range whose from is after its to: " + pair;
            }
            return null;
        }, listOf(PageRange.class));
        f.schema.put("items", J.o("type", "array", "items", J.o("type", "integer", "minimum", 1), "minItems", 2, "maxItems", 2));
        return f;
    }

    /**
     * One of the constants of {@code type}, as the JSON string Jackson reads and writes for it (its {@code @JsonValue}
     * or {@code @JsonProperty}); the schema's {@code enum} lists them in declaration order. Bound as the constant.
     */
    public static <E extends Enum<E>> OptionField choice(String name, Class<E> type) {
        return choice(name, type, type.getEnumConstants());
    }

    /** One of the constants given (a part of their enum), as {@link #choice(String, Class)} describes. */
    @SafeVarargs
    public static <E extends Enum<E>> OptionField choice(String name, E first, E... rest) {
        E[] allowed = Arrays.copyOf(rest, rest.length + 1);
        System.arraycopy(rest, 0, allowed, 1, rest.length);
        allowed[0] = first;
        return choice(name, first.getDeclaringClass(), allowed);
    }

    private static OptionField choice(String name, Class<?> type, Enum<?>[] allowed) {
        OptionField f = new OptionField(name, "string", v -> v.isString() ? null : "must be a string", types(type));
        return f.oneOf(Arrays.stream(allowed).map(OptionField::jsonValue).toArray());
    }

    /**
     * An array whose items are each {@code item} (its name is not used: an item's errors name it by its index, e.g.
     * {@code 'areas[2].x'}). Bound as a {@code List} of what {@code item} binds to.
     */
    public static OptionField array(String name, OptionField item) {
        // an item binds to a list's element type: the boxed one of a primitive's types, which comes last
        OptionField f = new OptionField(name, "array", v -> v.isArray() ? null : "must be an array", List.of(List.class.getName() + "<" + item.javaTypes.getLast() + ">"));
        f.items = item;
        f.schema.put("items", new LinkedHashMap<>(item.schema));
        return f;
    }

    /**
     * An object of the fixed members {@code members} declares, no others: the JSON Schema object, checked member by
     * member (errors name the member, e.g. {@code 'visible.page'}). Bound as {@code members}' record.
     */
    public static OptionField object(String name, OptionSchema<?> members) {
        OptionField f = new OptionField(name, "object", v -> v.isObject() ? null : "must be an object " + members.inWords(), types(members.type()));
        f.members = members;
        if (!members.required().isEmpty()) f.schema.put("required", members.required());
        f.schema.put("properties", members.properties());
        f.schema.put("additionalProperties", false);
        return f;
    }

    /**
     * A member whose JSON Schema is given as is, checked by {@code check} (returns an error or null); bound as the
     * request's JSON ({@link JsonNode}).
     */
    public static OptionField custom(String name, Map<String, Object> jsonSchema, Function<JsonNode, String> check) {
        OptionField f = new OptionField(name, null, check, types(JsonNode.class));
        f.schema.putAll(jsonSchema);
        return f;
    }

    /**
     * The id of another file of the account, of one of the given kinds (sign's {@code certificate}, issue 27). Before
     * any job it is looked up like an input file (404 {@code file_not_found}, 410 {@code file_expired}, 400
     * {@code invalid_request} for another kind); the operation reads it with {@code ctx.file(name)}. Bound as the id.
     */
    public static OptionField fileId(String name, FileKind first, FileKind... rest) {
        OptionField f = new OptionField(name, "string", v -> v.isString() ? null : "must be a file id (a string)", types(String.class));
        f.fileKinds = Collections.unmodifiableSet(EnumSet.of(first, rest));
        return f.minLength(1).maxLength(100); // a one-line field in Try it
    }

    public OptionField required() {
        required = true;
        return this;
    }

    /** A secret (a password): removed from the options stored on the job (spec §2.3). */
    public OptionField secret() {
        secret = true;
        return this;
    }

    public OptionField description(String text) {
        schema.put("description", text);
        return this;
    }

    /** The value when the option is left out; an enum constant is given as such and kept as its JSON string. */
    public OptionField defaultValue(Object value) {
        if (value instanceof Enum<?> e) value = jsonValue(e);
        defaultValue = value;
        schema.put("default", value);
        return this;
    }

    public OptionField min(Number min) {
        schema.put("minimum", min);
        checks.add(v -> v.asDouble() < min.doubleValue() ? "must be at least " + min : null);
        return this;
    }

    public OptionField max(Number max) {
        schema.put("maximum", max);
        checks.add(v -> v.asDouble() > max.doubleValue() ? "must be at most " + max : null);
        return this;
    }

    /** More than {@code bound} (JSON Schema's {@code exclusiveMinimum}). */
    public OptionField above(Number bound) {
        schema.put("exclusiveMinimum", bound);
        checks.add(v -> v.asDouble() <= bound.doubleValue() ? "must be more than " + bound : null);
        return this;
    }

    /**
     * A string in which {@code regex} finds a match (JSON Schema's {@code pattern}: not anchored unless it says so);
     * {@code otherwise} says what the value must be, e.g. {@code "must not be blank"}.
     */
    public OptionField pattern(String regex, String otherwise) {
        schema.put("pattern", regex);
        // ECMA-262's $ (JSON Schema's dialect) is the end of the input; Java's also matches before a final line break
        Pattern p = Pattern.compile(regex.endsWith("$") && !regex.endsWith("\\$") ? regex.substring(0, regex.length() - 1) + "\\z" : regex);
        checks.add(v -> p.matcher(v.asString()).find() ? null : otherwise);
        return this;
    }

    public OptionField maxLength(int max) {
        schema.put("maxLength", max);
        checks.add(v -> v.asString().codePointCount(0, v.asString().length()) > max ? "must be at most " + max + " characters" : null);
        return this;
    }

    public OptionField minLength(int min) {
        schema.put("minLength", min);
        checks.add(v -> v.asString().codePointCount(0, v.asString().length()) < min ? "must be at least " + min + " characters" : null);
        return this;
    }

    public OptionField minItems(int min) {
        schema.put("minItems", min);
        checks.add(v -> v.size() < min ? "must have at least " + min + " item" + (min == 1 ? "" : "s") : null);
        return this;
    }

    public OptionField maxItems(int max) {
        schema.put("maxItems", max);
        checks.add(v -> v.size() > max ? "must have at most " + max + " items" : null);
        return this;
    }

    /** Allowed values (integers or strings). */
    public OptionField oneOf(Object... values) {
        schema.put("enum", List.of(values));
        checks.add(v -> {
            for (Object allowed : values) {
                if (allowed instanceof Number n ? v.isNumber() && v.asDouble() == n.doubleValue() : v.isString() && v.asString().equals(allowed))
                    return null;
            }
            return "must be one of " + List.of(values);
        });
        return this;
    }

    public String name() {
        return name;
    }

    /** The types a record component bound to this option may have, as {@link java.lang.reflect.Type#getTypeName()} gives them. */
    List<String> javaTypes() {
        return javaTypes;
    }

    public boolean isRequired() {
        return required;
    }

    /** An array option: an empty array given for it is the same as leaving it out when it is optional ({@link #EMPTY_IS_ABSENT}). */
    boolean isArray() {
        return "array".equals(schema.get("type"));
    }

    public boolean isSecret() {
        return secret;
    }

    public Object defaultValue() {
        return defaultValue;
    }

    /** The kinds of file this option names by id ({@link #fileId}), or null when it names no file. */
    public Set<FileKind> fileKinds() {
        return fileKinds;
    }

    /** Appended to the description of an optional array (a selector such as {@code pages}); see {@link #jsonSchema}. */
    public static final String EMPTY_IS_ABSENT = "An empty array is the same as leaving it out.";

    /**
     * This option as a JSON Schema object (a fresh copy). An option with a default says it may be omitted. An optional
     * array says that {@code []} means "left out"
     * ({@link OptionSchema#validate} treats {@code []} and null so): generators that start every list empty send
     * {@code []} for an unset one, which then does what leaving it out does. It is not declared nullable: Java
     * generators wrap nullable members in {@code JsonNullable}, which a stock {@code resttemplate} client serialises as
     * an object (issue 30).
     */
    public Map<String, Object> jsonSchema() {
        Map<String, Object> copy = new LinkedHashMap<>(schema);
        if (!required && isArray()) appendToDescription(copy, EMPTY_IS_ABSENT);
        // type generators may make a member with a default required (openapi-typescript's default): say it is not
        if (!required && schema.containsKey("default")) appendToDescription(copy, MAY_BE_OMITTED);
        return copy;
    }

    /** Appended to the description of an option with a default; see {@link #jsonSchema}. */
    public static final String MAY_BE_OMITTED = "May be omitted: the default applies.";

    private static void appendToDescription(Map<String, Object> schema, String sentence) {
        Object text = schema.get("description");
        schema.put("description", text == null ? sentence : text + (text.toString().endsWith(".") ? " " : ". ") + sentence);
    }

    /** @return a message naming the option, or null when {@code value} is valid */
    public String check(JsonNode value) {
        return check(name, value);
    }

    /** @return a message naming the value by {@code path} (e.g. {@code areas[2].x}), or null when it is valid */
    String check(String path, JsonNode value) {
        for (Function<JsonNode, String> c : checks) {
            String error = c.apply(value);
            if (error != null) return "'" + path + "' " + error;
        }
        if (items != null) {
            for (int i = 0; i < value.size(); i++) {
                String error = items.check(path + "[" + i + "]", value.get(i));
                if (error != null) return error;
            }
        }
        return members == null ? null : members.problem((ObjectNode) value, path);
    }

    /** A value that passed {@link #check} as the Java type {@code type} of its record component. */
    Object bind(JsonNode value, java.lang.reflect.Type type) {
        if (members != null) return members.bind((ObjectNode) value);
        if (items != null && items.members != null) {
            List<Object> list = new ArrayList<>();
            for (JsonNode item : value) list.add(items.members.bind((ObjectNode) item));
            return Collections.unmodifiableList(list);
        }
        return JSON.treeToValue(value, JSON.constructType(type));
    }

    /** The JSON string of an enum constant (its {@code @JsonValue} or {@code @JsonProperty}). */
    private static String jsonValue(Enum<?> constant) {
        return JSON.valueToTree(constant).asString();
    }

    private static List<String> types(Class<?>... classes) {
        return Arrays.stream(classes).map(Class::getTypeName).toList();
    }

    private static List<String> listOf(Class<?> item) {
        return List.of(List.class.getName() + "<" + item.getName() + ">");
    }

    @Override
    public String toString() {
        return Objects.toString(name);
    }
}
