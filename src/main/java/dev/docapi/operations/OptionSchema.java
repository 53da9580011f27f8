package dev.docapi.operations;

import dev.docapi.api.ApiException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The options of one operation: the single declaration behind validation, OpenAPI, MCP and workflow steps. */
public record OptionSchema(List<OptionField> fields) {

    /** Request members common to every operation (spec §4.4) and the input members; they are not options. */
    public static final Set<String> COMMON_MEMBERS = Set.of("file", "files", "wait", "webhook_url");

    public static OptionSchema of(OptionField... fields) {
        return new OptionSchema(List.of(fields));
    }

    public static OptionSchema none() {
        return new OptionSchema(List.of());
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
            if (v == null || v.isNull() || (!f.isRequired() && v.isArray() && v.isEmpty())) {
                if (f.isRequired()) throw ApiException.invalid("'" + f.name() + "' is required for " + operation);
                options.remove(f.name());
                continue;
            }
            String error = f.check(v);
            if (error != null) throw ApiException.invalid(error);
        }
        return options;
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
