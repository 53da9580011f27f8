package dev.docapi.operations.convert.frompdf;

import com.ibm.icu.text.Bidi;
import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentModel.Link;
import java.util.List;
import org.springframework.web.util.HtmlUtils;

/**
 * The document as one HTML5 file (issues 28, 36): a {@code <section>} per page ({@code id="page-N"}), {@code <h1>} to
 * {@code <h6>} headings, {@code <p>}, {@code <pre><code>} listings, {@code <ul>} / {@code <ol>} lists, {@code <table>} with the first row as
 * {@code <thead>}, {@code <img>} pictures, {@code <a href>} links (web and mail addresses only, {@link Link}). A block whose first strong character is right-to-left (Arabic, Hebrew)
 * and a table mostly in such a script ({@link DocumentModel.Table#rightToLeft}) get {@code dir="rtl"}. All text is
 * escaped; nothing from the PDF becomes markup.
 */
final class HtmlWriter extends MarkupWriter {
    private final String title;

    /** @param title the document's title (the input's base name) */
    HtmlWriter(String title) {
        this.title = title;
    }

    @Override
    protected void begin() {
        out.append("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>").append(esc(title)).append("</title>\n")
                .append("<style>body{font-family:sans-serif;max-width:50em;margin:auto;line-height:1.5}")
                .append("table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .4em}img{max-width:100%}</style>\n")
                .append("</head>\n<body>\n");
    }

    @Override
    protected boolean pageContainsItsBlocks() {
        return true;
    }

    @Override
    protected void page(int number) {
        if (number > 1) out.append("</section>\n");
        out.append("<section id=\"page-").append(number).append("\">\n");
    }

    @Override
    protected void heading(int level, String text, List<Link> links) {
        out.append("<h").append(level).append(dir(text)).append('>').append(linked(Link.pieces(text, links))).append("</h").append(level).append(">\n");
    }

    @Override
    protected void paragraph(String text, List<Link> links) {
        out.append("<p").append(dir(text)).append('>').append(linked(Link.pieces(text, links))).append("</p>\n");
    }

    @Override
    protected void code(String text) {
        out.append("<pre><code>").append(esc(text)).append("</code></pre>\n");
    }

    @Override
    protected void list(List<ListItem> items) {
        // nested by level; a run of items of one kind (numbered or not) at one level is one <ol> or <ul>
        java.util.Deque<String> open = new java.util.ArrayDeque<>(); // the open lists' closing tags, innermost first
        int depth = 0;
        for (ListItem item : items) {
            int level = Math.max(1, Math.min(item.level(), depth + 1));
            String kind = item.number() != null ? "ol" : "ul";
            while (depth > level) {
                out.append("</li>\n").append(open.pop()).append('\n');
                depth--;
            }
            if (depth == level && !open.peek().equals("</" + kind + ">")) {
                out.append("</li>\n").append(open.pop()).append('\n');
                depth--;
            }
            if (depth == level) out.append("</li>\n");
            else {
                if (depth > 0) out.append('\n'); // a nested list, inside its parent's item
                out.append(kind.equals("ol") && item.number() != 1 ? "<ol start=\"" + item.number() + "\">" : "<" + kind + ">").append('\n');
                open.push("</" + kind + ">");
                depth = level;
            }
            out.append("<li").append(dir(item.text())).append('>');
            // a task list's item as GitHub writes it: a disabled checkbox before the text
            if (item.checked() != null) out.append("<input type=\"checkbox\" disabled").append(item.checked() ? " checked" : "").append("> ");
            out.append(linked(Link.pieces(item.text(), item.links())));
        }
        while (!open.isEmpty()) out.append("</li>\n").append(open.pop()).append('\n');
    }

    /** The table's cells with their {@code rowspan} and {@code colspan}; its first row is the {@code <thead>}. */
    @Override
    protected void table(DocumentModel.Table table, List<Link> links) {
        List<Link> left = links == null ? new java.util.ArrayList<>() : new java.util.ArrayList<>(links);
        // a right-to-left table's rows come in reading order (DocumentModel.Table): its first cell stands on the right
        out.append(table.rightToLeft() ? "<table dir=\"rtl\">" : "<table>").append("\n<thead>\n");
        row(table.rows().getFirst(), "th", left);
        out.append("</thead>\n<tbody>\n");
        for (List<DocumentModel.Cell> r : table.rows().subList(1, table.rows().size())) row(r, "td", left);
        out.append("</tbody>\n</table>\n");
    }

    private void row(List<DocumentModel.Cell> cells, String tag, List<Link> links) {
        out.append("<tr>");
        for (DocumentModel.Cell c : cells) {
            out.append('<').append(tag);
            if (c.rowSpan() > 1) out.append(" rowspan=\"").append(c.rowSpan()).append('"');
            if (c.colSpan() > 1) out.append(" colspan=\"").append(c.colSpan()).append('"');
            out.append('>').append(linked(Link.take(cell(c.text()), links))).append("</").append(tag).append('>');
        }
        out.append("</tr>\n");
    }

    @Override
    protected void image(String link, int page) {
        out.append("<p><img src=\"").append(esc(link)).append("\" alt=\"Picture on page ").append(page).append("\"></p>\n");
    }

    @Override
    protected void end() {
        out.append("</section>\n</body>\n</html>\n");
    }

    private static String dir(String text) {
        return Bidi.getBaseDirection(text) == Bidi.RTL ? " dir=\"rtl\"" : "";
    }

    /** Pieces of text, escaped, a linked piece in an {@code <a href>}. */
    private static String linked(List<Link.Piece> pieces) {
        StringBuilder sb = new StringBuilder();
        for (Link.Piece p : pieces) {
            if (p.link() == null) sb.append(esc(p.text()));
            else sb.append("<a href=\"").append(esc(p.link().uri())).append("\">").append(esc(p.text())).append("</a>");
        }
        return sb.toString();
    }

    private static String esc(String s) {
        return HtmlUtils.htmlEscape(s, "UTF-8");
    }
}
