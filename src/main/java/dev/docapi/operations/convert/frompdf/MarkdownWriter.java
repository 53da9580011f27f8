package dev.docapi.operations.convert.frompdf;

import dev.docapi.document.DocumentModel;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The document as CommonMark with GitHub's tables (issues 28, 36): {@code #} to {@code ######} headings, paragraphs one per line,
 * {@code -} and {@code 1.} lists (nested by three spaces a level), pipe tables (the first row as the header), {@code ![…](images/…)} pictures. Text is
 * escaped so that it reads back as the same words: inline markers ({@code * _ ` [ ] < \}) everywhere, and what would
 * start a block at the start of a line ({@code #}, {@code >}, {@code -}, {@code +}, {@code 1.}).
 */
final class MarkdownWriter extends MarkupWriter {
    private static final Pattern INLINE = Pattern.compile("[\\\\*_`\\[\\]<]|&(?=#?[A-Za-z0-9]+;)");
    private static final Pattern BLOCK_START = Pattern.compile("^(?:(>|=|[#+-](?=\\s|$))|(\\d{1,9})[.)](?=\\s|$))");

    @Override
    protected void begin() {
    }

    @Override
    protected void page(int number) {
    }

    @Override
    protected void heading(int level, String text) {
        out.append("#".repeat(level)).append(' ').append(inline(text)).append("\n\n");
    }

    @Override
    protected void paragraph(String text) {
        out.append(line(text)).append("\n\n");
    }

    @Override
    protected void list(List<ListItem> items) {
        boolean numbered = items.getFirst().number() != null;
        int n = numbered ? items.getFirst().number() : 0;
        for (ListItem item : items) {
            // nested items are indented past their parent's marker; CommonMark needs at least the marker's width
            out.append("   ".repeat(item.level() - 1));
            out.append(numbered ? (n++) + "." : "-").append(' ').append(line(item.text())).append('\n');
        }
        out.append('\n');
    }

    @Override
    protected void table(List<List<String>> rows) {
        row(rows.getFirst());
        out.append('|');
        for (int c = 0; c < rows.getFirst().size(); c++) out.append(" --- |");
        out.append('\n');
        for (List<String> r : rows.subList(1, rows.size())) row(r);
        out.append('\n');
    }

    private void row(List<String> cells) {
        out.append('|');
        for (String c : cells) out.append(' ').append(inline(cell(c)).replace("|", "\\|")).append(" |");
        out.append('\n');
    }

    @Override
    protected void image(String link, int page) {
        out.append("![Picture on page ").append(page).append("](").append(link).append(")\n\n");
    }

    @Override
    protected void end() {
        int n = out.length();
        while (n > 0 && out.charAt(n - 1) == '\n') n--;
        out.setLength(n);
        out.append('\n');
    }

    /** A block's text: inline markers escaped, and a first character that would start another block escaped. */
    private static String line(String text) {
        String s = inline(text);
        Matcher m = BLOCK_START.matcher(s);
        if (!m.find()) return s;
        return m.group(1) != null ? "\\" + s : m.group(2) + "\\" + s.substring(m.group(2).length());
    }

    private static String inline(String text) {
        return INLINE.matcher(text).replaceAll(r -> Matcher.quoteReplacement("\\" + r.group()));
    }
}
