package dev.docapi.ai;

import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentModel.Element;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where a model's source stands in the document (issue 36): the element it cites by id ({@link DocumentModel#id}), or
 * else the element whose text holds its quote, or else the one element that holds its value (a value several elements
 * hold, "3", says nothing of where it came from) — so a client can highlight it. A box is never made
 * up: a source whose words no element holds has none. Text is compared as {@link Grounding} compares it (whitespace,
 * case, compatibility forms and typographic quotes ignored).
 */
public final class Citations {
    /** A quote may run over this many consecutive elements of a page (a label and its value, a sentence over a break). */
    private static final int MAX_RUN = 3;

    private final List<Element> elements;
    /** Each element's text as compared ({@link Grounding#squash}), by position in {@link #elements}: made once. */
    private final List<String> squashed;
    private final Map<String, Integer> byId = new HashMap<>();

    /** @param elements the document model's elements, every page (none: no source gets a box) */
    public Citations(List<Element> elements) {
        this.elements = elements;
        this.squashed = elements.stream().map(e -> Grounding.squash(e.text())).toList();
        for (int i = 0; i < elements.size(); i++) byId.put(DocumentModel.id(elements.get(i)), i);
    }

    /** {@code text} without the element ids a model may have copied from the text it read ("[e12] Total" → "Total"). */
    public static String withoutIds(String text) {
        return text == null ? null : text.replaceAll("\\[e\\d+]\\s*", "").strip();
    }

    /**
     * One source as the API returns it: {@code quote} (as the model gave it, ids removed), and where located
     * {@code page} (from 1), {@code box} ({x, y, width, height} in points from the page's top-left), {@code element}
     * (the id, e.g. "e12"; the first of a run) and {@code text} (the element's whole text, runs joined by a line break).
     * Unlocated: the {@code page} the model named, when the document has it, and no box.
     *
     * @param element the id the model cited ("e12" or "[e12]"), or null/blank
     * @param quote   the words the model cited, or null
     * @param value   the value the source backs (extract), tried when the quote is not found; or null
     * @param page    the page the model named, or null; elements on it are preferred
     * @param pages   the document's page count (for an unlocated source's page)
     */
    public ObjectNode source(String element, String quote, String value, Integer page, int pages) {
        ObjectNode out = ModelJson.JSON.createObjectNode();
        String q = withoutIds(quote);
        if (q != null && !q.isEmpty()) out.put("quote", q);
        List<Element> found = cited(element, q, value);
        if (found.isEmpty()) found = holding(q, page);
        if (found.isEmpty()) found = onlyHolder(value, page);
        if (found.isEmpty()) {
            if (page != null && page >= 1 && page <= pages) out.put("page", page);
            return out;
        }
        Element first = found.getFirst();
        DocumentModel.Box box = first.box();
        StringBuilder text = new StringBuilder(first.text());
        for (Element e : found.subList(1, found.size())) {
            box = box.union(e.box());
            text.append('\n').append(e.text());
        }
        out.put("page", first.page());
        out.putObject("box").put("x", round(box.x())).put("y", round(box.y())).put("width", round(box.width())).put("height", round(box.height()));
        out.put("element", "e" + first.index());
        out.put("text", text.toString());
        return out;
    }

    /** Points to two decimals: finer than any renderer needs, shorter to read. */
    private static double round(float v) {
        return Math.round(v * 100) / 100.0;
    }

    /** The element cited by id, when it holds the quote or the value (an id with other words is a wrong id). */
    private List<Element> cited(String id, String quote, String value) {
        if (id == null || id.isBlank()) return List.of();
        String key = id.strip();
        Integer i = byId.get(key.startsWith("[") ? key : "[" + key + "]");
        if (i == null) return List.of();
        for (String words : new String[] {quote, value}) {
            if (words != null && !Grounding.squash(words).isEmpty() && squashed.get(i).contains(Grounding.squash(words))) return List.of(elements.get(i));
        }
        return List.of();
    }

    /** The first element (of {@code page} first, then any) or run of consecutive elements of a page holding {@code words}. */
    private List<Element> holding(String words, Integer page) {
        if (words == null) return List.of();
        String w = Grounding.squash(words);
        if (w.isEmpty()) return List.of();
        if (page != null) {
            List<Element> onPage = run(w, page);
            if (!onPage.isEmpty()) return onPage;
        }
        return run(w, null);
    }

    /** The element holding {@code words} when it is the only one (of {@code page}, when given, else of the document). */
    private List<Element> onlyHolder(String words, Integer page) {
        if (words == null || Grounding.squash(words).isEmpty()) return List.of();
        String w = Grounding.squash(words);
        List<Element> holders = new ArrayList<>();
        for (int i = 0; i < elements.size() && holders.size() < 2; i++) {
            if ((page == null || elements.get(i).page() == page) && squashed.get(i).contains(w)) holders.add(elements.get(i));
        }
        if (holders.size() == 1) return holders;
        return holders.isEmpty() && page != null ? onlyHolder(words, null) : List.of();
    }

    /** The first element or run of consecutive elements of one page (of {@code page}, when given) holding {@code words}. */
    private List<Element> run(String words, Integer page) {
        for (int length = 1; length <= MAX_RUN; length++) {
            for (int i = 0; i + length <= elements.size(); i++) {
                int first = elements.get(i).page(), last = elements.get(i + length - 1).page();
                if (first != last || (page != null && first != page)) continue;
                String joined = length == 1 ? squashed.get(i) : String.join("", squashed.subList(i, i + length));
                if (joined.contains(words)) return new ArrayList<>(elements.subList(i, i + length));
            }
        }
        return List.of();
    }
}
