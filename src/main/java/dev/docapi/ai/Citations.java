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
 * else the element whose text holds its quote, or else its value — so a client can highlight it. A box is never made
 * up: a source whose words no element holds has none. Text is compared as {@link Grounding} compares it (whitespace,
 * case, compatibility forms and typographic quotes ignored).
 */
public final class Citations {
    /** A quote may run over this many consecutive elements of a page (a label and its value, a sentence over a break). */
    private static final int MAX_RUN = 3;

    private final List<Element> elements;
    private final Map<String, Element> byId = new HashMap<>();

    /** @param elements the document model's elements, every page (none: no source gets a box) */
    public Citations(List<Element> elements) {
        this.elements = elements;
        for (Element e : elements) byId.put(DocumentModel.id(e), e);
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
        if (found.isEmpty()) found = holding(value, page);
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
        Element e = byId.get(key.startsWith("[") ? key : "[" + key + "]");
        if (e == null) return List.of();
        String text = Grounding.squash(e.text());
        for (String words : new String[] {quote, value}) {
            if (words != null && !Grounding.squash(words).isEmpty() && text.contains(Grounding.squash(words))) return List.of(e);
        }
        return List.of();
    }

    /** The first element (of {@code page} first, then any) or run of consecutive elements of a page holding {@code words}. */
    private List<Element> holding(String words, Integer page) {
        if (words == null) return List.of();
        String w = Grounding.squash(words);
        if (w.isEmpty()) return List.of();
        if (page != null) {
            List<Element> onPage = run(w, elements.stream().filter(e -> e.page() == page).toList());
            if (!onPage.isEmpty()) return onPage;
        }
        return run(w, elements);
    }

    private static List<Element> run(String squashed, List<Element> in) {
        for (int length = 1; length <= MAX_RUN; length++) {
            for (int i = 0; i + length <= in.size(); i++) {
                List<Element> window = in.subList(i, i + length);
                if (window.getLast().page() != window.getFirst().page()) continue;
                StringBuilder joined = new StringBuilder();
                for (Element e : window) joined.append(Grounding.squash(e.text()));
                if (joined.toString().contains(squashed)) return new ArrayList<>(window);
            }
        }
        return List.of();
    }
}
