package dev.docapi.web;

import dev.docapi.core.ApiException;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OptionField;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;
import org.springframework.ui.Model;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An operation's request as an HTML form and back, for "Try it" (issue 11). The controls come from each option's
 * JSON Schema ({@link OptionField#jsonSchema}, the schema behind the OpenAPI document); the values typed become the
 * JSON members {@code POST /v1/{operation}} takes, which the operation then validates as it validates an API request
 * (so the form shows the API's own messages). A value the form cannot even turn into JSON is refused here, with a
 * message naming the option.
 */
@Component
class OperationForm {
    /** Strings allowed this long or longer get a text area rather than a one-line input. */
    static final int TEXT_AREA_FROM = 500;
    /** The most page numbers a page list may name, ranges counted page by page, when the option gives no maxItems. */
    static final int MAX_PAGES_LISTED = 10_000;
    private final JsonMapper json;

    OperationForm(JsonMapper json) {
        this.json = json;
    }

    /**
     * One form control.
     *
     * @param kind    {@code select} (an enum or a boolean), {@code integer}, {@code number}, {@code text},
     *                {@code textarea}, {@code password} (a secret option), {@code pages} (an array of page numbers,
     *                typed as {@code 1, 3, 5-7}) or {@code json} (any other array or object, typed as JSON)
     * @param choices the values of a {@code select}, as their JSON text
     * @param help    the option's description, then its bounds and default, in words
     */
    record Control(String name, String kind, boolean required, List<String> choices, Object min, Object max,
                   Object minLength, Object maxLength, String help) {
    }

    List<Control> controls(Operation<?> op) {
        List<Control> controls = new ArrayList<>();
        for (OptionField f : op.options().fields()) {
            Map<String, Object> schema = f.jsonSchema();
            String kind = kind(f, schema);
            List<String> choices = schema.get("enum") instanceof List<?> values ? values.stream().map(String::valueOf).toList()
                    : kind.equals("select") ? List.of("true", "false") : List.of();
            controls.add(new Control(f.name(), kind, f.isRequired(), choices, schema.get("minimum"), schema.get("maximum"),
                    schema.get("minLength"), schema.get("maxLength"), help(kind, schema)));
        }
        return controls;
    }

    /**
     * Puts the operation's form in the model of the template fragment {@code try :: options} ({@code operation},
     * {@code controls}, {@code values}), with the values sent again but for secrets, which are never repeated.
     */
    void show(Operation<?> op, Map<String, String> values, Model model) {
        Map<String, String> shown = values.entrySet().stream()
                .filter(e -> op.options().field(e.getKey()) == null || !op.options().field(e.getKey()).isSecret())
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        model.addAttribute("operation", op);
        model.addAttribute("controls", controls(op));
        model.addAttribute("values", shown);
    }

    private static String kind(OptionField f, Map<String, Object> schema) {
        Object type = schema.get("type") instanceof List<?> types ? types.getFirst() : schema.get("type");
        if (schema.containsKey("enum") || "boolean".equals(type)) return "select";
        if ("integer".equals(type) || "number".equals(type)) return (String) type;
        if ("string".equals(type)) {
            if (f.isSecret()) return "password";
            return schema.get("maxLength") instanceof Integer max && max < TEXT_AREA_FROM ? "text" : "textarea";
        }
        if ("array".equals(type) && schema.get("items") instanceof Map<?, ?> items && "integer".equals(items.get("type"))) return "pages";
        return "json";
    }

    private static String help(String kind, Map<String, Object> schema) {
        List<String> parts = new ArrayList<>();
        if (schema.get("description") instanceof String d) {
            // said for JSON clients; on the form, an empty field is simply an option left out
            String text = d.replace(OptionField.EMPTY_IS_ABSENT, "").strip();
            if (!text.isEmpty()) parts.add(text.endsWith(".") ? text : text + ".");
        }
        if (kind.equals("pages")) parts.add("Page numbers separated by commas; a range such as 5-7 names each page in it.");
        if (kind.equals("json")) parts.add("As JSON.");
        Object min = schema.get("minimum");
        Object max = schema.get("maximum");
        if (min != null && max != null) parts.add("From " + min + " to " + max + ".");
        else if (min != null) parts.add("At least " + min + ".");
        else if (max != null) parts.add("At most " + max + ".");
        if (schema.get("maxLength") != null) parts.add("At most " + schema.get("maxLength") + " characters.");
        if (schema.containsKey("default")) parts.add("Default: " + schema.get("default") + ".");
        return String.join(" ", parts);
    }

    /**
     * The body of {@code POST /v1/{operation}} for {@code fileIds} and the form's {@code values}: an empty value is an
     * option left out; the options are not validated here (the operation does that).
     *
     * @throws ApiException 400 {@code invalid_request} for a page list or JSON text that does not parse, or for a
     *                      single-file operation given no file or several
     */
    ObjectNode body(Operation<?> op, List<String> fileIds, Map<String, String> values) {
        ObjectNode body = json.createObjectNode();
        if (op.inputs().many()) {
            ArrayNode ids = body.putArray("files");
            fileIds.forEach(ids::add);
        } else if (fileIds.size() == 1) {
            body.put("file", fileIds.getFirst());
        } else {
            throw ApiException.invalid(fileIds.isEmpty() ? "Upload a file or pick one of yours."
                    : op.name() + " takes one file: upload one or pick one, not " + fileIds.size());
        }
        for (Control c : controls(op)) {
            String text = values.getOrDefault(c.name(), "");
            if (text.isBlank()) continue;
            body.set(c.name(), value(op, c, text));
        }
        return body;
    }

    /** Numbers that do not parse are sent as strings, so that the operation's check names the option and the type. */
    private JsonNode value(Operation<?> op, Control c, String text) {
        String t = text.strip();
        return switch (c.kind()) {
            case "integer" -> integer(t);
            case "number" -> number(t);
            case "select" -> op.options().field(c.name()).jsonSchema().get("enum") instanceof List<?> values && values.getFirst() instanceof Number
                    ? number(t) : t.equals("true") || t.equals("false") ? json.getNodeFactory().booleanNode(Boolean.parseBoolean(t))
                    : json.getNodeFactory().stringNode(t);
            case "pages" -> pages(op, c, t);
            case "json" -> parsed(c, t);
            default -> json.getNodeFactory().stringNode(text);
        };
    }

    private JsonNode integer(String t) {
        try {
            return json.getNodeFactory().numberNode(new BigInteger(t));
        } catch (NumberFormatException notAnInteger) {
            return number(t);
        }
    }

    private JsonNode number(String t) {
        try {
            BigDecimal d = new BigDecimal(t);
            return d.scale() <= 0 ? json.getNodeFactory().numberNode(d.toBigIntegerExact()) : json.getNodeFactory().numberNode(d);
        } catch (NumberFormatException | ArithmeticException notANumber) {
            return json.getNodeFactory().stringNode(t);
        }
    }

    private ArrayNode pages(Operation<?> op, Control c, String t) {
        int cap = op.options().field(c.name()).jsonSchema().get("maxItems") instanceof Integer max ? max : MAX_PAGES_LISTED;
        ArrayNode pages = json.createArrayNode();
        for (String item : t.split("[,\\s]+")) {
            if (item.isEmpty()) continue;
            String[] ends = item.split("-", -1);
            long from;
            long to;
            try {
                if (ends.length > 2) throw new NumberFormatException();
                from = Long.parseLong(ends[0]);
                to = ends.length == 2 ? Long.parseLong(ends[1]) : from;
            } catch (NumberFormatException e) {
                throw ApiException.invalid("'" + c.name() + "' takes page numbers separated by commas, such as 1, 3, 5-7; '" + item + "' is not one");
            }
            if (from > to) throw ApiException.invalid("'" + c.name() + "' has a range whose first page is after its last: " + item);
            if (to - from + 1 > cap - pages.size()) throw ApiException.invalid("'" + c.name() + "' names more than " + cap + " pages");
            for (long p = from; p <= to; p++) pages.add(p);
        }
        return pages;
    }

    private JsonNode parsed(Control c, String t) {
        try {
            return json.readTree(t);
        } catch (JacksonException e) {
            throw ApiException.invalid("'" + c.name() + "' is not valid JSON");
        }
    }
}
