package dev.docapi.document;

import dev.docapi.document.DocumentModel.Box;
import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Type;
import dev.docapi.text.LogicalOrder;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * From items in reading order ({@link Layout}) to the model's elements (issue 36): lines joined into paragraphs, and
 * each paragraph typed from the document's own statistics. The body size and weight are those of most of the
 * document's characters; a heading is set clearly larger, or bold where the body is not (and not a lead-in ending in
 * a colon), or numbered as a section
 * ("2.3 Results") in a heading style, or named by the file itself ({@link NamedHeadings}: its structure tree's heading
 * tags, its outline); its level comes from the file, its numbering, or the rank of its style. A number alone (a page or
 * chapter number set large) is never a heading. A line that starts with a bullet or a list number is a list item, never a heading. Running
 * headers, footers and page numbers are the blocks at the top or bottom of the page whose text (digits aside) recurs
 * on other pages, or a lone page number there.
 */
final class Structure {
    /**
     * Bullet characters: typographic ones; the private-use code points of the Symbol and Wingdings bullets and boxes
     * that Word embeds (U+F0B7 •, U+F0A7 ▪, U+F0D8 ➢, U+F076 ❖, U+F0FC ✓, U+F06E ■, U+F0A8 □, U+F06C ●, U+F06F □, U+F071
     * ❑, U+F0FE ☑, U+F0FD ☒; not the whole private-use area, where icon fonts put a phone or a mail icon); and ballot
     * boxes (☐ ☑ ☒: a task list's items, {@link DocumentModel#checked}). A glyph that maps to no character leading a
     * line comes as "•" ({@link PageReader}).
     */
    /** Bullets that symbol fonts (Symbol, Wingdings) draw, as their private-use code points. */
    private static final String SYMBOL_BULLETS = "\\uF0B7\\uF0A7\\uF0D8\\uF076\\uF0FC\\uF06E\\uF0A8\\uF06C\\uF06F\\uF071\\uF0FE\\uF0FD";
    /**
     * What those bullets show, as Unicode's mapping tables for Symbol and Wingdings give them: Symbol's • and Wingdings'
     * ▪ ➢ ❖ ✔ ■ ◻ ● □ ❑ ☑ ☒.
     */
    private static final Map<Character, String> SYMBOL_GLYPHS = Map.ofEntries(Map.entry('\uF0B7', "•"), Map.entry('\uF0A7', "▪"),
            Map.entry('\uF0D8', "➢"), Map.entry('\uF076', "❖"), Map.entry('\uF0FC', "✔"), Map.entry('\uF06E', "■"), Map.entry('\uF0A8', "◻"),
            Map.entry('\uF06C', "●"), Map.entry('\uF06F', "□"), Map.entry('\uF071', "❑"), Map.entry('\uF0FE', "☑"), Map.entry('\uF0FD', "☒"));

    /** {@code text} with a symbol font's private-use bullets written as the characters they show. */
    static String symbols(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            sb.append(SYMBOL_GLYPHS.getOrDefault(c, String.valueOf(c)));
        }
        return sb.toString();
    }
    private static final String BULLETS = "•◦▪‣●○■□◆◇❖➢➤►▶▷▸✓✔☐☑☒–—*＊·・ㅇ❍◎█" + SYMBOL_BULLETS + DocumentModel.CIRCLED + "\\-";
    /** Korean's letters that number a list or a section as a, b, c do ("가.", "나)", "(다)"), in their order. */
    static final String HANGUL_ORDINALS = "가나다라마바사아자차카타파하";
    /**
     * A multi-level list number: "1.1." or "2.3.8.1." as Word sets it apart by a tab (with its final dot), or "1.1:" as a
     * report numbers its objectives.
     */
    private static final String MULTI_LEVEL = "\\d{1,3}(?:\\.\\d{1,3})+[.:]";
    /** A bullet or a list number alone (the marker, with its text after a gap): a lower-case roman number too ("ii.", "(iv)"). */
    static final Pattern MARKER_ONLY = Pattern.compile("[" + BULLETS + "]|" + MULTI_LEVEL + "|\\(?\\d{1,3}[.)]|\\(?[a-z" + HANGUL_ORDINALS + "][.)]|\\(?[ivx]{2,4}[.)]|\\([ivx]{1,4}\\)");
    /** A list item's start: its marker, then white space; group 1 the marker. */
    static final Pattern ITEM = Pattern.compile("^([" + BULLETS + "]|" + MULTI_LEVEL + "|\\d{1,3}[.)]|\\(\\d{1,3}\\)|[a-z" + HANGUL_ORDINALS + "][.)]|[ivx]{2,4}[.)]|\\([a-z" + HANGUL_ORDINALS + "]\\)|\\([ivx]{1,4}\\))\\s+(?=\\S)");
    /** What OCR makes of bullets it cannot read ("e", "©", "«", "."), followed by a capital: list items on OCR'd pages only. */
    private static final Pattern OCR_ITEM = Pattern.compile("^([eo©®«»¢°>.])\\s+(?=\\p{Lu})");
    /** A sentence's end after a word (three lower-case letters or more) and the next sentence's start: a text of two sentences. */
    private static final Pattern SENTENCES = Pattern.compile("\\p{Ll}{3}[.!?] +[\"“‘]?\\p{Lu}");
    /** A numbered section heading: "3", "3.2", "A.1", "가." then its title; group 1 the number. */
    private static final Pattern SECTION = Pattern.compile("(?s)^((?:\\d{1,2}|[A-Z" + HANGUL_ORDINALS + "])(?:\\.\\d{1,2}){0,4})[.:]?\\s+\\p{L}.*");
    /**
     * A caption: "Figure 3", "Table II", "Abb. 2"; in Korean, Chinese and Japanese "표 1", "그림 2", "表1", "图 3", "図4",
     * also bracketed as they are set there ("[표 1]", "<그림 2>", "【表1】").
     */
    /**
     * A caption: a label and number ("Table 3-1", "Fig. 2b", "Table IV", "[표 1]") that no lower-case word follows
     * ("Table 3-1 summarizes ..." is a sentence about the table; "Table view" no number).
     */
    private static final Pattern CAPTION = Pattern.compile("(?s)^(?:(?:Figure|Fig\\.|Table|Tab\\.|Chart|Exhibit|Abbildung|Abb\\.|Tabelle|Listing)\\s*(?-i:[\\dIVX]++(?:[.\\-–][\\dIVX]++)*+[a-z]?+(?!\\p{L})(?!\\s+\\p{Ll}{2}))"
            + "|[\\[<〈《【(（]?\\s*(?:표|그림|도표|表|图|圖|図)\\s*[\\d一二三四五六七八九十]+).*", Pattern.CASE_INSENSITIVE);
    /** A note's mark: one to three figures or note signs. */
    private static final Pattern NOTE_MARK = Pattern.compile("[\\d*†‡§¶∗]{1,3}");
    /** A note: its mark, then its text; a number with a part after a point ("4.1: Secure ...", "2.5 million") is no mark. */
    private static final Pattern FOOTNOTE = Pattern.compile("(?s)^[\\d*†‡§¶∗]{1,3}+(?![.,:]\\d)\\s*\\S.*");
    /** A note's number as footnotes set it, closed by a parenthesis: "1)", "(12)". */
    private static final Pattern FOOTNOTE_NUMBER = Pattern.compile("\\(?\\d{1,3}\\)");
    /**
     * A character that code has and prose seldom does, or a command line's option ("--ssid", "-v"; typed prose's dash
     * "--" stands between spaces): a block in a typewriter face without one is prose.
     */
    private static final Pattern CODE_SIGNS = Pattern.compile("[{}\\[\\]()<>=;_/\\\\#*$@|&^~`]|(?<!\\S)--?[A-Za-z]");
    /** A table of contents' entry: its title, a leader of dots, its page number (arabic or roman). */
    private static final Pattern CONTENTS_ENTRY = Pattern.compile("(.*?\\S)\\s*(?:[.·…]\\s*){3,}(\\d{1,4}|[ivxlcdm]{1,7}|[IVXLCDM]{1,7})");
    /** A section number alone ("5.1"), as layout may set it apart from its title. */
    private static final Pattern SECTION_NUMBER = Pattern.compile("\\d{1,2}(?:\\.\\d{1,2}){0,4}\\.?");
    /** A roman page number, as front matter is numbered. */
    /** A word of four letters or more. */
    private static final Pattern WORD = Pattern.compile("\\p{L}{4}");
    private static final Pattern ROMAN = Pattern.compile("[ivxlc]{1,7}");
    /** A copyright line: a page's footer even on a page of its own. */
    private static final Pattern COPYRIGHT = Pattern.compile("^(©|\\(c\\)\\s|copyright\\b)", Pattern.CASE_INSENSITIVE);
    /** A person's name as written on a cover: a capital, then letters (an apostrophe or hyphen inside), or an initial. */
    private static final Pattern NAME = Pattern.compile("\\p{Lu}(?:[\\p{L}'’-]*\\p{Ll}|\\.)");
    /** A number alone: arabic or roman, as page and chapter numbers are set. */
    /** A web or mail address alone ("ibm.com/redbooks", "www.example.org", "info@example.com"): never a heading. */
    private static final Pattern ADDRESS = Pattern.compile("(?i)(?:https?://|www\\.)\\S+|[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|[\\w-]+(?:\\.[\\w-]+)*\\.(?:com|org|net|edu|gov|int|io)(?:/\\S*)?");
    /** A mail address anywhere in a text. */
    private static final Pattern MAIL = Pattern.compile("[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+");
    /** A web address in brackets: "X Desktop Group (http://www.freedesktop.org)". */
    private static final Pattern BRACKETED_URL = Pattern.compile("\\((?:https?://|www\\.)\\S+\\)");
    private static final Pattern LONE_NUMBER = Pattern.compile("(?i)\\d{1,4}\\.?|[ivxlc]{1,7}\\.?");
    private static final Pattern PAGE_NUMBER = Pattern.compile("^(page|seite|p\\.|s\\.|pg\\.)?\\s*[-–]?\\s*#\\s*[-–]?(\\s*(of|/|von|de)\\s*#)?$");
    /** Letters one per line, this many in a run, are a word set vertically ({@link #stackedLetters}). */
    private static final int STACK = 3;
    /** Type this large (points) is display type: a title's or a cover's. */
    private static final float DISPLAY = 20;
    /** Top and bottom share of the page where running headers and footers stand. */
    private static final float MARGIN = 0.15f;
    /** A lone number stands this far into the page and is still its page number (LaTeX's foot on A4: 85 % down). */
    private static final float NUMBER_MARGIN = 0.2f;

    /** A visual line: its segments in order. */
    record Line(List<PageReader.Segment> segments) {
        /** The segments' texts, a space between two unless they touch (a word PDFBox cut in two). */
        String text() {
            StringBuilder sb = new StringBuilder();
            PageReader.Segment previous = null;
            for (PageReader.Segment s : segments) {
                if (previous != null) {
                    boolean touching = Math.abs(s.x() - previous.right()) < 0.15f * Math.max(1, s.size()) && !LogicalOrder.hasRightToLeft(s.text());
                    if (!touching) sb.append(' ');
                }
                sb.append(s.text());
                previous = s;
            }
            return sb.toString();
        }

        float x() {
            return (float) segments.stream().mapToDouble(PageReader.Segment::x).min().orElse(0);
        }

        float right() {
            return (float) segments.stream().mapToDouble(PageReader.Segment::right).max().orElse(0);
        }

        float top() {
            return (float) segments.stream().mapToDouble(PageReader.Segment::top).min().orElse(0);
        }

        float bottom() {
            return (float) segments.stream().mapToDouble(PageReader.Segment::bottom).max().orElse(0);
        }

        Box box() {
            return new Box(x(), top(), right() - x(), bottom() - top());
        }

        float size() {
            return segments.stream().max(java.util.Comparator.comparingInt(PageReader.Segment::chars)).map(PageReader.Segment::size).orElse(0f);
        }

        boolean bold() {
            return most(List.of(this), PageReader.Segment::bold);
        }

        boolean italic() {
            return most(List.of(this), PageReader.Segment::italic);
        }

        /**
         * Whether it starts with a note's mark set raised in smaller type ("¹ 2020 estimate"), read with the words after
         * it ({@link PageReader#raisedMark}) or apart from them.
         */
        boolean raisedMark() {
            PageReader.Segment first = segments.getFirst();
            if (first.raisedMark()) return true;
            if (segments.size() < 2 || !NOTE_MARK.matcher(first.text()).matches()) return false;
            PageReader.Segment second = segments.get(1);
            return first.size() <= 0.8f * second.size() && first.bottom() < second.bottom() - 0.15f * second.size();
        }

        boolean mono() {
            return most(List.of(this), PageReader.Segment::mono);
        }
    }

    /** How many letters a text has. */
    static int letters(String text) {
        return (int) text.codePoints().filter(Character::isLetter).count();
    }

    /** Whether most of the lines' characters have the segment property. */
    private static boolean most(List<Line> lines, java.util.function.Predicate<PageReader.Segment> property) {
        int with = 0, all = 0;
        for (Line l : lines) for (PageReader.Segment s : l.segments()) {
            all += s.chars();
            if (property.test(s)) with += s.chars();
        }
        return all > 0 && with * 2 > all;
    }

    /** A block being typed: its lines (or an atom: table, picture, form value), page and flow. */
    private static final class Block {
        final List<Line> lines = new ArrayList<>();
        final Layout.Item atom;
        final int page;
        Type type = Type.PARAGRAPH;
        Integer level;
        String marker;
        String text;
        /** Typed a heading by the file's own tags or outline, not by its style. */
        boolean named;
        /** Where a part the outline names but the page does not print begins ({@link #parts}); else null. */
        Box at;

        Block(int page, Layout.Item atom) {
            this.page = page;
            this.atom = atom;
        }

        Box box() {
            if (atom != null) return atom.box();
            if (at != null) return at;
            Box b = null;
            for (Line l : lines) {
                Box lb = new Box(l.x(), l.top(), l.right() - l.x(), l.bottom() - l.top());
                b = b == null ? lb : b.union(lb);
            }
            return b;
        }

        float size() {
            Map<Float, Integer> sizes = new HashMap<>();
            for (Line l : lines) for (PageReader.Segment s : l.segments()) sizes.merge(s.size(), s.chars(), Integer::sum);
            return sizes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(0f);
        }

        boolean bold() {
            return most(lines, PageReader.Segment::bold);
        }

        boolean italic() {
            return most(lines, PageReader.Segment::italic);
        }

        boolean mono() {
            return most(lines, PageReader.Segment::mono);
        }

        /**
         * Whether at least 80 % of its letters are bold: a heading is set bold throughout (but for a number or a symbol
         * in another face), where a sentence with its terms in bold ("U heißt <b>Inneres</b> oder <b>offener Kern</b>")
         * has its other words in the body's weight.
         */
        boolean boldThroughout() {
            int all = 0, plain = 0;
            for (Line l : lines) for (PageReader.Segment s : l.segments()) {
                all += letters(s.text());
                plain += s.plainLetters();
            }
            return all > 0 && plain <= 0.2f * all;
        }

        int chars() {
            return text.length();
        }
    }

    /**
     * A page laid out: its items in order, size as seen, whether its text came from OCR, and its drawings (the boxes of
     * figures drawn in vector paths, {@link Pictures.Found}).
     */
    record LaidOut(int number, float width, float height, boolean ocr, List<Layout.Placed> placed, List<Box> drawings) {
    }

    private Structure() {
    }

    /**
     * The body size, boldness, slant and pitch: those of most of the document's characters (text-layer pages first). The text of
     * ruled tables counts too when it outweighs the rest: in a document that is mostly tables, the text outside them
     * is mostly headings, whose size is not the body's.
     */
    record Body(float size, boolean bold, boolean italic, boolean mono) {
        static Body of(List<PageReader.PageText> pages, Set<Integer> ocrPages, Map<Float, Integer> tableSizes) {
            Map<Float, Integer> sizes = new HashMap<>();
            Map<Float, Integer> boldChars = new HashMap<>(), italicChars = new HashMap<>(), monoChars = new HashMap<>();
            boolean anyBorn = pages.stream().anyMatch(p -> !ocrPages.contains(p.number()) && !p.segments().isEmpty());
            for (PageReader.PageText p : pages) {
                if (anyBorn && ocrPages.contains(p.number())) continue;
                for (PageReader.Segment s : p.segments()) {
                    sizes.merge(s.size(), s.chars(), Integer::sum);
                    if (s.bold()) boldChars.merge(s.size(), s.chars(), Integer::sum);
                    if (s.italic()) italicChars.merge(s.size(), s.chars(), Integer::sum);
                    if (s.mono()) monoChars.merge(s.size(), s.chars(), Integer::sum);
                }
            }
            int inTables = tableSizes.values().stream().mapToInt(Integer::intValue).sum();
            if (inTables > sizes.values().stream().mapToInt(Integer::intValue).sum()) tableSizes.forEach((k, v) -> sizes.merge(k, v, Integer::sum));
            float size = sizes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(10f);
            int all = sizes.getOrDefault(size, 0);
            return new Body(size, boldChars.getOrDefault(size, 0) * 2 > all && all > 0, italicChars.getOrDefault(size, 0) * 2 > all && all > 0,
                    monoChars.getOrDefault(size, 0) * 2 > all && all > 0);
        }
    }

    /** The elements of every page, numbered in reading order across the document. */
    static List<DocumentModel.Page> elements(List<LaidOut> pages, Body body, NamedHeadings named) {
        List<List<Block>> blocks = new ArrayList<>();
        for (LaidOut p : pages) blocks.add(contents(blocks(p, named)));
        furniture(pages, blocks, body);
        continuedColumns(blocks);
        for (int i = 0; i < pages.size(); i++) for (Block b : blocks.get(i)) typeBlock(b, blocks.get(i), pages.get(i), body, named);
        for (List<Block> page : blocks) listings(page, body);
        numberedHeadings(blocks, body);
        italicHeadings(blocks, body);
        leadIns(blocks);
        for (List<Block> page : blocks) sideBySide(page);
        addresses(blocks);
        for (List<Block> page : blocks) headingRuns(page);
        headingsOverNothing(blocks);
        for (List<Block> page : blocks) kickers(page);
        levels(blocks);
        title(pages, blocks, body);
        parts(blocks, named);
        List<DocumentModel.Page> out = new ArrayList<>();
        int index = 0, lists = 0;
        Block previousItem = null;
        // the left edges of the current list's open levels, innermost last: an item further right opens a level, one
        // back at an open level's edge closes the levels inside it (the step between levels is whatever the list uses)
        List<Float> indents = new ArrayList<>();
        float step = Math.max(3f, 0.5f * body.size());
        for (int i = 0; i < pages.size(); i++) {
            LaidOut p = pages.get(i);
            List<Element> elements = new ArrayList<>();
            for (Block b : blocks.get(i)) {
                Integer list = null, level = b.level;
                if (b.type == Type.LIST_ITEM) {
                    Box box = b.box();
                    // an item above the previous one on its page stands in the next column: a list of its own there
                    if (previousItem == null || (previousItem.page == b.page && box.y() < previousItem.box().y())) {
                        lists++;
                        indents.clear();
                    }
                    list = lists;
                    // an item whose text runs right to left (its first strong letter, Unicode's bidi rule P2) is indented from the right
                    float x = new java.text.Bidi(b.text, java.text.Bidi.DIRECTION_DEFAULT_LEFT_TO_RIGHT).baseIsLeftToRight() ? box.x() : -box.right();
                    while (!indents.isEmpty() && x < indents.getLast() - step) indents.removeLast();
                    if (indents.isEmpty() || x > indents.getLast() + step) indents.add(x);
                    level = indents.size();
                    previousItem = b;
                } else if (!b.type.furniture()) {
                    previousItem = null;
                }
                elements.add(element(index++, b, level, list));
            }
            out.add(new DocumentModel.Page(p.number(), p.width(), p.height(), p.ocr(), elements));
        }
        return out;
    }

    /**
     * Joins a table whose columns go on over the next page to the columns there: a sheet wider than the paper is
     * printed a band of columns a page, its rows at the same heights on each. The table ending page N and the one
     * starting page N + 1 are one when they have as many rows, stand at the same height (within 2 pt, top and
     * bottom) and start with different rows (a table repeated a page, as an invoice's, starts each page alike). A
     * merged cell across both bands (a title over the whole sheet) is drawn on both pages: its copy above the second
     * band (text within a page N block's at its height) goes with it. The joined table keeps page N and its box; a
     * third band on page N + 2 joins it too when page N + 1 held nothing else.
     */
    private static void continuedColumns(List<List<Block>> blocks) {
        Block carried = null; // a joined table whose next page held nothing else: a third band may follow
        List<Block> carriedPage = null;
        for (int i = 0; i + 1 < blocks.size(); i++) {
            List<Block> page = blocks.get(i), next = blocks.get(i + 1);
            Block last = null;
            for (Block b : page) if (!b.type.furniture()) last = b;
            if (last == null && carried != null) {
                last = carried;
                page = carriedPage;
            }
            carried = null;
            DocumentModel.Table left = last == null ? null : table(last);
            if (left == null) continue;
            Block end = last;
            List<Block> owner = page, copies = new ArrayList<>();
            Block first = null;
            for (Block b : next) {
                if (b.type.furniture()) continue;
                String text = b.atom == null && b.text != null ? key(b.text) : "";
                if (!text.isEmpty() && owner.stream().anyMatch(o -> o.atom == null && o != end && o.text != null
                        && Math.abs(o.box().y() - b.box().y()) <= 2 && key(o.text).contains(text))) {
                    copies.add(b);
                    continue;
                }
                first = b;
                break;
            }
            DocumentModel.Table right = first == null ? null : table(first);
            if (right == null || right.rows().size() != left.rows().size() || left.rows().size() < 2 || left.rightToLeft() || right.rightToLeft()) continue;
            Box a = last.box(), b = first.box();
            if (Math.abs(a.y() - b.y()) > 2 || Math.abs(a.bottom() - b.bottom()) > 2 || left.grid().getFirst().equals(right.grid().getFirst())) continue;
            List<List<DocumentModel.Cell>> rows = new ArrayList<>();
            for (int r = 0; r < left.rows().size(); r++) {
                List<DocumentModel.Cell> row = new ArrayList<>(left.rows().get(r));
                row.addAll(right.rows().get(r));
                rows.add(row);
            }
            DocumentModel.Table joined = new DocumentModel.Table(left.columns() + right.columns(), left.ruled() && right.ruled(), rows);
            Object atom = last.atom.atom() instanceof TextTables.Found f ? new TextTables.Found(f.box(), joined, f.size(), f.end()) : joined;
            Block merged = new Block(last.page, new Layout.Item(a, null, atom));
            owner.set(owner.indexOf(last), merged);
            next.remove(first);
            next.removeAll(copies);
            if (next.stream().allMatch(o -> o.type.furniture())) {
                carried = merged;
                carriedPage = owner;
            }
        }
    }

    /** The table a block is, or null. */
    private static DocumentModel.Table table(Block b) {
        if (b.atom == null) return null;
        if (b.atom.atom() instanceof TextTables.Found t) return t.table();
        return b.atom.atom() instanceof DocumentModel.Table t ? t : null;
    }

    private static Element element(int index, Block b, Integer level, Integer list) {
        Box box = b.box();
        if (b.atom != null && b.atom.atom() instanceof TextTables.Found t) {
            return new Element(index, Type.TABLE, null, null, null, tableText(t.table().grid()), b.page, box, t.size(), false, t.table(), null, null, null);
        }
        if (b.atom != null && b.atom.atom() instanceof DocumentModel.Table t) {
            return new Element(index, Type.TABLE, null, null, null, tableText(t.grid()), b.page, box, 0, false, t, null, null, null);
        }
        if (b.atom != null && b.atom.atom() instanceof FormValues.Value v) {
            return new Element(index, Type.FORM_FIELD, null, null, null, v.text(), b.page, box, 0, false, null, null, v.field(), null);
        }
        if (b.atom != null && b.atom.atom() instanceof Integer picture) {
            return new Element(index, Type.PICTURE, null, null, null, "", b.page, box, 0, false, null, picture, null, null);
        }
        return new Element(index, b.type, level, list, b.marker, b.text, b.page, box, b.size(), b.bold(), null, null, null, null);
    }

    private static String tableText(List<List<String>> rows) {
        return String.join("\n", rows.stream().map(r -> String.join("\t", r.stream().map(c -> c.replaceAll("\\s+", " ").strip()).toList())).toList());
    }

    /** The page's lines joined into blocks, within each flow. */
    private static List<Block> blocks(LaidOut page, NamedHeadings named) {
        List<Block> blocks = new ArrayList<>();
        Block current = null;
        int currentFlow = -1;
        Line line = null;
        List<Line> lines = new ArrayList<>();
        List<Integer> flows = new ArrayList<>();
        List<Layout.Item> atoms = new ArrayList<>();
        // first the visual lines: consecutive segments of one flow that overlap vertically
        for (Layout.Placed placed : page.placed()) {
            Layout.Item it = placed.item();
            if (it.segment() == null) {
                lines.add(null);
                flows.add(placed.flow());
                atoms.add(it);
                line = null;
                continue;
            }
            PageReader.Segment s = it.segment();
            if (line != null && flows.getLast() == placed.flow() && overlaps(line, s)) {
                // a superscript read as a line of its own goes where it stands along the line
                int at = 0;
                boolean rtl = LogicalOrder.hasRightToLeft(s.text());
                while (at < line.segments().size() && (rtl ? line.segments().get(at).x() > s.x() : line.segments().get(at).x() < s.x())) at++;
                line.segments().add(at, s);
                continue;
            }
            line = new Line(new ArrayList<>(List.of(s)));
            lines.add(line);
            flows.add(placed.flow());
            atoms.add(null);
        }
        Spacing leading = Spacing.of(lines, flows);
        // pictures set beside a paragraph that goes on after them (a picture the text wraps around): they follow it
        List<Block> beside = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            if (l == null) {
                Block atom = new Block(page.number(), atoms.get(i));
                int next = i + 1;
                while (next < lines.size() && lines.get(next) == null && atoms.get(next).atom() instanceof Integer) next++;
                if (current != null && atoms.get(i).atom() instanceof Integer && next < lines.size() && lines.get(next) != null
                        && !startsBlock(current, currentFlow, lines.get(next), flows.get(next), page, named, leading)) {
                    beside.add(atom);
                    continue;
                }
                blocks.addAll(beside);
                beside.clear();
                blocks.add(atom);
                current = null;
                continue;
            }
            if (startsBlock(current, currentFlow, l, flows.get(i), page, named, leading)) {
                blocks.addAll(beside);
                beside.clear();
                current = new Block(page.number(), null);
                blocks.add(current);
                currentFlow = flows.get(i);
            }
            current.lines.add(l);
        }
        blocks.addAll(beside);
        for (Block b : blocks) if (b.atom == null) b.text = join(b.lines);
        rejoinNumbers(blocks);
        blocks.removeIf(b -> b.atom == null && b.text.isBlank()); // glyphs without text (a symbol font's box)
        return blocks;
    }

    /**
     * A table of contents is a table of two columns, each entry's title (its leader of dots left out) and its page number
     * (as Docling reads one): blocks one after another, at least half of whose lines end in a leader and a number, three
     * entries or more (a title wrapped over two lines, its second with the leader, is one entry; a chapter's number set
     * apart on its title's line goes before it). Returns {@code blocks}, the entries' blocks replaced by their table.
     */
    private static List<Block> contents(List<Block> blocks) {
        for (int i = 0; i < blocks.size(); i++) {
            int end = i;
            while (end < blocks.size() && entries(blocks.get(end))) end++;
            List<Line> lines = new ArrayList<>();
            for (Block b : blocks.subList(i, end)) lines.addAll(b.lines);
            if (lines.stream().filter(l -> CONTENTS_ENTRY.matcher(l.text().strip()).matches()).count() < 3) continue;
            // a chapter's number that layout set apart in a column of its own goes back before its title
            Map<Line, Line> numbers = new java.util.IdentityHashMap<>(); // an entry's line → its number's
            List<Block> numbered = new ArrayList<>();
            for (Block n : blocks) {
                if (n.atom != null || !n.lines.stream().allMatch(nl -> SECTION_NUMBER.matcher(nl.text().strip()).matches())) continue;
                for (Line nl : n.lines) {
                    for (Line l : lines) {
                        float gap = l.x() - nl.right();
                        if (gap >= 0 && gap <= 4 * Math.max(nl.size(), 1) && overlaps(nl, l.segments().getFirst()) && !numbers.containsKey(l)) {
                            numbers.put(l, nl);
                            if (!numbered.contains(n)) numbered.add(n);
                            break;
                        }
                    }
                }
            }
            List<List<DocumentModel.Cell>> rows = new ArrayList<>();
            StringBuilder title = new StringBuilder();
            Box box = null;
            for (Line l : lines) {
                box = box == null ? l.box() : box.union(l.box());
                Matcher m = CONTENTS_ENTRY.matcher(l.text().strip());
                if (!title.isEmpty()) title.append(' ');
                Line number = numbers.get(l);
                if (number != null) {
                    title.append(number.text().strip()).append(' ');
                    box = box.union(number.box());
                }
                if (!m.matches()) {
                    title.append(l.text().strip());
                    continue;
                }
                title.append(m.group(1));
                rows.add(List.of(new DocumentModel.Cell(title.toString().replaceAll("\\s+", " "), 1, 1), new DocumentModel.Cell(m.group(2), 1, 1)));
                title.setLength(0);
            }
            // a title whose leader and number the page does not show stays, without a number
            if (!title.isEmpty()) rows.add(List.of(new DocumentModel.Cell(title.toString().replaceAll("\\s+", " "), 1, 1), new DocumentModel.Cell("", 1, 1)));
            Block table = new Block(blocks.get(i).page, new Layout.Item(box, null, new DocumentModel.Table(2, false, rows)));
            blocks.subList(i, end).clear();
            blocks.add(i, table);
            for (Block n : numbered) {
                n.lines.removeIf(nl -> numbers.containsValue(nl));
                if (!n.lines.isEmpty()) {
                    n.text = join(n.lines);
                    continue;
                }
                int at = blocks.indexOf(n);
                blocks.remove(at);
                if (at < i) i--;
            }
        }
        return blocks;
    }

    /** Whether a block is entries of a table of contents: at least half its lines, one at least. */
    private static boolean entries(Block b) {
        if (b.atom != null) return false;
        long entries = b.lines.stream().filter(l -> CONTENTS_ENTRY.matcher(l.text().strip()).matches()).count();
        return entries > 0 && entries * 2 >= b.lines.size();
    }

    /**
     * How a page spaces its lines: for each type size (to half a point), the gap between the lines of a paragraph in
     * ems ({@code leading}: the gap under a wrapped line, one that ends no sentence and is at least 60 % of its flow's
     * widest line, above the next line of its flow and size: the gap most of them share), each flow's widest line
     * (points), and each line's {@code measure}: the right end of the lines of its flow and size that start where it
     * does, up to {@link #NEIGHBOURS} lines before and after it (points). Lines set wide apart (a report's 1.7 line
     * spacing) have wide gaps inside their paragraphs.
     */
    private record Spacing(Map<Float, Float> leading, Map<Integer, Float> widest, Map<Line, Float> measure) {
        private static final int NEIGHBOURS = 6;

        static Spacing of(List<Line> lines, List<Integer> flows) {
            Map<Integer, Float> widest = new HashMap<>();
            Map<Line, Float> measure = new IdentityHashMap<>();
            for (int i = 0; i < lines.size(); i++) {
                Line l = lines.get(i);
                if (l == null) continue;
                widest.merge(flows.get(i), l.right() - l.x(), Math::max);
                float right = l.right();
                for (int j = Math.max(0, i - NEIGHBOURS); j < Math.min(lines.size(), i + NEIGHBOURS + 1); j++) {
                    Line o = lines.get(j);
                    if (o != null && flows.get(j).equals(flows.get(i)) && sameSize(o.size(), l.size()) && Math.abs(o.x() - l.x()) < 0.5f * l.size()) {
                        right = Math.max(right, o.right());
                    }
                }
                measure.put(l, right);
            }
            Spacing s = new Spacing(new HashMap<>(), widest, measure);
            Map<Float, List<Float>> gaps = new HashMap<>();
            for (int i = 0; i + 1 < lines.size(); i++) {
                Line l = lines.get(i), next = lines.get(i + 1);
                if (l == null || next == null || !flows.get(i).equals(flows.get(i + 1)) || !sameSize(l.size(), next.size())) continue;
                if (endsSentence(l.text()) || !s.wrapped(l, flows.get(i))) continue;
                float gap = next.top() - l.bottom();
                if (gap > 0) gaps.computeIfAbsent(key(l.size()), k -> new ArrayList<>()).add(gap / Math.max(1, l.size()));
            }
            gaps.forEach((size, g) -> {
                // the gap most of them share (to 0.05 em), when five or more and 40 % of them do: a paragraph's lines
                Map<Integer, Integer> counts = new HashMap<>();
                for (float gap : g) counts.merge(Math.round(gap * 20), 1, Integer::sum);
                counts.entrySet().stream().max(Map.Entry.comparingByValue())
                        .filter(m -> m.getValue() >= 5 && m.getValue() * 5 >= 2 * g.size())
                        .ifPresent(m -> s.leading.put(size, m.getKey() / 20f));
            });
            return s;
        }

        private static float key(float size) {
            return Math.round(size * 2) / 2f;
        }

        /**
         * The gap (ems) beyond which line {@code next} under {@code last} starts a paragraph: wider than 0.7 em only
         * under a wrapped line that ends no sentence, over a line that starts with no capital (a script without case,
         * or the sentence going on): 1.3 times the page's leading where it has one (lines set wide apart), else 0.9 em
         * (a page of too few wrapped lines to tell its leading: a Korean report's two-line paragraph at 1.6 line
         * spacing is 0.75 em apart).
         */
        float limit(Line last, Line next, int flow) {
            String n = next.text().strip();
            boolean goesOn = wrapped(last, flow) && !endsSentence(last.text()) && !n.isEmpty() && !Character.isUpperCase(n.codePointAt(0));
            Float known = leading.get(key(last.size()));
            return !goesOn ? 0.7f : known == null ? 0.9f : Math.max(0.7f, 1.3f * known);
        }

        /**
         * Whether a line of {@code flow} is long enough for its text to wrap from it: 60 % of the flow's widest, in a
         * flow of running text (its widest line 15 ems or more; a column of labels is none).
         */
        boolean wrapped(Line l, int flow) {
            float measure = widest.getOrDefault(flow, 0f);
            return measure >= 15 * l.size() && l.right() - l.x() >= 0.6f * measure;
        }
    }

    /** Whether line {@code l} of flow {@code flow} starts a new block after {@code current} (null: none open) of {@code currentFlow}. */
    private static boolean startsBlock(Block current, int currentFlow, Line l, int flow, LaidOut page, NamedHeadings named, Spacing spacing) {
        if (current == null) return true;
        // the words of a vertical text, a line apart, may stand in flows of their own
        if (nextStackedWord(current.lines, l)) return false;
        if (flow != currentFlow) return true;
        boolean tagEdge = named.inTagged(page.number(), current.lines.getLast().box()) != named.inTagged(page.number(), l.box());
        return tagEdge || breaks(current, l, page.ocr(), spacing, flow);
    }

    /**
     * Whether line {@code l} goes on a word set vertically a letter a line ({@link #stackedLetters}) after the gap of one
     * empty line: a text box one glyph wide wraps "Text in an unrecognized shape" a letter a line, a line left empty
     * between its words.
     */
    private static boolean nextStackedWord(List<Line> lines, Line l) {
        if (lines.size() < STACK || !oneLetter(l) || !lines.stream().allMatch(Structure::oneLetter) || !wordLike(lines)) return false;
        Line last = lines.getLast();
        float pitch = (last.bottom() - lines.getFirst().top()) / lines.size();
        return overlapsAcross(last, l) && l.top() >= last.bottom() && l.top() - last.bottom() < 2.5f * pitch;
    }

    /**
     * A section number that layout set apart from its title on the same line ("5.1" | "Hyper Parameter Optimization":
     * a wide gap reads as a gutter) goes back before the title's first line.
     */
    private static void rejoinNumbers(List<Block> blocks) {
        for (int i = blocks.size() - 2; i >= 0; i--) {
            Block number = blocks.get(i), title = blocks.get(i + 1);
            if (number.atom != null || title.atom != null || number.lines.size() != 1 || !SECTION_NUMBER.matcher(number.text).matches()) continue;
            Line n = number.lines.getFirst(), first = title.lines.getFirst();
            // a section number stands a few spaces before a title that starts with a letter; a page number on a running
            // header's line stands far from it
            float gap = first.x() - n.right();
            boolean letter = !title.text.isEmpty() && Character.isLetter(title.text.codePointAt(0));
            if (gap < 0 || gap > 4 * Math.max(n.size(), 1) || !letter || !overlaps(n, first.segments().getFirst())) continue;
            List<PageReader.Segment> segments = new ArrayList<>(n.segments());
            segments.addAll(first.segments());
            title.lines.set(0, new Line(segments));
            title.text = join(title.lines);
            blocks.remove(i);
        }
    }

    private static boolean overlaps(Line line, PageReader.Segment s) {
        float top = line.top(), bottom = line.bottom();
        float overlap = Math.min(bottom, s.bottom()) - Math.max(top, s.top());
        return overlap > 0.4f * Math.min(bottom - top, s.height());
    }

    /** Whether {@code next} starts a new block after {@code block}'s last line. */
    private static boolean breaks(Block block, Line next, boolean ocr, Spacing spacing, int flow) {
        Line last = block.lines.getLast();
        float size = Math.max(last.size(), next.size());
        String nextText = next.text();
        if (fragment(next, last) || fragment(last, next)) return false;
        String nextMarker = itemMarker(nextText, ocr);
        if (nextMarker != null && !wrappedSyllable(nextMarker, last, spacing, flow)) return true;
        // a note set after the text it qualifies starts with its reference mark ("※ 세부 일정은 …")
        if (nextText.startsWith("※")) return true;
        // a note starts with its raised mark (notes at a page's foot set close, one under the other)
        if (next.raisedMark()) return true;
        // display type (a cover's title set at 33 and 30 pt, fitted line by line) varies more from line to line
        boolean display = Math.min(last.size(), next.size()) >= DISPLAY && Math.min(last.size(), next.size()) >= 0.88f * size && last.x() == next.x();
        if (!sameSize(last.size(), next.size()) && !display) return true;
        float left = (float) block.lines.stream().mapToDouble(Line::x).min().orElse(0);
        float right = (float) block.lines.stream().mapToDouble(Line::right).max().orElse(0);
        Line first = block.lines.getFirst();
        boolean item = itemMarker(first.text(), ocr) != null;
        boolean leftToRight = !LogicalOrder.hasRightToLeft(first.text());
        // an item's text hangs right of its marker: a line under that text goes on with the item whatever its style
        // (a bold lead-in over its explanation); a line back at the marker's place is the text after the list
        boolean hanging = item && leftToRight && next.x() - first.x() >= 0.5f * size && next.x() - first.x() <= 5 * size
                && block.lines.stream().skip(1).allMatch(l -> Math.abs(l.x() - next.x()) < 0.5f * size);
        if (item && leftToRight && block.lines.size() >= 2 && !hanging && block.lines.get(1).x() - first.x() >= 0.5f * size) return true;
        // a bold line's italic words (a title of a work in a heading) do not end it, nor do a running text's (a line
        // mostly in italics, "2018 <i>National Cyber Strategy</i>", that fills the measure and ends no sentence)
        boolean italicOnly = last.bold() == next.bold() && last.italic() != next.italic();
        boolean runsOn = !endsSentence(last.text()) && last.right() - last.x() >= 0.8f * (Math.max(right, next.right()) - Math.min(left, next.x()));
        if ((last.bold() != next.bold() || (last.italic() != next.italic() && !(italicOnly && (last.bold() || runsOn)))) && !continues(last, next) && !hanging) return true;
        // a listing's last line ("END") is no start of the text under it, nor a sentence the start of a listing; a path
        // set in the code font inside a sentence stays in it
        if (last.mono() && !next.mono() && !continues(last, next) || !last.mono() && next.mono() && endsSentence(last.text())) return true;
        float gap = next.top() - last.bottom();
        // the page's own leading, where it sets its lines wide apart, is no gap between paragraphs under a wrapped line
        float limit = spacing.limit(last, next, flow) * size;
        if (gap > limit || gap < -0.5f * size) return true;
        // lines that do not overlap across are apart, but for a paragraph's last word or two under its indented first
        // line ("以市级图书馆…就近借" over "阅。", indented 2 em)
        boolean tail = next.x() < last.x() && last.x() - next.x() <= 4 * size && !endsSentence(last.text()) && spacing.wrapped(last, flow);
        if (next.right() < last.x() && !tail || next.x() > last.right()) return true;
        // an indented first line starts a paragraph (where paragraphs have no space between them); centred lines
        // (a text box's, a cover's) start where their length puts them
        boolean centred = Math.abs((next.x() + next.right()) - (last.x() + last.right())) / 2 < 0.15f * size && Math.abs(next.x() - last.x()) >= 0.8f * size;
        // (indented from the line above too: a block's lines under an outdented first line go on at their own edge)
        if (!item && !centred && block.lines.size() >= 2 && next.x() - left >= 0.8f * size && next.x() - left <= 5 * size && last.right() >= right - 2 * size
                && next.x() - last.x() >= 0.8f * size) {
            return true;
        }
        if (roomFor(last, next, Math.max(right, spacing.measure().getOrDefault(last, right)), size)) return true;
        String t = last.text().strip();
        boolean ends = endsSentence(t);
        // a line that stops well short of the block's end (its left end on a right-to-left line) ends a sentence's paragraph
        boolean short_ = LogicalOrder.hasRightToLeft(t) ? last.x() > left + 4 * size : last.right() < right - 4 * size;
        return block.lines.size() >= 2 && ends && short_;
    }

    /**
     * Whether a Korean ordinal marker ("다.") at a line's start is rather the end of a word wrapped between its syllables:
     * the line above is as wide as the flow's widest but for an item's indent (3 ems) and ends in a Hangul syllable
     * ("…설명하였" over "다. 이에 …"), as Korean text may wrap inside a word.
     */
    private static boolean wrappedSyllable(String marker, Line last, Spacing spacing, int flow) {
        if (HANGUL_ORDINALS.indexOf(marker.codePointAt(marker.startsWith("(") ? 1 : 0)) < 0) return false;
        String t = last.text().strip();
        if (t.isEmpty() || Character.UnicodeScript.of(t.codePointBefore(t.length())) != Character.UnicodeScript.HANGUL) return false;
        return last.right() - last.x() >= spacing.widest().getOrDefault(flow, 0f) - 3 * last.size();
    }

    /**
     * Whether left-aligned line {@code last} had room for {@code next}'s first word (and a space, with half an em to
     * spare) before the measure ({@code right}) or {@code next}'s end, whichever is further. Text wraps a word to
     * the next line only when it does not fit, so such a line ends its paragraph whatever the next one starts with
     * (Word's one-line paragraphs "italic", "bold", "underline" set one under the other). Only a line that fills
     * under 60 % of the measure: a paragraph's lines beside a picture, or broken by hand, are longer. Bold or display
     * lines are a title's, broken by hand, and go on.
     */
    private static boolean roomFor(Line last, Line next, float right, float size) {
        if (LogicalOrder.hasRightToLeft(last.text()) || LogicalOrder.hasRightToLeft(next.text()) || Math.abs(next.x() - last.x()) >= 0.5f * size) {
            return false;
        }
        // a title's lines are broken where its author wanted them ("DB2 for i" over "Center of Excellence")
        if (last.bold() && next.bold() || Math.min(last.size(), next.size()) >= DISPLAY) return false;
        // and it fills under 60 % of the measure: a line cut short by hand or by a picture beside it fills more
        float measure = Math.max(right, next.right());
        return last.right() - last.x() < 0.6f * (measure - last.x()) && measure - last.right() > next.segments().getFirst().firstWord() + 0.75f * size;
    }

    /**
     * Whether {@code next} goes on with {@code last}'s sentence, whatever their weight: {@code last} ends no sentence and
     * {@code next} starts with a lower-case letter (emphasis that runs onto the next line: "will handle <b>reporting</b>"
     * over "<b>and specimen collection</b>.").
     */
    private static boolean continues(Line last, Line next) {
        String n = next.text().strip();
        return !endsSentence(last.text()) && !n.isEmpty() && Character.isLowerCase(n.codePointAt(0));
    }

    /**
     * A few smaller characters on a line of their own, touching {@code ref}'s line (within a quarter of its size): an
     * index or exponent seen as a line. A short smaller line set further down is a line of its own (a byline under a
     * title).
     */
    private static boolean fragment(Line l, Line ref) {
        float gap = Math.max(l.top() - ref.bottom(), ref.top() - l.bottom());
        return l.text().strip().length() <= 5 && l.size() < ref.size() * 0.9f && gap <= 0.25f * ref.size();
    }

    static boolean sameSize(float a, float b) {
        return Math.abs(a - b) <= Math.max(0.6f, 0.06f * Math.max(a, b));
    }

    /**
     * Joins lines with line breaks (consumers that flow the text turn them into spaces); a line ending in letter +
     * hyphen before a lower-case letter is rejoined without it, and letters stacked one per line are one word.
     */
    static String join(List<Line> lines) {
        StringBuilder sb = new StringBuilder();
        boolean[] stacked = stackedLetters(lines);
        for (int i = 0; i < lines.size(); i++) {
            String t = lines.get(i).text();
            if (sb.isEmpty()) {
                sb.append(t);
                continue;
            }
            if (stacked[i] && stacked[i - 1]) {
                // a line left empty between two letters parts two words
                Line above = lines.get(i - 1);
                if (lines.get(i).top() - above.bottom() > 0.8f * (above.bottom() - above.top())) sb.append(' ');
                sb.append(t);
                continue;
            }
            int n = sb.length();
            boolean hyphen = n >= 2 && sb.charAt(n - 1) == '-' && Character.isLetter(sb.charAt(n - 2)) && !t.isEmpty();
            if (hyphen && Character.isLowerCase(t.charAt(0))) {
                sb.setLength(n - 1);
                sb.append(t);
            } else if (hyphen) {
                sb.append(t); // "Lucene-" + "BM25": a compound, keep the hyphen
            } else {
                sb.append('\n').append(t);
            }
        }
        return sb.toString().strip();
    }

    /**
     * Which lines are one letter each in a run of at least {@link #STACK} such lines one under another (overlapping
     * across) that can be a word ({@link #wordLike}): a word set vertically, as a text box one glyph wide wraps it or
     * CJK is written top to bottom. Read as lines they would be a word per letter. Shorter runs stay lines.
     */
    private static boolean[] stackedLetters(List<Line> lines) {
        boolean[] stacked = new boolean[lines.size()];
        int start = 0;
        for (int i = 0; i <= lines.size(); i++) {
            boolean continues = i < lines.size() && oneLetter(lines.get(i))
                    && (i == start || overlapsAcross(lines.get(i - 1), lines.get(i)));
            if (continues) continue;
            if (i - start >= STACK && wordLike(lines.subList(start, i))) java.util.Arrays.fill(stacked, start, i, true);
            start = i < lines.size() && oneLetter(lines.get(i)) ? i : i + 1;
        }
        return stacked;
    }

    /**
     * Whether stacked letters can be a word: at least {@link #STACK} different letters, and not the alphabet in order (a
     * column of "w" typed one a line, or the option letters "A", "B", "C", stay lines).
     */
    private static boolean wordLike(List<Line> run) {
        List<Integer> letters = run.stream().map(l -> Character.toLowerCase(l.text().strip().codePointAt(0))).toList();
        if (letters.stream().distinct().count() < STACK) return false;
        for (int i = 1; i < letters.size(); i++) if (letters.get(i) != letters.get(i - 1) + 1) return true;
        return false;
    }

    private static boolean oneLetter(Line l) {
        String t = l.text().strip();
        return t.codePointCount(0, t.length()) == 1 && Character.isLetter(t.codePointAt(0));
    }

    private static boolean overlapsAcross(Line a, Line b) {
        return Math.min(a.right(), b.right()) > Math.max(a.x(), b.x());
    }

    /** The list marker a line starts with, or null. */
    private static String itemMarker(String text, boolean ocr) {
        Matcher m = ITEM.matcher(text);
        if (m.find()) return m.group(1);
        if (ocr) {
            m = OCR_ITEM.matcher(text);
            if (m.find()) return m.group(1);
        }
        return null;
    }

    /**
     * The text with digits as '#', lower case, spaces collapsed: what recurs from page to page in a running header. A
     * '#' of the text itself (a sheet's column head) is kept apart from the digits' mark: it is no page number.
     */
    private static String key(String text) {
        return text.toLowerCase(Locale.ROOT).replace('#', '＃').replaceAll("\\d+", "#").replaceAll("\\s+", " ").strip();
    }

    /**
     * Marks running headers, footers and page numbers. A header or footer recurs in its margin: its text (digits aside)
     * on two or more pages, or its place on every page (a first page's own header, a chapter's title in the header):
     * one line at body size or smaller, the same distance from the page's edge, set at least two lines apart from the
     * page's other text.
     */
    private static void furniture(List<LaidOut> pages, List<List<Block>> blocks, Body body) {
        Map<String, Set<Integer>> seen = new HashMap<>();
        Map<String, List<Box>> boxes = new HashMap<>();
        // the size each page sets a margin text in: the first page's title repeated small as the other pages' header is no header
        Map<String, Map<Integer, Float>> sizes = new HashMap<>();
        for (int i = 0; i < pages.size(); i++) {
            for (Block b : blocks.get(i)) {
                String zone = zone(b, pages.get(i), MARGIN);
                if (zone == null) continue;
                sizes.computeIfAbsent(zone + key(b.text), k -> new HashMap<>()).put(i, b.atom == null ? b.size() : 0);
                boxes.computeIfAbsent(zone + key(b.text), k -> new ArrayList<>()).add(b.box());
                String place = place(b, pages.get(i), zone, blocks.get(i), body);
                if (place != null) seen.computeIfAbsent(place, k -> new HashSet<>()).add(i);
            }
        }
        Set<Block> onEveryPage = new HashSet<>();
        for (int i = 0; i < pages.size(); i++) {
            for (Block b : blocks.get(i)) {
                String key = b.atom == null ? key(b.text) : "";
                String numberZone = zone(b, pages.get(i), NUMBER_MARGIN);
                boolean number = PAGE_NUMBER.matcher(key).matches() || ROMAN.matcher(key).matches();
                if (numberZone != null && number && outermost(b, blocks.get(i), numberZone.equals("top:")) && !headsText(b, blocks.get(i), body)
                        && !besideNumber(b, blocks.get(i))) {
                    b.type = Type.PAGE_NUMBER;
                    continue;
                }
                String zone = zone(b, pages.get(i), MARGIN);
                if (zone == null) continue;
                String place = place(b, pages.get(i), zone, blocks.get(i), body);
                Map<Integer, Float> copies = sizes.get(zone + key);
                int page = i;
                float elsewhere = (float) copies.entrySet().stream().filter(c -> c.getKey() != page).mapToDouble(Map.Entry::getValue).max().orElse(0);
                // the first page's title, set larger than the body and than its copies in the other pages' headers
                boolean title = i == 0 && b.atom == null && b.size() > body.size() * 1.15f && b.size() > elsewhere * 1.15f;
                // a section's heading that recurs over some sheets, not all ("Other information" in bold, its table's
                // caption a line under it), heads that text; a running header in display type (a report's part title
                // at twice the body's size) or in bold atop every page (a letterhead) is no heading
                boolean heading = b.boldThroughout() && !body.bold() && b.size() <= 1.5f * body.size() && copies.size() < pages.size()
                        && textUnder(b, blocks.get(i), 2 * b.box().height());
                boolean repeated = copies.size() >= 2 && !title && !heading;
                boolean running = repeated || (zone.equals("bottom:") && COPYRIGHT.matcher(b.text).find())
                        || (place != null && pages.size() >= 2 && seen.get(place).size() == pages.size());
                if (running) b.type = zone.equals("top:") ? Type.PAGE_HEADER : Type.PAGE_FOOTER;
                if (running && copies.size() == pages.size() && aligned(boxes.get(zone + key))) onEveryPage.add(b);
            }
            besidePageNumbers(pages.get(i), blocks.get(i));
            // a page whose every line would be running text ("Original page 7" alone, or a sheet's title over the
            // band of its columns a page holds, centred over the whole sheet) keeps it as its text; beside a table,
            // its page number and a text every page repeats in one place stay apart (a sheet's "Page 3", a report's
            // title over a page of one table)
            if (blocks.get(i).stream().allMatch(b -> b.atom != null || b.type.furniture())) {
                boolean table = blocks.get(i).stream().anyMatch(b -> b.atom != null && !(b.atom.atom() instanceof Integer));
                for (Block b : blocks.get(i)) {
                    if (b.atom == null && !(table && (b.type == Type.PAGE_NUMBER || onEveryPage.contains(b)))) b.type = Type.PARAGRAPH;
                }
            }
        }
    }

    /**
     * Whether another number stands level with {@code b} with no text between them (a table's header of years, "2023"
     * beside "2022", at the top of a one-page statement): a page number stands alone, or beside a running header's
     * text (a spread's "208 … Global Report   Annex … 209").
     */
    private static boolean besideNumber(Block b, List<Block> blocks) {
        Box box = b.box();
        for (Block o : blocks) {
            if (o == b || o.atom != null || !level(o.box(), box) || !(PAGE_NUMBER.matcher(key(o.text)).matches() || ROMAN.matcher(key(o.text)).matches())) continue;
            float from = Math.min(box.right(), o.box().right()), to = Math.max(box.x(), o.box().x());
            boolean between = blocks.stream().anyMatch(t -> t != b && t != o && level(t.box(), box) && t.box().x() >= from && t.box().right() <= to);
            if (!between) return true;
        }
        return false;
    }

    /** Whether two boxes overlap vertically. */
    private static boolean level(Box a, Box b) {
        return Math.min(a.bottom(), b.bottom()) > Math.max(a.y(), b.y());
    }

    /** Whether boxes share their left edge, their right edge or their centre, to 2 points. */
    private static boolean aligned(List<Box> boxes) {
        return near(boxes, Box::x) || near(boxes, Box::right) || near(boxes, b -> b.x() + b.width() / 2);
    }

    private static boolean near(List<Box> boxes, ToDoubleFunction<Box> at) {
        DoubleSummaryStatistics s = boxes.stream().mapToDouble(at).summaryStatistics();
        return s.getMax() - s.getMin() <= 2;
    }

    /**
     * Where a block in the page's margin ({@code zone}) stands, as a key that a running header or footer repeats on
     * every page (its distance from the page's edge, to 2 points), or null when it cannot be one: more than one line,
     * larger than the body, or within two of its lines of the page's other text.
     */
    private static String place(Block b, LaidOut page, String zone, List<Block> blocks, Body body) {
        if (b.lines.size() != 1 || b.size() > body.size() * 1.05f) return null;
        Box box = b.box();
        boolean top = zone.equals("top:");
        for (Block other : blocks) {
            if (other == b) continue;
            Box o = other.box();
            float gap = top ? o.y() - box.bottom() : box.y() - o.bottom();
            if (!level(o, box) && gap >= 0 && gap < 2 * box.height()) return null;
        }
        return "place:" + zone + Math.round((top ? box.y() : page.height() - box.bottom()) / 2);
    }

    /**
     * Whether a block is set as a heading over the text right under it ("Page 2" bold and larger, its section's text a
     * line below): not a page number, though it reads like one.
     */
    private static boolean headsText(Block b, List<Block> blocks, Body body) {
        boolean style = b.size() >= body.size() * 1.15f || (b.bold() && !body.bold());
        return style && textUnder(b, blocks, b.box().height());
    }

    /** Whether another block starts less than {@code gap} points under block {@code b}. */
    private static boolean textUnder(Block b, List<Block> blocks, float gap) {
        Box box = b.box();
        return blocks.stream().anyMatch(o -> o != b && o.box().y() >= box.bottom() && o.box().y() - box.bottom() < gap);
    }

    /**
     * A short block in the page's margin on the line of its page number is its running header or footer, even on a
     * single page ("Optimized Table Tokenization ... 11" over a paper's page).
     */
    private static void besidePageNumbers(LaidOut page, List<Block> blocks) {
        for (Block n : blocks) {
            if (n.type != Type.PAGE_NUMBER) continue;
            Box nb = n.box();
            for (Block b : blocks) {
                String zone = b.type == Type.PARAGRAPH ? zone(b, page, MARGIN) : null;
                if (zone == null) continue;
                Box bb = b.box();
                float overlap = Math.min(bb.bottom(), nb.bottom()) - Math.max(bb.y(), nb.y());
                if (overlap > 0.4f * Math.min(bb.height(), nb.height())) b.type = zone.equals("top:") ? Type.PAGE_HEADER : Type.PAGE_FOOTER;
            }
        }
    }

    /**
     * Whether at most one other line of the page stands between the block and the page's edge (above it for
     * {@code top}, below it else): a page number is outside the body (with a running header beside or beyond it), where
     * a number in a table's column near the page's edge has the table's other rows beyond it.
     */
    private static boolean outermost(Block b, List<Block> page, boolean top) {
        Box box = b.box();
        Set<Float> beyond = new HashSet<>();
        for (Block other : page) {
            if (other == b) continue;
            Box o = other.box();
            if (top ? o.bottom() <= box.y() : o.y() >= box.bottom()) beyond.add((float) Math.round(top ? o.y() : o.bottom()));
        }
        return beyond.size() <= 1;
    }

    /** "top:" or "bottom:" when a short text block stands in the page's top or bottom {@code margin} (a share), else null. */
    private static String zone(Block b, LaidOut page, float margin) {
        if (b.atom != null || b.lines.size() > 2 || b.text.length() > 150) return null;
        Box box = b.box();
        if (box.bottom() <= page.height() * margin) return "top:";
        if (box.y() >= page.height() * (1 - margin)) return "bottom:";
        return null;
    }

    /**
     * Whether a block in small print stands where footnotes do: under 0.85 of the body's size, in the page's lower 40 %,
     * with no text of the body's size under it in its column. A numbered note there ("1) ...", as Korean and Japanese
     * reports number theirs) is a footnote, not a list item (issue 36: a Korean report's notes were lists "1. ...").
     */
    private static boolean footnoteArea(Block b, List<Block> blocks, LaidOut page, Body body) {
        return b.size() <= body.size() * 0.85f && b.box().y() > page.height() * 0.6f && nothingLargerUnder(b, blocks, body.size() * 0.85f);
    }

    /** Whether no text over {@code size} stands under block {@code b} in its column (running furniture aside). */
    private static boolean nothingLargerUnder(Block b, List<Block> blocks, float size) {
        Box box = b.box();
        for (Block other : blocks) {
            Box o = other.box();
            if (other != b && other.atom == null && !other.type.furniture() && o.y() >= box.bottom() && other.size() > size
                    && o.x() < box.right() && o.right() > box.x()) {
                return false;
            }
        }
        return true;
    }

    /** Whether a line is an equation set apart ("a+8=12"): an equals sign, and fewer letters than figures and signs. */
    private static boolean formula(String text) {
        if (text.indexOf('=') < 0) return false;
        long letters = letters(text);
        return letters * 2 < text.codePoints().filter(c -> !Character.isWhitespace(c)).count();
    }

    private static void typeBlock(Block b, List<Block> blocks, LaidOut page, Body body, NamedHeadings named) {
        if (b.atom != null || b.type.furniture()) return;
        String text = b.text;
        String marker = itemMarker(text, page.ocr());
        float size = b.size();
        boolean larger = size >= body.size() * (page.ocr() ? 1.2f : 1.15f);
        boolean boldOverBody = b.bold() && b.boldThroughout() && !body.bold() && size >= body.size() * 0.95f;
        boolean shortText = text.length() <= 200 && b.lines.size() <= 3 && text.chars().anyMatch(Character::isLetter) && !formula(text);
        Matcher section = SECTION.matcher(text);
        Integer namedLevel = named.level(text, page.number(), b.lines.stream().map(Line::box).toList());
        if (CAPTION.matcher(text).matches() && !larger) {
            b.type = Type.CAPTION;
        } else if (LONE_NUMBER.matcher(text).matches()) {
            return; // a page or chapter number set large is no heading of its own
        } else if (namedLevel != null && shortText && (marker == null || !bullet(marker))) {
            b.type = Type.HEADING;
            b.named = true;
            b.level = namedLevel == 0 ? null : namedLevel;
        } else if (marker != null && FOOTNOTE_NUMBER.matcher(marker).matches() && footnoteArea(b, blocks, page, body) && !page.ocr()) {
            b.type = Type.FOOTNOTE;
        } else if (marker != null && !(section.matches() && shortText && (larger || boldOverBody) && !bullet(marker))) {
            b.type = Type.LIST_ITEM;
            // a symbol font's bullet (a private-use code point no other font draws) as the character it shows
            b.marker = symbols(marker);
            b.text = text.substring(text.indexOf(marker) + marker.length()).strip();
        } else if ((size <= body.size() * 0.85f || size <= body.size() && b.lines.getFirst().raisedMark()) && b.box().y() > page.height() * 0.6f
                && FOOTNOTE.matcher(text).matches() && nothingLargerUnder(b, blocks, Math.max(body.size() * 0.85f, size)) && !page.ocr()) {
            b.type = Type.FOOTNOTE;
        } else if (shortText && !text.endsWith(",") && !names(b) && !code(b, body) && !label(b, page, body) && !display(b)
                && (larger || (boldOverBody && !text.endsWith(":") && text.length() <= 100 && b.lines.size() <= 2
                        && !Character.isLowerCase(text.codePointAt(0))))) {
            // a bold line at body size that ends in a colon leads into what follows ("Key Benefits:" over a list); one
            // that starts in lower case goes on with a sentence ("heißt <b>begleitendes Dreibein</b>.")
            b.type = Type.HEADING;
            if (section.matches() && section.group(1).chars().allMatch(c -> c == '.' || Character.isDigit(c))) {
                b.level = section.group(1).split("\\.").length;
            }
        }
    }

    /**
     * Whether a block lies within a figure's box, a picture's or a drawing's: a label of the figure (an infographic's
     * captions, a syntax diagram's parts), not a heading. A figure a few lines high (a box drawn behind a heading) or a
     * picture behind the whole page (placed first) is no figure.
     */
    private static boolean label(Block b, LaidOut page, Body body) {
        List<Box> figures = new ArrayList<>(page.drawings());
        for (Layout.Placed p : page.placed()) if (p.item().atom() instanceof Integer && p.flow() >= 0) figures.add(p.item().box());
        Box box = b.box();
        for (Box f : figures) {
            if (f.height() > 3 * body.size() && box.x() >= f.x() - 1 && box.right() <= f.right() + 1 && box.y() >= f.y() - 1
                    && box.bottom() <= f.bottom() + 1) return true;
        }
        return false;
    }

    /**
     * Code listings: a paragraph set in a monospaced font where the body is not ({@link #code}), with a sign of code in
     * it ({@link #CODE_SIGNS}: typewriter prose has none), is a listing unless it stands inside a sentence (a path or a name set in the code font between running words: the text before it ends
     * no sentence, or it ends none and the text after it goes on in lower case). Listings one under the other with at
     * most a blank line between them are one; its text is {@link #codeText}.
     */
    private static void listings(List<Block> page, Body body) {
        for (int i = 0; i < page.size(); i++) {
            Block b = page.get(i);
            if (!typewriter(b, body) || b.text.codePoints().noneMatch(Character::isLetterOrDigit) || !CODE_SIGNS.matcher(b.text).find()) continue;
            Block before = i > 0 ? page.get(i - 1) : null, after = i + 1 < page.size() ? page.get(i + 1) : null;
            boolean inSentence = running(before) && !endsSentence(before.text)
                    || running(after) && !endsSentence(b.text) && !after.text.isEmpty() && Character.isLowerCase(after.text.codePointAt(0));
            if (!inSentence) b.type = Type.CODE;
        }
        // a listing's lines that layout set apart (an indented line, a blank line) join it, a sign of code or not
        for (boolean merged = true; merged; ) {
            merged = false;
            for (int i = page.size() - 1; i > 0; i--) {
                Block above = page.get(i - 1), b = page.get(i);
                boolean joins = above.type == Type.CODE ? b.type == Type.CODE || typewriter(b, body) : b.type == Type.CODE && typewriter(above, body);
                if (!joins) continue;
                Box a = above.box(), n = b.box();
                float gap = n.y() - (a.y() + a.height());
                if (gap < -1 || gap > 2.5f * above.size() || n.x() > a.right() || n.right() < a.x()) continue;
                above.lines.addAll(b.lines);
                above.type = Type.CODE;
                page.remove(i);
                merged = true;
            }
        }
        for (Block b : page) if (b.type == Type.CODE) b.text = codeText(b.lines);
    }

    /** Whether a block is a paragraph in a monospaced font where the body is not. */
    private static boolean typewriter(Block b, Body body) {
        return b.atom == null && b.type == Type.PARAGRAPH && code(b, body);
    }

    /** Whether a block is running text: a paragraph not in a monospaced font. */
    private static boolean running(Block b) {
        return b != null && b.atom == null && b.type == Type.PARAGRAPH && !b.mono();
    }

    /**
     * A listing's lines as they stand: each line indented by its distance from the listing's left edge in characters of
     * the font's pitch, the gaps inside a line kept the same way, and a blank line where the space between two lines
     * holds one (at most 3).
     */
    private static String codeText(List<Line> lines) {
        List<Float> widths = new ArrayList<>();
        for (Line l : lines) for (PageReader.Segment s : l.segments()) if (s.text().length() >= 3) widths.add((s.right() - s.x()) / s.text().length());
        java.util.Collections.sort(widths);
        float size = lines.getFirst().size();
        float pitch = widths.isEmpty() ? 0.6f * size : Math.max(0.2f * size, widths.get(widths.size() / 2));
        float left = (float) lines.stream().mapToDouble(Line::x).min().orElse(0);
        float lead = Float.MAX_VALUE;
        for (int i = 1; i < lines.size(); i++) {
            float step = lines.get(i).top() - lines.get(i - 1).top();
            if (step > 0.5f * size) lead = Math.min(lead, step);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            if (i > 0) {
                sb.append('\n');
                float step = l.top() - lines.get(i - 1).top();
                if (lead < Float.MAX_VALUE) sb.append("\n".repeat(Math.max(0, Math.min(3, Math.round(step / lead) - 1))));
            }
            sb.append(" ".repeat(Math.max(0, Math.round((l.x() - left) / pitch))));
            PageReader.Segment previous = null;
            for (PageReader.Segment s : l.segments()) {
                if (previous != null) sb.append(" ".repeat(Math.max(1, Math.round((s.x() - previous.right()) / pitch))));
                sb.append(s.text());
                previous = s;
            }
        }
        return sb.toString();
    }

    /** Whether a block is set in a monospace font where the body is not: code or a command's syntax, never a heading. */
    private static boolean code(Block b, Body body) {
        return b.mono() && !body.mono();
    }

    /**
     * Whether a block is prose set large in italics, no heading: a magazine's standfirst under its headline ("Sleeper
     * services are coming back. Are travellers ready …?": two sentences) or a pull quote (a sentence in quotation
     * marks). A heading is one phrase; an italic one with a full stop inside ("Step 1. Install") is no sentence after
     * a word of three lower-case letters or more.
     */
    private static boolean display(Block b) {
        if (!b.italic()) return false;
        String t = b.text.replaceAll("\\s+", " ").strip();
        boolean quoted = t.length() > 2 && "\"“«„‘'".indexOf(t.charAt(0)) >= 0 && "\"”»“’'".indexOf(t.charAt(t.length() - 1)) >= 0;
        return quoted || SENTENCES.matcher(t).find();
    }

    /**
     * Whether a block is a list of people's names (a cover's authors, set bold): two or more lines, each two to six
     * capitalised words of letters alone ("Jim Bainbridge Hernando Bedoya" over "Rob Bestgen Mike Cain"). A heading over
     * two lines has a lower-case word or a number somewhere.
     */
    private static boolean names(Block b) {
        if (b.lines.size() < 2) return false;
        for (Line l : b.lines) {
            String[] words = l.text().strip().split("\\s+");
            if (words.length < 2 || words.length > 6) return false;
            for (String w : words) if (!NAME.matcher(w).matches()) return false;
        }
        return true;
    }

    /**
     * A heading stands out from the text it heads: a line found a heading by its style alone (not named by the file,
     * not a numbered section) whose next block on its page is text in the same size and weight ("Let's introduce a
     * list" over the list items of one slide's text box, both 28 pt where the document's body is 18 pt) leads into
     * that text and is a paragraph.
     */
    private static void leadIns(List<List<Block>> pages) {
        for (List<Block> page : pages) {
            List<Block> text = page.stream().filter(b -> b.atom == null && !b.type.furniture()).toList();
            for (int i = 0; i + 1 < text.size(); i++) {
                Block b = text.get(i), next = text.get(i + 1);
                if (b.type != Type.HEADING || b.named || b.level != null) continue;
                boolean sameStyle = sameSize(b.size(), next.size()) && b.bold() == next.bold() && b.italic() == next.italic();
                if (sameStyle && (next.type == Type.PARAGRAPH || next.type == Type.LIST_ITEM)) b.type = Type.PARAGRAPH;
            }
        }
    }

    /**
     * A numbered item set apart as a heading is ("(1) The insurers' view" in bold over body text): one short line in
     * a heading style (bold where the body is not, or larger), with no closing punctuation, and body text, not a next
     * item, after it. Items of a list follow each other; a section's number stands over its text.
     */
    private static void numberedHeadings(List<List<Block>> pages, Body body) {
        List<Block> all = pages.stream().flatMap(List::stream).filter(b -> !b.type.furniture()).toList();
        for (int i = 0; i + 1 < all.size(); i++) {
            Block b = all.get(i), next = all.get(i + 1);
            if (b.type != Type.LIST_ITEM || bullet(b.marker) || b.lines.size() != 1 || b.text.length() > 100) continue;
            boolean style = (b.bold() && !body.bold()) || b.size() >= body.size() * 1.15f;
            boolean open = !b.text.isEmpty() && ".,;:".indexOf(b.text.charAt(b.text.length() - 1)) < 0;
            boolean bodyAfter = next.type == Type.PARAGRAPH && sameSize(next.size(), body.size()) && next.bold() == body.bold();
            if (style && open && bodyAfter) {
                b.type = Type.HEADING;
                b.text = b.marker + " " + b.text;
                b.marker = null;
            }
        }
    }

    /**
     * A heading set in italic at the body's size, on a line of its own ("Boots Self-Locking Nut" over its section, as
     * handbooks set their third level): one short line, all italic where the body is upright, starting with a capital
     * and with no closing punctuation, between the end of a sentence (or anything not running text) and body text.
     * An italic line inside a paragraph follows a line that runs on; an italic sentence (a note, a quotation) ends with
     * its stop. A heading has a word of four letters or more: a line of math italic set apart ("Z", "Uxi", a displayed
     * "F (u, v) = (x(u, v), …)") has none.
     */
    private static void italicHeadings(List<List<Block>> pages, Body body) {
        if (body.italic()) return;
        List<Block> all = pages.stream().flatMap(List::stream).filter(b -> !b.type.furniture()).toList();
        for (int i = 0; i + 1 < all.size(); i++) {
            Block b = all.get(i), next = all.get(i + 1);
            if (b.type != Type.PARAGRAPH || b.lines.size() != 1 || !b.italic() || b.size() < body.size() * 0.95f || code(b, body)) continue;
            String t = b.text.strip();
            boolean shape = t.length() <= 80 && t.split("\\s+").length <= 10 && Character.isUpperCase(t.codePointAt(0))
                    && ".,;:!?".indexOf(t.charAt(t.length() - 1)) < 0 && WORD.matcher(t).find();
            boolean bodyAfter = next.type == Type.PARAGRAPH && sameSize(next.size(), body.size()) && !next.italic() && next.bold() == body.bold();
            Block previous = i == 0 ? null : all.get(i - 1);
            boolean apart = previous == null || previous.atom != null || previous.type != Type.PARAGRAPH || previous.italic() || endsSentence(previous.text);
            if (shape && bodyAfter && apart) b.type = Type.HEADING;
        }
    }

    /**
     * Headings by style that share a line with another such heading are labels set side by side (a row of captions in
     * an infographic, a table's header cells without rulings): a heading stands alone on its line. Both are text,
     * unless each heads a paragraph of two or more lines, a list or a smaller heading right under it (a newsletter's
     * stories side by side in their columns, each under its headline; a flyer's boxes; a résumé's sidebar beside its
     * main column): a table's heads stand over its one-line cells.
     */
    private static void sideBySide(List<Block> page) {
        List<Block> styled = page.stream().filter(b -> b.type == Type.HEADING && !b.named).toList();
        Set<Block> labels = new HashSet<>();
        for (Block a : styled) {
            for (Block b : styled) {
                Box x = a.box(), y = b.box();
                float overlap = Math.min(x.bottom(), y.bottom()) - Math.max(x.y(), y.y());
                boolean apart = x.right() <= y.x() || y.right() <= x.x();
                if (a != b && apart && overlap > 0.5f * Math.min(x.height(), y.height()) && !(headsProse(a, page) && headsProse(b, page))) labels.add(a);
            }
        }
        for (Block b : labels) {
            b.type = Type.PARAGRAPH;
            b.level = null;
        }
    }

    /** Whether the first block under {@code heading} in its column is a paragraph of two or more lines, a list's item or a heading, set smaller. */
    private static boolean headsProse(Block heading, List<Block> page) {
        Box h = heading.box();
        Block under = null;
        for (Block b : page) {
            Box o = b.box();
            if (b == heading || b.type.furniture() || o.y() < h.bottom() - 1 || o.x() >= h.right() || o.right() <= h.x()) continue;
            if (under == null || o.y() < under.box().y()) under = b;
        }
        boolean text = under != null && (under.type == Type.PARAGRAPH && under.lines.size() >= 2 || under.type == Type.LIST_ITEM || under.type == Type.HEADING);
        return text && under.atom == null && under.size() < heading.size() && under.box().y() - h.bottom() < 3 * heading.size();
    }

    /**
     * Three or more headings found by their style alone, one right after another in one style with no text between
     * them, nor a table (a cover's points in bold, "Implement roles …" over "Leverage row permissions …" over
     * "Protect columns …"), are lines of text: a heading heads text. Numbered sections and headings the file names stay.
     */
    private static void headingRuns(List<Block> page) {
        // a table between two headings is what the first heads; a picture (a point's icon) is not
        List<Block> text = page.stream().filter(b -> !b.type.furniture() && !(b.atom != null && b.atom.atom() instanceof Integer)).toList();
        int i = 0;
        while (i < text.size()) {
            int j = i;
            while (j < text.size() && styleHeading(text.get(j)) && style(text.get(j)).equals(style(text.get(i)))) j++;
            if (j - i >= 3) {
                for (Block b : text.subList(i, j)) {
                    b.type = Type.PARAGRAPH;
                    b.level = null;
                }
            }
            i = Math.max(j, i + 1);
        }
    }

    /**
     * A heading found by its style alone that ends its page (no text, table or picture after it), when the next page
     * starts with a heading or there is none, heads nothing: it is text (a slide's note under its table, "With
     * footnote"). One that the next page's text goes on from (a flowing document's page break after a heading) stays.
     */
    private static void headingsOverNothing(List<List<Block>> pages) {
        for (int p = 0; p < pages.size(); p++) {
            // a table or a picture after it is what it heads
            List<Block> text = pages.get(p).stream().filter(b -> !b.type.furniture()).toList();
            if (text.isEmpty() || text.getLast().atom != null || !styleHeading(text.getLast())) continue;
            Block next = p + 1 < pages.size() ? pages.get(p + 1).stream().filter(b -> b.atom == null && !b.type.furniture()).findFirst().orElse(null) : null;
            if (next == null || next.type == Type.HEADING) {
                text.getLast().type = Type.PARAGRAPH;
                text.getLast().level = null;
            }
        }
    }

    /**
     * A heading found by its style alone right over a larger heading is the line set above a title (a kicker: "Summer
     * activities" over "Swimming in the lake", "Front cover" over a report's name, an issue's number over its
     * headline): text, as a heading heads what is smaller than it.
     */
    private static void kickers(List<Block> page) {
        List<Block> text = page.stream().filter(b -> !b.type.furniture()).toList();
        for (int i = 0; i + 1 < text.size(); i++) {
            Block b = text.get(i), next = text.get(i + 1);
            if (styleHeading(b) && next.atom == null && next.type == Type.HEADING && next.size() >= 1.15f * b.size()) {
                b.type = Type.PARAGRAPH;
                b.level = null;
            }
        }
    }

    private static boolean styleHeading(Block b) {
        return b.type == Type.HEADING && !b.named && b.level == null;
    }

    /**
     * A web or mail address set large ("ibm.com/redbooks" on a cover) is no heading, nor is a line that gives one with
     * a name (a title page's authors "Fabio Fiorina (help-libtasn1@gnu.org)", a group's "X Desktop Group
     * (http://www.freedesktop.org)"). Typed after {@link #sideBySide},
     * where it still counts as a heading's neighbour: a logo's word beside it is a label too.
     */
    private static void addresses(List<List<Block>> pages) {
        for (List<Block> page : pages) {
            for (Block b : page) {
                if (b.type != Type.HEADING || b.named) continue;
                if (!ADDRESS.matcher(b.text.strip()).matches() && !MAIL.matcher(b.text).find() && !BRACKETED_URL.matcher(b.text).find()) continue;
                b.type = Type.PARAGRAPH;
                b.level = null;
            }
        }
    }

    private static boolean endsSentence(String text) {
        String t = text.strip();
        return !t.isEmpty() && ".!?:。！？".indexOf(t.charAt(t.length() - 1)) >= 0;
    }

    private static boolean bullet(String marker) {
        return !Character.isLetterOrDigit(marker.charAt(0)) && marker.charAt(0) != '(';
    }

    /**
     * Levels for headings without one: a style (size, weight) that numbered headings use takes their level; other
     * styles rank by size (then bold first) below the numbered ones' deepest style.
     */
    private static void levels(List<List<Block>> pages) {
        Map<String, Integer> styleLevel = new HashMap<>();
        List<float[]> styles = new ArrayList<>();
        for (List<Block> page : pages) {
            for (Block b : page) {
                if (b.type != Type.HEADING) continue;
                String style = style(b);
                if (b.level != null) styleLevel.merge(style, b.level, Math::min);
                else if (styles.stream().noneMatch(s -> s[0] == b.size() && (s[1] == 1) == b.bold())) styles.add(new float[] {b.size(), b.bold() ? 1 : 0});
            }
        }
        styles.removeIf(s -> styleLevel.containsKey(s[0] + "/" + (s[1] == 1)));
        styles.sort((a, c) -> a[0] != c[0] ? Float.compare(c[0], a[0]) : Float.compare(c[1], a[1]));
        for (List<Block> page : pages) {
            for (Block b : page) {
                if (b.type != Type.HEADING || b.level != null) continue;
                Integer known = styleLevel.get(style(b));
                if (known != null) {
                    b.level = known;
                    continue;
                }
                int rank = 0;
                while (rank < styles.size() && !(styles.get(rank)[0] == b.size() && (styles.get(rank)[1] == 1) == b.bold())) rank++;
                // above the numbered headings' styles when larger than all of them
                float largestNumbered = (float) styleLevel.keySet().stream().mapToDouble(k -> Float.parseFloat(k.split("/")[0])).max().orElse(0);
                int base = b.size() > largestNumbered ? 0 : styleLevel.values().stream().mapToInt(Integer::intValue).max().orElse(0);
                b.level = Math.min(6, base + rank + 1);
            }
        }
    }

    private static String style(Block b) {
        return b.size() + "/" + b.bold();
    }

    /**
     * The title: the heading set largest in the first page's top half, at least 1.3 times the body size, and not a
     * numbered section ("1. Introduction" is the first section, not the document's name). Only one; the other headings
     * keep their levels.
     */
    private static void title(List<LaidOut> pages, List<List<Block>> blocks, Body body) {
        if (pages.isEmpty()) return;
        float half = pages.getFirst().height() / 2;
        float largest = 0;
        for (Block b : blocks.getFirst()) if (titleLike(b, half)) largest = Math.max(largest, b.size());
        for (Block b : blocks.getFirst()) {
            if (titleLike(b, half) && b.size() == largest && b.size() >= body.size() * 1.3f) {
                b.type = Type.TITLE;
                b.level = null;
                return;
            }
        }
    }

    /**
     * Heads the parts of the document its outline names but its pages do not print, running headers and footers aside
     * ({@link NamedHeadings#unprinted}: a workbook's sheets) with a heading each, of the entry's depth as level, first on its page (running headers
     * aside). Its box is the page's top-left corner (no width or height) and its font size 0. The headings the pages
     * print go one level down, under their part, and so does a title (a sheet's own, under its sheet's name).
     */
    private static void parts(List<List<Block>> blocks, NamedHeadings named) {
        // a sheet's name printed atop each of its pages (LibreOffice's default page header) is its running header
        List<NamedHeadings.OutlineEntry> parts = named.unprinted(n -> n > blocks.size() ? "" : String.join(" ",
                blocks.get(n - 1).stream().filter(b -> !b.type.furniture()).map(Structure::text).toList()));
        if (parts.isEmpty()) return;
        int depth = parts.stream().mapToInt(NamedHeadings.OutlineEntry::depth).max().orElse(1);
        for (List<Block> page : blocks) {
            for (Block b : page) {
                if (b.type == Type.TITLE) {
                    b.type = Type.HEADING;
                    b.level = 1;
                }
                if (b.type == Type.HEADING && b.level != null) b.level = Math.min(6, b.level + depth);
            }
        }
        for (NamedHeadings.OutlineEntry e : parts) {
            if (e.page() > blocks.size()) continue;
            List<Block> page = blocks.get(e.page() - 1);
            Block heading = new Block(e.page(), null);
            heading.type = Type.HEADING;
            heading.named = true;
            heading.level = Math.min(6, e.depth());
            heading.text = e.title().replaceAll("\\s+", " ");
            heading.at = new Box(0, 0, 0, 0);
            int at = 0;
            while (at < page.size() && page.get(at).type == Type.PAGE_HEADER) at++;
            page.add(at, heading);
        }
    }

    /** A block's text: a table's cells, a form value's, a picture's none. */
    private static String text(Block b) {
        DocumentModel.Table t = table(b);
        if (t != null) return tableText(t.grid());
        if (b.atom != null && b.atom.atom() instanceof FormValues.Value v) return v.text();
        return b.text == null ? "" : b.text;
    }

    private static boolean titleLike(Block b, float half) {
        if (b.type != Type.HEADING || b.box().y() >= half) return false;
        Matcher section = SECTION.matcher(b.text);
        return !(section.matches() && section.group(1).chars().anyMatch(Character::isDigit));
    }
}
