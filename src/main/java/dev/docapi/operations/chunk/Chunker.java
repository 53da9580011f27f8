package dev.docapi.operations.chunk;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.ibm.icu.text.BreakIterator;
import com.ibm.icu.util.ULocale;
import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Type;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.TreeSet;
import java.util.function.ToIntFunction;

/**
 * Cuts a {@link DocumentModel} into chunks for retrieval (issue 36 item 3), as Unstructured's chunk-by-title and
 * Docling's HybridChunker do: a chunk stays under one heading (a title or heading starts a new one, and its text is
 * the chunk's {@code heading_path}, not part of its text); the elements under a heading, in reading order, fill a chunk
 * up to {@code maxTokens}; an element that does not fit where the chunk stands starts the next chunk, and one that
 * does not fit in a chunk of its own is cut between sentences; a table is cut between rows, each part repeating the
 * table's first row (its header). A sentence or a table row is never cut: one that alone is over {@code maxTokens}
 * is a chunk of its own, over the limit. A sentence that a page or column break cuts into two paragraphs of the model
 * is one sentence here ({@link DocumentModel#cut}): a chunk does not end between its two parts. With {@code overlap}, a chunk
 * cut from the one before under the same heading starts with that one's last whole sentences, at most {@code overlap}
 * tokens of them (none before a table part,
 * which repeats its header instead). Running headers, footers, page numbers and pictures are left out.
 *
 * <p>A chunk's text: its elements separated by a blank line (list items by a line break, each with its marker),
 * a paragraph's lines joined by spaces, a table's rows one a line with tab-separated cells, a merged label or value in
 * every row and column it covers ({@link DocumentModel.Table#filledGrid}), so each row reads alone.
 */
final class Chunker {
    /** Where a chunk's text stands: the box of an element it draws from, in points from the page's top-left. */
    record Box(int page, float x, float y, float width, float height) {
    }

    /**
     * @param headingPath the titles and headings it stands under, outermost first (empty before the first)
     * @param pages       the pages it draws from, ascending
     * @param boxes       the boxes of the elements it draws from, in reading order
     * @param tokens      its text's token count
     */
    record Chunk(String text, @JsonProperty("heading_path") List<String> headingPath, List<Integer> pages, List<Box> boxes, int tokens) {
    }

    /**
     * A piece of an element that is never cut: a sentence, or a table row; {@code tokens}: its text's count.
     * {@code from}: the element it starts in, which is {@code element} but for a sentence that a page or column break
     * cut into two paragraphs (then the first paragraph, and {@code element} the second).
     */
    private record Unit(Element from, Element element, String text, boolean sentence, int tokens) {
    }

    private record Heading(int level, String text) {
    }

    private final ToIntFunction<String> tokens;
    private final int maxTokens;
    private final int overlap;
    private final List<Chunk> out = new ArrayList<>();
    private final List<Heading> path = new ArrayList<>();
    /** The chunk being filled; its first {@code carried} units repeat the chunk before (overlap, a table's header). */
    private final List<Unit> parts = new ArrayList<>();
    private int carried;
    /** The paragraph or list item added last, while nothing but furniture and pictures came after it. */
    private Element open;

    private Chunker(ToIntFunction<String> tokens, int maxTokens, int overlap) {
        this.tokens = tokens;
        this.maxTokens = maxTokens;
        this.overlap = overlap;
    }

    /**
     * @param tokens    counts a text's tokens
     * @param maxTokens the most tokens a chunk has (unless one sentence or table row alone has more)
     * @param overlap   the most tokens of whole sentences a chunk repeats from the one before under the same heading
     */
    static List<Chunk> chunks(DocumentModel model, ToIntFunction<String> tokens, int maxTokens, int overlap) {
        Chunker c = new Chunker(tokens, maxTokens, overlap);
        for (DocumentModel.Page page : model.pages()) {
            for (Element e : page.elements()) c.add(e);
        }
        c.flush(List.of());
        return c.out;
    }

    private void add(Element e) {
        if (e.type().furniture() || e.type() == Type.PICTURE || e.text().isBlank()) return;
        Element before = open;
        open = e.type() == Type.PARAGRAPH || e.type() == Type.LIST_ITEM ? e : null;
        if (e.type() == Type.TITLE || e.type() == Type.HEADING) {
            flush(List.of());
            int level = e.type() == Type.TITLE ? 0 : e.level() == null ? 1 : e.level();
            path.removeIf(h -> h.level() >= level);
            path.add(new Heading(level, e.text().replaceAll("\\s+", " ").strip()));
            return;
        }
        if (e.type() == Type.TABLE && e.table() != null) {
            addTable(e);
            return;
        }
        List<Unit> units = e.type() == Type.CODE ? lines(e) : sentences(e);
        if (before != null && e.type() == Type.PARAGRAPH && !units.isEmpty() && parts.size() > carried
                && parts.getLast().element() == before && DocumentModel.cut(before, e)) {
            // the sentence a break cut in two: its first part leaves the chunk and comes back whole
            Unit tail = parts.removeLast();
            String text = tail.text() + " " + units.getFirst().text();
            units = with(List.of(new Unit(tail.from(), e, text, true, tokens.applyAsInt(text))), units.subList(1, units.size()));
        }
        if (!parts.isEmpty() && !fits(with(parts, units)) && fits(units)) {
            flush(overlapOf(parts));
            while (carried > 0 && !fits(with(parts, units))) drop();
        }
        for (Unit u : units) {
            if (!fits(with(parts, List.of(u)))) {
                if (parts.size() > carried) flush(overlapOf(parts));
                while (carried > 0 && !fits(with(parts, List.of(u)))) drop();
            }
            parts.add(u);
        }
    }

    private void addTable(Element e) {
        // a merged row head or value in each row it covers: a part cut from the table still says whose row it is
        List<Unit> rows = e.table().filledGrid().stream().map(r -> unit(e, String.join("\t", r).strip(), false)).toList();
        if (fits(with(parts, rows))) {
            parts.addAll(rows);
            return;
        }
        if (!parts.isEmpty()) flush(List.of());
        if (fits(rows)) {
            parts.addAll(rows);
            return;
        }
        Unit header = rows.getFirst();
        parts.add(header);
        for (Unit row : rows.subList(1, rows.size())) {
            if (!fits(with(parts, List.of(row))) && parts.size() > carried) flush(List.of(header));
            if (!fits(with(parts, List.of(row)))) while (carried > 0) drop();
            parts.add(row);
        }
    }

    /** Ends the chunk being filled (when it has units of its own) and starts the next with {@code carry}. */
    private void flush(List<Unit> carry) {
        if (parts.size() > carried) {
            String text = text(parts);
            TreeSet<Integer> pages = new TreeSet<>();
            LinkedHashSet<Box> boxes = new LinkedHashSet<>();
            for (Unit u : parts) {
                for (Element e : List.of(u.from(), u.element())) {
                    pages.add(e.page());
                    boxes.add(new Box(e.page(), e.box().x(), e.box().y(), e.box().width(), e.box().height()));
                }
            }
            out.add(new Chunk(text, path.stream().map(Heading::text).toList(), List.copyOf(pages), List.copyOf(boxes), tokens.applyAsInt(text)));
        }
        parts.clear();
        parts.addAll(carry);
        carried = carry.size();
    }

    private void drop() {
        parts.removeFirst();
        carried--;
    }

    /** The last whole sentences of {@code units}, at most {@link #overlap} tokens of them. */
    private List<Unit> overlapOf(List<Unit> units) {
        List<Unit> carry = new ArrayList<>();
        for (int i = units.size() - 1; i >= 0 && units.get(i).sentence(); i--) {
            List<Unit> longer = new ArrayList<>(units.subList(i, units.size()));
            if (tokens.applyAsInt(text(longer)) > overlap) break;
            carry = longer;
        }
        return carry;
    }

    /**
     * Whether the units' text has at most {@link #maxTokens} tokens. The sum of the units' counts and one token a
     * separator is an upper bound (pieces that meet at a separator merge into fewer tokens, never more, in practice):
     * within it, the text is not counted again, so filling a chunk costs about one count of each unit, not one count
     * of the whole chunk per unit added; beyond it, the text is counted.
     */
    private boolean fits(List<Unit> units) {
        int bound = Math.max(0, units.size() - 1);
        for (Unit u : units) bound += u.tokens();
        return bound <= maxTokens || tokens.applyAsInt(text(units)) <= maxTokens;
    }

    private Unit unit(Element e, String text, boolean sentence) {
        return new Unit(e, e, text, sentence, tokens.applyAsInt(text));
    }

    private static List<Unit> with(List<Unit> a, List<Unit> b) {
        List<Unit> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** The units' text: sentences of one element joined by a space, rows by a line break, elements as the class says. */
    private static String text(List<Unit> units) {
        StringBuilder sb = new StringBuilder();
        Unit previous = null;
        for (Unit u : units) {
            if (previous != null) {
                if (previous.element() == u.from()) sb.append(u.sentence() ? " " : "\n");
                else sb.append(previous.element().type() == Type.LIST_ITEM && u.element().type() == Type.LIST_ITEM ? "\n" : "\n\n");
            }
            sb.append(u.text());
            previous = u;
        }
        return sb.toString();
    }

    /** A code listing's lines as they stand, their indentation kept: a listing is cut between lines, never inside one. */
    private List<Unit> lines(Element e) {
        return e.text().lines().map(l -> unit(e, l, false)).toList();
    }

    /** An element's sentences, its lines joined by spaces; a list item's first one led by its marker. */
    private List<Unit> sentences(Element e) {
        String text = DocumentModel.flowed(e.text()).strip();
        if (e.type() == Type.LIST_ITEM && e.marker() != null) text = e.marker() + " " + text;
        List<Unit> out = new ArrayList<>();
        BreakIterator it = BreakIterator.getSentenceInstance(ULocale.ROOT);
        it.setText(text);
        for (int start = it.first(), end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
            String sentence = text.substring(start, end).strip();
            if (!sentence.isEmpty()) out.add(unit(e, sentence, true));
        }
        return out;
    }
}
