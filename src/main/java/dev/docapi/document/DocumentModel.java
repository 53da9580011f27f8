package dev.docapi.document;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * A PDF as one document model (issue 36): its pages, each with its elements in reading order. Every PDF → text output
 * (convert to md, html, docx, pptx notes, xlsx; extract-text; the text given to {@code custom/} models) reads this,
 * so they agree on order, headings, lists and tables. Built by {@link DocumentReader}, kept with the file. It is also
 * public (additions): {@code convert {to: "json"}} returns it as Jackson writes these records, and the OpenAPI
 * document's {@code DocumentModel} schema is derived from them, so a renamed or added component changes the API: bump
 * {@link #VERSION} with it.
 *
 * @param version the model's shape version ({@link #VERSION}); a kept model of another version is rebuilt
 * @param pages   every page, in page order
 * @param notes   what could not be read, as sentences for a job's note (tables on an unreadable page, form values)
 */
public record DocumentModel(int version, List<Page> pages, List<String> notes) {
    /**
     * The shape version: bump it when what the reader produces changes, so kept models are rebuilt; also the version of
     * the public JSON ({@code convert} to json, the OpenAPI {@code DocumentModel} schema says it).
     */
    public static final int VERSION = 22;

    /**
     * A page.
     *
     * @param number   from 1
     * @param width    in points, as the page is seen (its {@code /Rotate} applied)
     * @param height   in points, as the page is seen
     * @param ocr      whether its text came from OCR (the page had no text layer)
     * @param elements in reading order
     */
    public record Page(int number, float width, float height, boolean ocr, List<Element> elements) {
    }

    /** What an element is. Its JSON name is the lower-case constant name. */
    public enum Type {
        TITLE, HEADING, PARAGRAPH, LIST_ITEM, TABLE, PICTURE, CAPTION, FORMULA, FOOTNOTE, PAGE_HEADER, PAGE_FOOTER,
        PAGE_NUMBER, FORM_FIELD,
        /** A listing in a monospaced font where the body is not: its text keeps its lines, their indentation and blank lines. */
        CODE;

        @JsonValue
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        @JsonCreator
        public static Type of(String json) {
            return valueOf(json.toUpperCase(java.util.Locale.ROOT));
        }

        /** Running text repeated on each page (header, footer, page number): apart from the document's own text. */
        @JsonIgnore
        public boolean furniture() {
            return this == PAGE_HEADER || this == PAGE_FOOTER || this == PAGE_NUMBER;
        }
    }

    /**
     * A box in points from the page's top-left corner, as the page is seen (the API's other boxes are the same).
     */
    public record Box(float x, float y, float width, float height) {
        @JsonIgnore
        public float right() {
            return x + width;
        }

        @JsonIgnore
        public float bottom() {
            return y + height;
        }

        /** Whether {@code inner} lies wholly inside this box, give or take a point. */
        public boolean holds(Box inner) {
            return inner.x >= x - 1 && inner.right() <= right() + 1 && inner.y >= y - 1 && inner.bottom() <= bottom() + 1;
        }

        /** The smallest box holding both. */
        public Box union(Box o) {
            float l = Math.min(x, o.x), t = Math.min(y, o.y);
            return new Box(l, t, Math.max(right(), o.right()) - l, Math.max(bottom(), o.bottom()) - t);
        }
    }

    /** A table cell: its text and how many rows and columns it spans (1 and 1 for a plain cell). */
    public record Cell(String text, @JsonProperty("row_span") int rowSpan, @JsonProperty("col_span") int colSpan) {
    }

    /**
     * A table: its rows of cells, each row's in reading order (a right-to-left table's from its rightmost column). A
     * spanning cell appears once, in its first position; the positions it covers hold no cell, so rows may be shorter
     * than the column count.
     *
     * @param columns the number of columns
     * @param ruled   true when found by its rulings (every cell drawn), false when by the alignment of its text
     */
    public record Table(int columns, boolean ruled, List<List<Cell>> rows) {
        /** The longest merged cell's text that {@link #filledGrid} repeats. */
        static final int FILLED_CHARS = 40;

        /** The rows as a grid of {@code columns} strings, a spanning cell's text in its first position, "" in the rest. */
        @JsonIgnore
        public List<List<String>> grid() {
            return grid(false);
        }

        /**
         * The rows as a grid of {@code columns} strings, a spanning cell's text in every position it covers, as
         * pandas' {@code read_html} and Docling's Markdown fill a merged cell: each row read alone keeps its label or
         * value. A cell across the whole row (a title or a section's row) and a longer text (over {@value
         * #FILLED_CHARS} characters: prose, not a label) stand once, in their first position.
         */
        @JsonIgnore
        public List<List<String>> filledGrid() {
            return grid(true);
        }

        private List<List<String>> grid(boolean filled) {
            List<List<String>> out = new ArrayList<>();
            for (int r = 0; r < rows.size(); r++) out.add(new ArrayList<>(java.util.Collections.nCopies(columns, "")));
            int[][] starts = starts();
            for (int r = 0; r < rows.size(); r++) {
                for (int i = 0; i < starts[r].length; i++) {
                    if (starts[r][i] < 0) continue;
                    Cell cell = rows.get(r).get(i);
                    boolean fill = filled && cell.colSpan() < columns && cell.text().length() <= FILLED_CHARS;
                    int down = fill ? Math.min(cell.rowSpan(), rows.size() - r) : 1, across = fill ? Math.min(cell.colSpan(), columns - starts[r][i]) : 1;
                    for (int dr = 0; dr < down; dr++) for (int dc = 0; dc < across; dc++) out.get(r + dr).set(starts[r][i] + dc, cell.text());
                }
            }
            return out;
        }

        /**
         * Whether most of the table's text is in a right-to-left script: its rows are then in reading order from the
         * right ({@link #mirrored}), and an output lays it out from the right.
         */
        @JsonIgnore
        public boolean rightToLeft() {
            int rtl = 0, all = 0;
            for (List<Cell> row : rows) {
                for (Cell c : row) {
                    all += c.text().length();
                    if (dev.docapi.text.LogicalOrder.hasRightToLeft(c.text())) rtl += c.text().length();
                }
            }
            return rtl * 2 > all;
        }

        /**
         * The table with its columns in the other order, each cell keeping its spans: a right-to-left table read in
         * its own order (its first column is the one on the right).
         */
        Table mirrored() {
            int[][] starts = starts();
            List<List<Cell>> out = new ArrayList<>();
            for (int r = 0; r < rows.size(); r++) {
                List<Integer> kept = new ArrayList<>();
                for (int i = 0; i < starts[r].length; i++) if (starts[r][i] >= 0) kept.add(i);
                int row = r;
                kept.sort(java.util.Comparator.comparingInt(i -> -starts[row][i] - rows.get(row).get(i).colSpan()));
                out.add(kept.stream().map(rows.get(r)::get).toList());
            }
            return new Table(columns, ruled, out);
        }

        /** The first grid column of each cell of each row, -1 for a cell past the last column (left out). */
        private int[][] starts() {
            boolean[][] taken = new boolean[rows.size()][columns];
            int[][] out = new int[rows.size()][];
            for (int r = 0; r < rows.size(); r++) {
                out[r] = new int[rows.get(r).size()];
                java.util.Arrays.fill(out[r], -1);
                int c = 0;
                for (int i = 0; i < rows.get(r).size(); i++) {
                    Cell cell = rows.get(r).get(i);
                    while (c < columns && taken[r][c]) c++;
                    if (c >= columns) break;
                    out[r][i] = c;
                    for (int dr = 0; dr < cell.rowSpan() && r + dr < rows.size(); dr++) {
                        for (int dc = 0; dc < cell.colSpan() && c + dc < columns; dc++) taken[r + dr][c + dc] = true;
                    }
                    c += cell.colSpan();
                }
            }
            return out;
        }
    }

    /**
     * One element.
     *
     * @param index    its place in the document's reading order, from 0, counted over all pages
     * @param type     what it is
     * @param level    a heading's level (1 = a top section; the title has none), a list item's nesting (1 = outermost);
     *                 else null
     * @param list     a list item's list, numbered from 1 in the document; else null
     * @param marker   a list item's bullet or number as printed ("•", "3."; a task list's item: "☐", or "☑" or "☒"
     *                 when checked, {@link #checked}); else null
     * @param text     its text in logical order, its lines separated by line breaks (a line-end hyphen before a
     *                 lower-case letter removed); a table's: its rows one a line, cells separated by tabs; a picture's: "";
     *                 a form field's: its value (☑ or ☐ for a checkbox or radio button), placed by its widget's box
     * @param page     its page, from 1
     * @param box      where it stands; a heading the outline names but no page prints (a workbook's sheet name,
     *                 {@code Structure}'s parts): the page's top-left corner, no width or height
     * @param fontSize the dominant font size of its characters in points (0 for a table or picture, and for a heading
     *                 no page prints)
     * @param bold     whether most of its characters are bold
     * @param table    a table's cells; else null
     * @param picture  a picture's number among the page's drawn images (from 1, in drawing order); else null
     * @param field    a form field's name; else null
     * @param links    the hyperlinks on its text, in the order of their text ({@link Link}); null when it has none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Element(int index, Type type, Integer level, Integer list, String marker, String text, int page, Box box,
                          @JsonProperty("font_size") float fontSize, boolean bold, Table table, Integer picture, String field,
                          List<Link> links) {
        /** This element with {@code links} (null or empty: none). */
        public Element withLinks(List<Link> links) {
            return new Element(index, type, level, list, marker, text, page, box, fontSize, bold, table, picture, field,
                    links == null || links.isEmpty() ? null : List.copyOf(links));
        }
    }

    /**
     * A hyperlink on part of an element's text: a link annotation of the page whose action opens {@code uri} (PDF 32000-1
     * §12.6.4.7, URI actions), over {@code text}. Only web and mail addresses are kept ({@link Links}).
     *
     * @param text the linked words as the element's text holds them (a table's: as one of its cells holds them); an
     *             element's links follow each other in its text, each at the first occurrence of its text after the
     *             previous link's
     * @param uri  an absolute {@code http}, {@code https}, {@code ftp} or {@code mailto} address
     */
    public record Link(String text, String uri) {
        /** A piece of a text: linked ({@code link} set) or not (null). */
        public record Piece(String text, Link link) {
        }

        /**
         * {@code text} cut into its linked and unlinked pieces, in order: each of {@code links} at the first occurrence
         * of its text (whitespace ignored, so a link that ran over a line break is found where the break became a
         * space) after the previous one found. A link whose text is not there is left out. Joined, the pieces' texts
         * are {@code text}.
         */
        public static List<Piece> pieces(String text, List<Link> links) {
            List<Piece> out = new ArrayList<>();
            int from = 0;
            if (links != null) {
                for (Link link : links) {
                    int[] at = find(text, link.text(), from);
                    if (at == null) continue;
                    if (at[0] > from) out.add(new Piece(text.substring(from, at[0]), null));
                    out.add(new Piece(text.substring(at[0], at[1]), link));
                    from = at[1];
                }
            }
            if (from < text.length() || out.isEmpty()) out.add(new Piece(text.substring(from), null));
            return out;
        }

        /**
         * {@code text} cut into pieces by the links of {@code links} it holds ({@link #pieces}), which are taken out
         * of {@code links}: the cells of a table share their table's links, each cell taking its own in reading order,
         * and a link not in this cell stays for the next.
         */
        public static List<Piece> take(String text, List<Link> links) {
            List<Piece> pieces = pieces(text, links);
            for (Piece p : pieces) if (p.link() != null) links.remove(p.link());
            return pieces;
        }

        /**
         * Where {@code words} first stands in {@code text} at or after {@code from}, whitespace ignored on both sides:
         * {start, end} in {@code text} (from a non-blank character to one), or null when it is not there or blank.
         */
        static int[] find(String text, String words, int from) {
            String wanted = words.replaceAll("\\s+", "");
            if (wanted.isEmpty()) return null;
            for (int start = from; start < text.length(); start++) {
                if (Character.isWhitespace(text.charAt(start)) || text.charAt(start) != wanted.charAt(0)) continue;
                int i = start, k = 0;
                while (i < text.length() && k < wanted.length()) {
                    char c = text.charAt(i);
                    if (Character.isWhitespace(c)) i++;
                    else if (c == wanted.charAt(k)) {
                        i++;
                        k++;
                    } else break;
                }
                if (k == wanted.length()) return new int[] {start, i};
            }
            return null;
        }
    }

    /**
     * A page's text in reading order: one element a paragraph (blank line between), list items one a line with their
     * marker, table rows one a line with tab-separated cells, a form field on its label's line after a space ("Name
     * Alice", "☑ Agree") and a paragraph's rest in the next column after a space ({@link #joint}); pictures left out, and running headers, footers and page numbers too when
     * {@code furniture} is false.
     */
    public String pageText(int page, boolean furniture) {
        return pageText(page, furniture, false);
    }

    /**
     * A page's text as {@link #pageText} with furniture, each element preceded by its id ({@link #id}) and a space, so
     * a model can cite the element a quote comes from: "[e12] Total: 1,240.00".
     */
    public String pageTextWithIds(int page) {
        return pageText(page, true, true);
    }

    /**
     * Numbers set in a circle or brackets as one sign, "①" to "⑳", "⑴" to "⒇", "❶" to "➓" (a Korean or Japanese list's
     * numbers), as a regular expression's character range.
     */
    static final String CIRCLED = "\u2460-\u2487\u2776-\u2793";
    private static final java.util.regex.Pattern CIRCLED_NUMBER = java.util.regex.Pattern.compile("[" + CIRCLED + "]");

    /** Whether a list item's marker is a number set in a circle or brackets as one sign ("②"), which stays before its text. */
    public static boolean circled(String marker) {
        return marker != null && CIRCLED_NUMBER.matcher(marker).matches();
    }

    /**
     * Whether a list item's marker is a checked box (☑ ☒: true) or an empty one (☐: false), as a task list's item;
     * null for any other marker or none.
     */
    public static Boolean checked(String marker) {
        if (marker == null) return null;
        return switch (marker) {
            case "☑", "☒" -> true;
            case "☐" -> false;
            default -> null;
        };
    }

    /** A character of a script written without spaces between words: Han, Hiragana, Katakana (not the half-width forms). */
    private static final String UNSPACED = "\\p{IsHan}\\u3040-\\u30FF\\u31F0-\\u31FF";
    /** CJK punctuation and full-width signs ("，", "。", "「", "（"). */
    private static final String CJK_SIGNS = "\\u3000-\\u303F\\uFF01-\\uFF60\\uFFE0-\\uFFE6";
    private static final java.util.regex.Pattern UNSPACED_BREAK = java.util.regex.Pattern.compile("(?<=[" + UNSPACED + "])[ \\t]*\\n[ \\t]*"
            + "|[ \\t]*\\n[ \\t]*(?=[" + UNSPACED + "])|(?<=[" + CJK_SIGNS + "])[ \\t]*\\n[ \\t]*(?=[" + CJK_SIGNS + "])");
    private static final java.util.regex.Pattern LINE_BREAK = java.util.regex.Pattern.compile("[ \\t]*\\n[ \\t]*");

    /**
     * An element's text as one flowing line, as Markdown, Word and chunks set it: each line break a space, but none
     * where a line of Chinese or Japanese wraps (their words are written without spaces: "…城市社区图书" over
     * "服务点…" is "图书服务点"): beside a Han or Kana character, or between two CJK signs. Korean is written with spaces
     * and keeps them ("위" over "「감염병예방법」").
     */
    public static String flowed(String text) {
        return LINE_BREAK.matcher(UNSPACED_BREAK.matcher(text).replaceAll("")).replaceAll(" ");
    }

    /** An element's id in the text given to models: its reading-order index, e.g. {@code [e12]}. */
    public static String id(Element e) {
        return "[e" + e.index() + "]";
    }

    private String pageText(int page, boolean furniture, boolean ids) {
        StringBuilder sb = new StringBuilder();
        Element previous = null;
        for (Element e : pages.get(page - 1).elements()) {
            if (e.type() == Type.PICTURE || (!furniture && e.type().furniture()) || e.text().isBlank()) continue;
            // a form field and its label on one row stay one line, as printed (so quotes copied from the page match)
            if (previous != null && joint(previous, e) != null) sb.append(' ');
            else if (previous != null) sb.append(previous.type() == Type.LIST_ITEM && e.type() == Type.LIST_ITEM ? "\n" : "\n\n");
            if (ids) sb.append(id(e)).append(' ');
            if (e.type() == Type.LIST_ITEM && e.marker() != null) sb.append(e.marker()).append(' ');
            sb.append(e.text());
            previous = e;
        }
        return sb.toString();
    }

    /**
     * How {@code next} goes on from {@code previous} in one paragraph, or null when it starts a block of its own: a form
     * field and its label on one row ({@link #rowJoint}), or the rest of a paragraph cut by a column or page break
     * ({@link #cut}), after a space.
     */
    public static String joint(Element previous, Element next) {
        String row = rowJoint(previous, next);
        return row != null ? row : cut(previous, next) ? " " : null;
    }

    /**
     * Whether paragraph {@code next} is the rest of {@code previous} (a paragraph or list item), cut from it by a column
     * or page break: both set alike (size within half a point, weight); {@code next} on a later page, or starting
     * higher on the page (so in the next column); no sentence terminal (Unicode's Sentence_Terminal: . ! ? 。 ؟ …) ends
     * {@code previous}, closing brackets and quotes aside; and {@code next}'s first letter is lower-case, or of a script
     * without case after a letter that ends a {@code previous} of two lines or more (a diagram's one-line labels stand
     * apart). A sentence cut where it ends reads as two paragraphs: nothing on the page tells them
     * apart.
     */
    public static boolean cut(Element previous, Element next) {
        if (previous.type() != Type.PARAGRAPH && previous.type() != Type.LIST_ITEM || next.type() != Type.PARAGRAPH
                || previous.bold() != next.bold() || Math.abs(previous.fontSize() - next.fontSize()) > 0.5f) return false;
        if (next.page() == previous.page() ? next.box().y() >= previous.box().y() : next.page() < previous.page()) return false;
        int letter = next.text().codePoints().filter(Character::isLetter).findFirst().orElse(-1);
        if (letter < 0 || Character.isUpperCase(letter) || Character.isTitleCase(letter)) return false;
        String text = previous.text().strip();
        int end = text.length();
        while (end > 0 && closing(text.codePointBefore(end))) end -= Character.charCount(text.codePointBefore(end));
        if (end == 0 || com.ibm.icu.lang.UCharacter.hasBinaryProperty(text.codePointBefore(end), com.ibm.icu.lang.UProperty.S_TERM)) return false;
        return Character.isLowerCase(letter) || Character.isLetter(text.codePointBefore(end)) && text.indexOf('\n') >= 0;
    }

    private static boolean closing(int c) {
        int type = com.ibm.icu.lang.UCharacter.getType(c);
        return type == com.ibm.icu.lang.UCharacterCategory.END_PUNCTUATION || type == com.ibm.icu.lang.UCharacterCategory.FINAL_PUNCTUATION
                || c == '"' || c == '\'';
    }

    /**
     * How a form field and its label that share a row read as one line: "Name" then its value → ": " ("Name: Alice";
     * " " after a label ending in ':'), a checkbox or radio button then the label right of it → " " ("☑ Agree"); null
     * when {@code next} does not continue {@code previous}'s row so (other types, another page, a label of more than
     * one line, not side by side).
     */
    public static String rowJoint(Element previous, Element next) {
        boolean labelThenValue = previous.type() == Type.PARAGRAPH && next.type() == Type.FORM_FIELD && !box(next);
        boolean boxThenLabel = previous.type() == Type.FORM_FIELD && next.type() == Type.PARAGRAPH && box(previous);
        if (!labelThenValue && !boxThenLabel) return null;
        Element label = labelThenValue ? previous : next;
        if (previous.page() != next.page() || label.text().contains("\n") || label.text().length() > 80) return null;
        Box a = previous.box(), b = next.box();
        float overlap = Math.min(a.bottom(), b.bottom()) - Math.max(a.y(), b.y());
        if (overlap < 0.5f * Math.min(a.height(), b.height()) || b.x() < a.right() - 1) return null;
        return labelThenValue && !label.text().strip().endsWith(":") ? ": " : " ";
    }

    /** Whether {@code e} is a checkbox or radio button (its text ☑ or ☐). */
    private static boolean box(Element e) {
        return e.type() == Type.FORM_FIELD && (e.text().equals("☑") || e.text().equals("☐"));
    }

    /** Each page's text ({@link #pageText}, furniture kept), index 0 = page 1. */
    @JsonIgnore
    public List<String> pageTexts() {
        List<String> out = new ArrayList<>();
        for (Page p : pages) out.add(pageText(p.number(), true));
        return out;
    }
}
