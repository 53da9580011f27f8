package dev.docapi.operations.convert.frompdf;

import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Link;
import dev.docapi.document.DocumentModel.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a PDF's {@link DocumentModel} as a markup text, Markdown or HTML (issues 28, 36): the title as a level-1
 * heading and the document's headings one level below their own (a section "1" is level 2), paragraphs, captions and
 * footnotes as paragraphs, code listings line by line, a form field's value after its label on one line ("Name: Alice", "☑ Agree"; see
 * {@link DocumentModel#joint}), consecutive list items as one list (nested by their level; numbered when the first item is),
 * tables (one cut by a page break as one table where pages hold no blocks of their own: {@link #goesOn}), and links
 * to pictures, in the model's reading order. The text's hyperlinks ({@link Link}) are links. Running headers, footers and page numbers are left
 * out. A subclass says how each block is written.
 */
abstract sealed class MarkupWriter permits MarkdownWriter, HtmlWriter {
    /**
     * An item of a list: its number (null for a bullet), nesting level (from 1), text, and for a task list's item
     * whether it is checked (null for other items).
     */
    record ListItem(Integer number, int level, String text, Boolean checked, List<Link> links) {
    }

    protected final StringBuilder out = new StringBuilder();

    /**
     * The whole text.
     *
     * @param model      the document
     * @param imageLinks for each picture to link to ({@code "page/number"}), its path relative to the text (pictures
     *                   not in the map are left out)
     */
    final String write(DocumentModel model, Map<String, String> imageLinks) {
        begin();
        List<ListItem> list = new ArrayList<>();
        Integer listId = null;
        // the paragraph being written, and its last element: a form field and its label on one row make one line
        StringBuilder row = new StringBuilder();
        List<Link> rowLinks = new ArrayList<>();
        Element previous = null;
        // the table last written, held until the next block: the first table of the next page may go on with it
        DocumentModel.Table pending = null;
        List<Link> pendingLinks = new ArrayList<>();
        Element pendingPiece = null;
        DocumentModel.Page pendingPage = null;
        for (DocumentModel.Page page : model.pages()) {
            // a list that goes on over a page break stays one list where pages are no containers of their own
            Integer open = listId;
            boolean listGoesOn = !pageContainsItsBlocks() && open != null && page.elements().stream()
                    .filter(e -> !e.type().furniture()).findFirst().map(e -> open.equals(e.list())).orElse(false);
            if (!listGoesOn) list = flush(list);
            if (pending != null && pageContainsItsBlocks()) pending = written(pending, pendingLinks);
            page(page.number());
            boolean first = true;
            for (Element e : page.elements()) {
                if (e.type().furniture()) continue;
                if (pending != null) {
                    if (first && goesOn(pendingPiece, pendingPage, e, page)) {
                        pending = joined(pending, e.table());
                        if (e.links() != null) pendingLinks.addAll(e.links());
                        pendingPiece = e;
                        pendingPage = page;
                        first = false;
                        continue;
                    }
                    pending = written(pending, pendingLinks);
                }
                first = false;
                if (e.type() == Type.LIST_ITEM) {
                    row = paragraph(row, rowLinks);
                    if (!e.list().equals(listId)) list = flush(list);
                    listId = e.list();
                    // what a list's own count cannot say stays before the text, as printed: a multi-level number
                    // ("2.1."), a number set in a circle ("②"), a letter or roman number ("a.", "(ii)", "가.": a
                    // contract's clauses are cited by them)
                    boolean kept = e.marker() != null && (e.marker().matches("\\d+(\\.\\d+)+[.:]?") || DocumentModel.circled(e.marker())
                            || e.marker().matches("\\(?\\p{L}{1,4}[.)]"));
                    String text = kept ? e.marker() + " " + text(e.text()) : text(e.text());
                    list.add(new ListItem(kept ? null : number(e.marker()), e.level() == null ? 1 : e.level(), text,
                            DocumentModel.checked(e.marker()), e.links()));
                    continue;
                }
                list = flush(list);
                listId = null;
                switch (e.type()) {
                    case TABLE -> {
                        row = paragraph(row, rowLinks);
                        if (!e.table().rows().isEmpty() && e.table().columns() > 0) {
                            pending = e.table();
                            pendingLinks = e.links() == null ? new ArrayList<>() : new ArrayList<>(e.links());
                            pendingPiece = e;
                            pendingPage = page;
                        }
                    }
                    case PICTURE -> {
                        row = paragraph(row, rowLinks);
                        String link = imageLinks.get(e.page() + "/" + e.picture());
                        if (link != null) image(link, e.page());
                    }
                    case TITLE -> {
                        row = paragraph(row, rowLinks);
                        heading(1, text(e.text()), e.links());
                    }
                    case HEADING -> {
                        row = paragraph(row, rowLinks);
                        heading(Math.min(6, (e.level() == null ? 1 : e.level()) + 1), text(e.text()), e.links());
                    }
                    case CODE -> {
                        row = paragraph(row, rowLinks);
                        code(PdfToPptxConverter.clean(e.text()));
                    }
                    default -> {
                        String t = text(e.text());
                        if (t.isEmpty()) continue;
                        String joint = row.isEmpty() ? null : DocumentModel.joint(previous, e);
                        if (joint == null) row = paragraph(row, rowLinks);
                        else row.append(joint);
                        row.append(t);
                        if (e.links() != null) rowLinks.addAll(e.links());
                        previous = e;
                    }
                }
            }
            // where pages are no containers, a paragraph cut by the page break may go on on the next page
            if (pageContainsItsBlocks()) row = paragraph(row, rowLinks);
        }
        paragraph(row, rowLinks);
        if (pending != null) written(pending, pendingLinks);
        flush(list);
        end();
        return out.toString();
    }

    /** Writes a held table with its links; returns null, as nothing is held after it. */
    private DocumentModel.Table written(DocumentModel.Table held, List<Link> links) {
        table(held, links);
        return null;
    }

    /**
     * Whether table {@code next}, the first block of its page, goes on with {@code last}, the last block of the page
     * before: a table cut by a page break. Where pages hold no blocks of their own (Markdown), it is then written as
     * one table with it. Both have as many columns and the same left and right edges (within 3 pt), the first reaches
     * the lower part of its page (below 60 % of its height) and the next starts in the upper part (above 40 %).
     */
    static boolean goesOn(Element last, DocumentModel.Page lastPage, Element next, DocumentModel.Page page) {
        if (next.type() != Type.TABLE || next.table().rows().isEmpty() || page.number() != lastPage.number() + 1) return false;
        DocumentModel.Box a = last.box(), b = next.box();
        return last.table().columns() == next.table().columns() && Math.abs(a.x() - b.x()) <= 3 && Math.abs(a.right() - b.right()) <= 3
                && a.bottom() >= 0.6f * lastPage.height() && b.y() <= 0.4f * page.height();
    }

    /** The rows of {@code more} under those of {@code table}, without its first row when it repeats the header. */
    static DocumentModel.Table joined(DocumentModel.Table table, DocumentModel.Table more) {
        List<List<DocumentModel.Cell>> rows = new ArrayList<>(table.rows());
        boolean repeated = more.grid().getFirst().equals(table.grid().getFirst());
        rows.addAll(repeated ? more.rows().subList(1, more.rows().size()) : more.rows());
        return new DocumentModel.Table(table.columns(), table.ruled() && more.ruled(), rows);
    }

    /** Writes {@code row} as a paragraph with its {@code links} when it has text; returns an empty row to start the next (and empties the links). */
    private StringBuilder paragraph(StringBuilder row, List<Link> links) {
        if (!row.isEmpty()) paragraph(row.toString(), List.copyOf(links));
        links.clear();
        return new StringBuilder();
    }

    /** The number of a numbered list item's marker ("3." → 3), null for a bullet or a letter. */
    private static Integer number(String marker) {
        String digits = marker == null ? "" : marker.replaceAll("\\D", "");
        return digits.isEmpty() || digits.length() > 3 ? null : Integer.valueOf(digits);
    }

    private List<ListItem> flush(List<ListItem> list) {
        if (!list.isEmpty()) list(list);
        return new ArrayList<>();
    }

    /** An element's text as one flowing line ({@link DocumentModel#flowed}). */
    private static String text(String s) {
        return DocumentModel.flowed(PdfToPptxConverter.clean(s)).strip();
    }

    /** Before the first block. */
    protected abstract void begin();

    /** A page starts (from 1); before its first block. */
    protected abstract void page(int number);

    /** Whether a page holds its blocks (an HTML section): then no list goes on over a page break. */
    protected abstract boolean pageContainsItsBlocks();

    /** A heading, level 1 to 6, with the links on its text (none: empty or null). */
    protected abstract void heading(int level, String text, List<Link> links);

    /** A paragraph with the links on its text ({@link Link#pieces}). */
    protected abstract void paragraph(String text, List<Link> links);

    /** A code listing, its lines as they are ({@code \n} between them, leading spaces kept). */
    protected abstract void code(String text);

    /** A list: items nested by their level, each numbered or bulleted as its own marker is (its number kept). */
    protected abstract void list(List<ListItem> items);

    /**
     * A table (at least one row and column); its first row is written as the header. {@code links}: the links on its
     * cells' text in reading order, each cell taking those it holds ({@link Link#take}).
     */
    protected abstract void table(DocumentModel.Table table, List<Link> links);

    /** A picture of the given page, by its path relative to the text. */
    protected abstract void image(String link, int page);

    /** After the last block. */
    protected abstract void end();

    /** The table's cells as one line of text each (a cell's line breaks become spaces). */
    protected static String cell(String s) {
        return PdfToPptxConverter.clean(s).replaceAll("\\s+", " ").strip();
    }
}
