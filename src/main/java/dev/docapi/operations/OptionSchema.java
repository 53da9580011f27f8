package dev.docapi.operations;

import dev.docapi.core.ApiException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The options of one operation: the single declaration behind validation, OpenAPI, MCP and workflow steps, tied to
 * the record {@code O} the operation reads them from. Each option {@code snake_name} is bound to the record
 * component {@code snakeName}; the tie is checked when the schema is built (in the operation's static
 * initializer, so a mismatch stops the service from starting): every option has a component of a type it binds to,
 * every component has an option, and a primitive component has a value whenever the option is left out.
 *
 * @param <O> the options record, e.g. {@code record RotateOptions(int angle, List<Integer> pages)}
 */
public final class OptionSchema<O extends Record> {

    /** Request members common to every operation (spec §4.4) and the input members; they are not options. */
    public static final Set<String> COMMON_MEMBERS = Set.of("file", "files", "wait", "webhook_url");

    private static final JsonMapper JSON = JsonMapper.shared();
    private static final OptionSchema<NoOptions> NONE = of(NoOptions.class);

    private final Class<O> type;
    private final List<OptionField> fields;
    /** The option bound to each record component, in component order. */
    private final List<OptionField> byComponent = new ArrayList<>();
    private final RecordComponent[] components;
    private final Constructor<O> constructor;

    private OptionSchema(Class<O> type, List<OptionField> fields) {
        this.type = type;
        this.fields = List.copyOf(fields);
        this.components = type.getRecordComponents();
        for (RecordComponent c : components) byComponent.add(optionOf(c));
        for (OptionField f : fields) {
            if (byComponent.stream().noneMatch(b -> b == f)) {
                throw new IllegalStateException(type.getName() + " has no component '" + componentName(f.name()) + "' for option '" + f.name() + "'");
            }
        }
        try {
            constructor = type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            constructor.setAccessible(true); // options records may be private to their operation
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type.getName() + " has no canonical constructor", e);
        }
    }

    /**
     * The options {@code fields}, read as a {@code type}.
     *
     * @throws IllegalStateException when {@code fields} and the components of {@code type} do not match one to one
     */
    public static <O extends Record> OptionSchema<O> of(Class<O> type, OptionField... fields) {
        return new OptionSchema<>(type, List.of(fields));
    }

    public static OptionSchema<NoOptions> none() {
        return NONE;
    }

    private OptionField optionOf(RecordComponent c) {
        OptionField f = fields.stream().filter(o -> componentName(o.name()).equals(c.getName())).findFirst()
                .orElseThrow(() -> new IllegalStateException(type.getName() + "." + c.getName() + " is not declared as an option"));
        String where = type.getName() + "." + c.getName() + " (option '" + f.name() + "')";
        if (!f.javaTypes().contains(c.getGenericType().getTypeName())) {
            throw new IllegalStateException(where + " must be one of " + f.javaTypes() + ", not " + c.getGenericType().getTypeName());
        }
        if (c.getType().isPrimitive() && c.getType() != boolean.class && !f.isRequired() && f.defaultValue() == null) {
            throw new IllegalStateException(where + " is optional without a default, so it must not be a primitive");
        }
        return f;
    }

    /** {@code max_steps} → {@code maxSteps}. */
    static String componentName(String option) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char ch : option.toCharArray()) {
            if (ch == '_') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(ch) : ch);
                upper = false;
            }
        }
        return out.toString();
    }

    /**
     * Validates the option members of a request body and returns them alone (defaults not filled in). A null option,
     * and an empty array for an optional array option (a selector such as {@code pages} or {@code ranges}, where the
     * spec gives {@code []} no meaning), are left out as if absent.
     *
     * @throws ApiException {@code invalid_request} naming the first wrong, missing or unknown option
     */
    public ObjectNode validate(ObjectNode body, String operation) {
        ObjectNode options = body.objectNode();
        for (String member : body.propertyNames()) {
            if (COMMON_MEMBERS.contains(member)) continue;
            if (field(member) == null) {
                throw ApiException.invalid("unknown option '" + member + "' for " + operation
                        + (fields.isEmpty() ? " (it takes no options)" : "; its options are " + names()));
            }
            options.set(member, body.get(member));
        }
        for (OptionField f : fields) {
            JsonNode v = options.get(f.name());
            if (v == null || v.isNull() || (!f.isRequired() && f.isArray() && v.isArray() && v.isEmpty())) {
                if (f.isRequired()) throw ApiException.invalid("'" + f.name() + "' is required for " + operation);
                options.remove(f.name());
                continue;
            }
            String error = f.check(v);
            if (error != null) throw ApiException.invalid(error);
        }
        return options;
    }

    /**
     * Options that passed {@link #validate} as the record: an option left out takes its declared default, or is an
     * empty list (list components), false (a {@code boolean}) or null.
     */
    public O bind(ObjectNode options) {
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            OptionField f = byComponent.get(i);
            JsonNode v = options.get(f.name());
            if (v == null || v.isNull()) {
                v = f.defaultValue() != null ? JSON.valueToTree(f.defaultValue()) : List.class.equals(c.getType()) ? JSON.createArrayNode() : null;
            }
            values[i] = v != null ? f.bind(v, c.getGenericType()) : c.getType() == boolean.class ? false : null;
        }
        try {
            return constructor.newInstance(values);
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot build " + type.getName(), e);
        }
    }

    /**
     * Checks an object of these members nested in an option ({@link OptionField#object}), named by {@code path}: as
     * {@link #validate} does, a null member is left out.
     *
     * @return a message naming the first unknown, missing or wrong member, or null when {@code object} is valid
     */
    String problem(ObjectNode object, String path) {
        for (String member : object.propertyNames()) {
            if (field(member) == null) return "'" + path + "' has an unknown member '" + member + "'; its members are " + names();
        }
        for (OptionField f : fields) {
            JsonNode v = object.get(f.name());
            if (v == null || v.isNull()) {
                if (f.isRequired()) return "'" + path + "." + f.name() + "' is required";
                continue;
            }
            String error = f.check(path + "." + f.name(), v);
            if (error != null) return error;
        }
        return null;
    }

    /** The shape in words, e.g. {@code {page, x, y, width, height, text?}}: the members, optional ones marked. */
    String inWords() {
        return "{" + String.join(", ", fields.stream().map(f -> f.name() + (f.isRequired() ? "" : "?")).toList()) + "}";
    }

    /** The record these options are read as. */
    Class<O> type() {
        return type;
    }

    /** A copy of validated options without secrets, as stored on the job. */
    public ObjectNode redact(ObjectNode options) {
        ObjectNode copy = options.deepCopy();
        for (OptionField f : fields) if (f.isSecret()) copy.remove(f.name());
        return copy;
    }

    public OptionField field(String name) {
        for (OptionField f : fields) if (f.name().equals(name)) return f;
        return null;
    }

    /** The declared options, in declaration order (the developer area's forms are made from them). */
    public List<OptionField> fields() {
        return fields;
    }

    public List<String> names() {
        return fields.stream().map(OptionField::name).toList();
    }

    /** JSON Schema {@code properties} of the options, in declaration order. */
    public Map<String, Object> properties() {
        Map<String, Object> props = new LinkedHashMap<>();
        for (OptionField f : fields) props.put(f.name(), f.jsonSchema());
        return props;
    }

    public List<String> required() {
        List<String> req = new ArrayList<>();
        for (OptionField f : fields) if (f.isRequired()) req.add(f.name());
        return req;
    }
}
