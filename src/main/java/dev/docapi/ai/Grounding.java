package dev.docapi.ai;

import java.text.Normalizer;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The "never guessed" rule of {@code extract} (spec §4.4): every non-null value the model returns must come with a
 * source quote that is found in the document's text (text layer or OCR), and the quote must contain the value.
 * Whitespace, case, Unicode compatibility forms and typographic quotes are ignored when comparing, so line breaks of
 * the text layer do not matter. A value that fails becomes null and its path is reported.
 */
public final class Grounding {
    private static final Pattern NUMBER = Pattern.compile("[-−]?\\d[\\d,.' \u00a0]*");
    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};

    private final List<String> pages;
    private final String whole;

    /** A source the model gave for one value: its path (e.g. {@code items[0].name}), the quote and the page. */
    public record Source(String field, String quote, Integer page) {
    }

    public Grounding(List<String> pages) {
        this.pages = pages.stream().map(Grounding::squash).toList();
        this.whole = String.join("", this.pages);
    }

    /**
     * Replaces every unsupported leaf of {@code data} by null (in place).
     *
     * @return the paths of the values removed, in document order of {@code data}
     */
    public List<String> check(ObjectNode data, List<Source> sources) {
        Map<String, List<Source>> byField = new HashMap<>();
        for (Source s : sources) byField.computeIfAbsent(normalizePath(s.field()), k -> new ArrayList<>()).add(s);
        List<String> removed = new ArrayList<>();
        for (String name : new ArrayList<>(data.propertyNames())) walk(data, name, name, null, byField, removed);
        return removed;
    }

    private void walk(JsonNode parent, String key, String path, String arrayPath, Map<String, List<Source>> byField, List<String> removed) {
        JsonNode v = parent instanceof ObjectNode o ? o.get(key) : parent.get(Integer.parseInt(key));
        if (v == null || v.isNull()) return;
        if (v.isObject()) {
            for (String name : new ArrayList<>(v.propertyNames())) walk(v, name, path + "." + name, null, byField, removed);
            return;
        }
        if (v.isArray()) {
            ArrayNode arr = (ArrayNode) v;
            List<Integer> drop = new ArrayList<>();
            for (int i = 0; i < arr.size(); i++) {
                JsonNode item = arr.get(i);
                if (item.isObject() || item.isArray()) {
                    walk(arr, String.valueOf(i), path + "[" + i + "]", path, byField, removed);
                } else if (!item.isNull() && !supported(item, path + "[" + i + "]", path, byField)) {
                    drop.add(i);
                    removed.add(path + "[" + i + "]");
                }
            }
            for (int i = drop.size() - 1; i >= 0; i--) arr.remove((int) drop.get(i));
            return;
        }
        if (!supported(v, path, arrayPath, byField)) {
            if (parent instanceof ObjectNode o) o.putNull(key);
            else ((ArrayNode) parent).set(Integer.parseInt(key), ((ArrayNode) parent).nullNode());
            removed.add(path);
        }
    }

    private boolean supported(JsonNode value, String path, String fallbackPath, Map<String, List<Source>> byField) {
        List<Source> candidates = new ArrayList<>(byField.getOrDefault(normalizePath(path), List.of()));
        if (fallbackPath != null) candidates.addAll(byField.getOrDefault(normalizePath(fallbackPath), List.of()));
        for (Source s : candidates) {
            if (s.quote() == null || s.quote().isBlank()) continue;
            String q = squash(s.quote());
            if (!found(q, s.page())) continue;
            if (valueInQuote(value, s.quote(), q)) return true;
        }
        return false;
    }

    private boolean found(String squashedQuote, Integer page) {
        if (squashedQuote.isEmpty()) return false;
        if (page != null && page >= 1 && page <= pages.size() && pages.get(page - 1).contains(squashedQuote)) return true;
        return whole.contains(squashedQuote);
    }

    static boolean valueInQuote(JsonNode value, String rawQuote, String squashedQuote) {
        if (value.isBoolean()) return true;
        if (value.isNumber()) return numbers(rawQuote).stream().anyMatch(n -> Math.abs(n - value.asDouble()) < 1e-9);
        String s = value.asString();
        if (s.matches("\\d{4}-\\d{2}-\\d{2}") && dateIn(s, rawQuote)) return true;
        String sv = squash(s);
        return !sv.isEmpty() && squashedQuote.contains(sv);
    }

    /** Numbers written in the quote, read with either ',' or '.' as the decimal mark. */
    static List<Double> numbers(String quote) {
        List<Double> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(quote);
        while (m.find()) {
            String raw = m.group().replace('−', '-').replaceAll("[' \u00a0]", "").replaceAll("[,.]$", "");
            add(out, raw.replace(",", ""));
            add(out, raw.replace(".", "").replace(',', '.'));
        }
        return out;
    }

    private static void add(List<Double> out, String s) {
        try {
            out.add(Double.parseDouble(s));
        } catch (NumberFormatException ignored) {
            // not a number in this reading
        }
    }

    /** True when the quote writes the date {@code iso}: its year, its day and its month (number or name). */
    static boolean dateIn(String iso, String quote) {
        LocalDate d;
        try {
            d = LocalDate.parse(iso);
        } catch (DateTimeParseException e) {
            return false;
        }
        String q = quote.toLowerCase(Locale.ROOT);
        if (q.contains(iso)) return true;
        List<String> tokens = List.of(q.split("[^\\p{L}\\p{N}]+"));
        String year = String.valueOf(d.getYear());
        boolean hasYear = tokens.contains(year) || tokens.contains(year.substring(2));
        boolean hasDay = tokens.contains(String.valueOf(d.getDayOfMonth())) || tokens.contains(String.format("%02d", d.getDayOfMonth()));
        String mon = MONTHS[d.getMonthValue() - 1];
        boolean hasMonth = tokens.contains(String.valueOf(d.getMonthValue())) || tokens.contains(String.format("%02d", d.getMonthValue()))
                || tokens.stream().anyMatch(t -> t.startsWith(mon));
        return hasYear && hasDay && hasMonth;
    }

    static String squash(String s) {
        String n = Normalizer.normalize(s, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT)
                .replaceAll("[\u2018\u2019\u201b\u2032]", "'").replaceAll("[\u201c\u201d\u201f\u2033]", "\"")
                .replaceAll("[\u2010-\u2015\u2212]", "-");
        return n.replaceAll("[\\s\\u00a0]+", "");
    }

    /**
     * The value at {@code path} in {@code data} ("customer.name", "items[0].price", as the model names it), or null
     * when there is none.
     */
    public static JsonNode value(ObjectNode data, String path) {
        if (path == null) return null;
        if (data.has(path.strip())) return data.get(path.strip()); // a field named with a dot, e.g. "invoice.total"
        JsonNode at = data;
        for (String step : normalizePath(path).replace("[", ".[").split("\\.")) {
            if (step.isEmpty()) continue;
            if (step.startsWith("[") && step.endsWith("]") && step.substring(1, step.length() - 1).matches("\\d+")) {
                at = at.isArray() ? at.get(Integer.parseInt(step.substring(1, step.length() - 1))) : null;
            } else {
                at = at.isObject() ? at.get(step.startsWith("[") ? step.substring(1, step.length() - 1) : step) : null;
            }
            if (at == null) return null;
        }
        return at == data ? null : at;
    }

    private static String normalizePath(String p) {
        if (p == null) return "";
        String s = p.strip();
        if (s.startsWith("$.")) s = s.substring(2);
        if (s.startsWith("data.")) s = s.substring(5);
        return s.replaceAll("\\[\"?'?([^\\]\"']+)\"?'?\\]", "[$1]").replaceAll("\\.(\\d+)(?=\\.|$)", "[$1]");
    }
}
