package dev.docapi.operations.convert.frompdf;

import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentModel.Link;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The document as CommonMark with GitHub's tables (issues 28, 36): {@code #} to {@code ######} headings, paragraphs one per line,
 * fenced code blocks, {@code -} and {@code 1.} lists (each item its own kind and number, nested past its parent's marker; {@code - [x]} task items), pipe tables (the first row as the header), {@code ![…](images/…)} pictures,
 * {@code [text](address)} links (an address printed over two lines whole again). Text is
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
    protected boolean pageContainsItsBlocks() {
        return false;
    }

    @Override
    protected void page(int number) {
    }

    @Override
    protected void heading(int level, String text, List<Link> links) {
        out.append("#".repeat(level)).append(' ').append(linked(Link.pieces(text, links), MarkdownWriter::inline)).append("\n\n");
    }

    @Override
    protected void paragraph(String text, List<Link> links) {
        out.append(line(text, links)).append("\n\n");
    }

    /** A fenced code block, its text as it is: the fence is longer than any run of backticks in it (CommonMark 4.5). */
    @Override
    protected void code(String text) {
        String fence = "```";
        while (text.contains(fence)) fence += "`";
        out.append(fence).append('\n').append(text).append('\n').append(fence).append("\n\n");
    }

    @Override
    protected void list(List<ListItem> items) {
        // each item keeps its own kind and number ("24." stays 24, a bullet after numbers is a bullet); an item is nested
        // past its parent's marker, which CommonMark needs (4 spaces under "24. ", 2 under "- ")
        List<Integer> indents = new java.util.ArrayList<>(List.of(0));
        int previousLevel = 1;
        for (ListItem item : items) {
            int level = Math.max(1, Math.min(item.level(), previousLevel + 1));
            while (indents.size() > level) indents.removeLast();
            String marker = item.number() != null ? item.number() + "." : "-";
            out.append(" ".repeat(indents.getLast())).append(marker).append(' ');
            // GitHub's task list item
            if (item.checked() != null) out.append(item.checked() ? "[x] " : "[ ] ");
            out.append(line(item.text(), item.links())).append('\n');
            indents.add(indents.getLast() + marker.length() + 1);
            previousLevel = level;
        }
        out.append('\n');
    }

    /** A GitHub table has no spans: a merged cell's text stands in every position it covers ({@link DocumentModel.Table#filledGrid}). */
    @Override
    protected void table(DocumentModel.Table table, List<Link> links) {
        List<Link> left = links == null ? new java.util.ArrayList<>() : new java.util.ArrayList<>(links);
        List<List<String>> rows = table.filledGrid();
        row(rows.getFirst(), left);
        out.append('|');
        for (int c = 0; c < rows.getFirst().size(); c++) out.append(" --- |");
        out.append('\n');
        for (List<String> r : rows.subList(1, rows.size())) row(r, left);
        out.append('\n');
    }

    private void row(List<String> cells, List<Link> links) {
        out.append('|');
        for (String c : cells) out.append(' ').append(linked(Link.take(cell(c), links), MarkdownWriter::cellText)).append(" |");
        out.append('\n');
    }

    /**
     * Pieces of text as Markdown, each escaped by {@code escape}: a linked piece as {@code [text](address)}, its text
     * without its blanks where the text is the address ({@link #showsAddress}: an address broken over two lines reads
     * whole again). In the address, what would end it or a table's cell is percent-encoded.
     */
    private static String linked(List<Link.Piece> pieces, java.util.function.UnaryOperator<String> escape) {
        StringBuilder sb = new StringBuilder();
        for (Link.Piece p : pieces) {
            if (p.link() == null) sb.append(escape.apply(p.text()));
            else {
                String address = p.link().uri().replace("\\", "%5C").replace(" ", "%20").replace("(", "%28").replace(")", "%29")
                        .replace("<", "%3C").replace(">", "%3E").replace("|", "%7C");
                sb.append('[').append(escape.apply(showsAddress(p) ? p.text().replaceAll("\\s+", "") : p.text())).append("](").append(address).append(')');
            }
        }
        return sb.toString();
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

    /**
     * Whether a linked piece's text is its address as printed ("https://example.org/a", "example.org/a/", an e-mail
     * address of a mailto link), line breaks aside: it is then written without its line breaks.
     */
    private static boolean showsAddress(Link.Piece piece) {
        String shown = piece.text().replaceAll("\\s+", "").replaceFirst("^(?i)(https?://|ftp://|mailto:)", "").replaceFirst("/$", "");
        String address = piece.link().uri().replaceFirst("^(?i)(https?://|ftp://|mailto:)", "").replaceFirst("/$", "");
        return shown.equalsIgnoreCase(address);
    }

    /** A block's text with its links: inline markers escaped, and a first character that would start another block escaped. */
    private static String line(String text, List<Link> links) {
        String s = linked(Link.pieces(text, links), MarkdownWriter::inline);
        Matcher m = BLOCK_START.matcher(s);
        if (!m.find()) return s;
        return m.group(1) != null ? "\\" + s : m.group(2) + "\\" + s.substring(m.group(2).length());
    }

    /**
     * A cell's text, escaped only where Markdown would read it otherwise, so that a cell reads as the page's text
     * ("FUNCTION_ID", "*JOBCTL", "x * y"): every {@code |}; {@code *} and {@code _} where they could open or close
     * emphasis with another of their kind in the cell (CommonMark's flanking rules); a backslash before punctuation;
     * {@code `} when the cell has two (a code span); {@code [ ]} when a link could form ("](", "]["); {@code <} before
     * what could start a tag or an autolink; {@code &} before what reads as an entity.
     */
    static String cellText(String text) {
        boolean[] escape = emphasis(text);
        boolean code = text.chars().filter(ch -> ch == '`').count() >= 2;
        boolean link = text.contains("](") || text.contains("][");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            char next = i + 1 < text.length() ? text.charAt(i + 1) : ' ';
            boolean esc = switch (ch) {
                case '|' -> true;
                case '*', '_' -> escape[i];
                case '\\' -> isAsciiPunctuation(next);
                case '`' -> code;
                case '[', ']' -> link;
                case '<' -> Character.isLetter(next) || next == '/' || next == '!' || next == '?';
                case '&' -> INLINE.matcher(text).region(i, text.length()).lookingAt();
                default -> false;
            };
            if (esc) sb.append('\\');
            sb.append(ch);
        }
        return sb.toString();
    }

    /**
     * Which {@code *} and {@code _} of the text could delimit emphasis: a run that can open (left-flanking) with a later
     * run of its kind that can close (right-flanking), and that closer; {@code _} inside a word does neither.
     */
    private static boolean[] emphasis(String text) {
        List<int[]> runs = new java.util.ArrayList<>(); // start, end, can open, can close
        int i = 0;
        while (i < text.length()) {
            char ch = text.charAt(i);
            if (ch != '*' && ch != '_') {
                i++;
                continue;
            }
            int j = i;
            while (j < text.length() && text.charAt(j) == ch) j++;
            int before = i > 0 ? text.codePointBefore(i) : ' ', after = j < text.length() ? text.codePointAt(j) : ' ';
            boolean left = !Character.isWhitespace(after) && (!punctuation(after) || Character.isWhitespace(before) || punctuation(before));
            boolean right = !Character.isWhitespace(before) && (!punctuation(before) || Character.isWhitespace(after) || punctuation(after));
            boolean open = ch == '*' ? left : left && (!right || punctuation(before));
            boolean close = ch == '*' ? right : right && (!left || punctuation(after));
            runs.add(new int[] {i, j, open ? 1 : 0, close ? 1 : 0});
            i = j;
        }
        boolean[] escape = new boolean[text.length()];
        for (int a = 0; a < runs.size(); a++) {
            for (int b = a + 1; b < runs.size(); b++) {
                int[] opener = runs.get(a), closer = runs.get(b);
                if (opener[2] == 0 || closer[3] == 0 || text.charAt(opener[0]) != text.charAt(closer[0])) continue;
                for (int[] r : List.of(opener, closer)) for (int k = r[0]; k < r[1]; k++) escape[k] = true;
            }
        }
        return escape;
    }

    private static boolean punctuation(int codePoint) {
        int type = Character.getType(codePoint);
        return isAsciiPunctuation(codePoint) || type == Character.CONNECTOR_PUNCTUATION || type == Character.DASH_PUNCTUATION
                || type == Character.START_PUNCTUATION || type == Character.END_PUNCTUATION || type == Character.INITIAL_QUOTE_PUNCTUATION
                || type == Character.FINAL_QUOTE_PUNCTUATION || type == Character.OTHER_PUNCTUATION || type == Character.MATH_SYMBOL
                || type == Character.CURRENCY_SYMBOL || type == Character.MODIFIER_SYMBOL || type == Character.OTHER_SYMBOL;
    }

    private static boolean isAsciiPunctuation(int c) {
        return c < 128 && "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".indexOf(c) >= 0;
    }

    private static String inline(String text) {
        return INLINE.matcher(text).replaceAll(r -> Matcher.quoteReplacement("\\" + r.group()));
    }
}
