package dev.docapi.operations.convert.frompdf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a PDF's flow ({@link FlowReader}) as a markup text, Markdown or HTML (issue 28): headings of two levels,
 * paragraphs, lists, tables and links to pictures, in reading order. Lists are found here, from the text: a body line
 * that starts with a bullet ({@code •}, {@code –}, {@code *}, …) or a number ({@code 1.}, {@code 2)}) starts a list
 * item, and consecutive items of the same kind make one list. A subclass says how each block is written.
 */
abstract sealed class MarkupWriter permits MarkdownWriter, HtmlWriter {
    /** A bullet or a number then white space, at the start of a line; group 1 the number when there is one. */
    private static final Pattern ITEM = Pattern.compile("^(?:[•◦▪‣●○■□–—*·-]|(\\d{1,3})[.)])\\s+(?=\\S)");

    /** An item of a list: its number (null for a bullet) and text. */
    record ListItem(Integer number, String text) {
    }

    protected final StringBuilder out = new StringBuilder();

    /**
     * The whole text.
     *
     * @param items       the flow, in reading order
     * @param imageLinks  for each picture of the flow to link to, its path relative to the text (pictures not in the
     *                    map are left out)
     */
    final String write(List<FlowReader.Item> items, Map<ParagraphStripper.Image, String> imageLinks) {
        int page = 1;
        begin();
        page(page);
        List<ListItem> list = new ArrayList<>();
        for (FlowReader.Item item : items) {
            if (item.pageBreak()) {
                list = flush(list);
                page(++page);
            }
            if (item.lines() != null && item.style() == null) {
                List<ListItem> listed = listItems(item.lines());
                if (listed != null) {
                    if (!list.isEmpty() && (list.getFirst().number() == null) != (listed.getFirst().number() == null)) list = flush(list);
                    list.addAll(listed);
                    continue;
                }
            }
            list = flush(list);
            if (item.table() != null) {
                table(item.table().rows());
            } else if (item.image() != null) {
                String link = imageLinks.get(item.image());
                if (link != null) image(link, page);
            } else if (item.style() != null) {
                heading(item.style().equals("Heading1") ? 1 : 2, text(item.lines()));
            } else {
                paragraph(text(item.lines()));
            }
        }
        flush(list);
        end();
        return out.toString();
    }

    private List<ListItem> flush(List<ListItem> list) {
        if (!list.isEmpty()) list(list);
        return new ArrayList<>();
    }

    /** The paragraph's lines as list items when its first line starts one, else null. */
    private static List<ListItem> listItems(List<ParagraphStripper.Line> lines) {
        List<ListItem> items = new ArrayList<>();
        List<ParagraphStripper.Line> current = null;
        Integer number = null;
        for (ParagraphStripper.Line line : lines) {
            Matcher m = ITEM.matcher(line.text());
            if (m.find()) {
                if (current != null) items.add(new ListItem(number, text(current)));
                number = m.group(1) == null ? null : Integer.valueOf(m.group(1));
                current = new ArrayList<>(List.of(new ParagraphStripper.Line(line.text().substring(m.end()), line.size(), line.bold())));
            } else if (current == null) {
                return null;
            } else {
                current.add(line);
            }
        }
        if (current != null) items.add(new ListItem(number, text(current)));
        return items.isEmpty() ? null : items;
    }

    private static String text(List<ParagraphStripper.Line> lines) {
        return PdfToPptxConverter.clean(FlowReader.join(lines)).strip();
    }

    /** Before the first block. */
    protected abstract void begin();

    /** A page starts (from 1); before its first block. */
    protected abstract void page(int number);

    protected abstract void heading(int level, String text);

    protected abstract void paragraph(String text);

    /** A list: all numbered or all bulleted. */
    protected abstract void list(List<ListItem> items);

    /** A table: its rows, all of the same length; the first is written as the header. */
    protected abstract void table(List<List<String>> rows);

    /** A picture of the given page, by its path relative to the text. */
    protected abstract void image(String link, int page);

    /** After the last block. */
    protected abstract void end();

    /** The table's cells as one line of text each (a cell's line breaks become spaces). */
    protected static String cell(String s) {
        return PdfToPptxConverter.clean(s).replaceAll("\\s+", " ").strip();
    }

}
