package dev.docapi.document;

import dev.docapi.text.LineStripper;
import dev.docapi.text.LogicalOrder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.awt.geom.Rectangle2D;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType0Font;
import org.apache.pdfbox.pdmodel.font.PDType3Font;
import org.apache.pdfbox.text.TextPosition;
import org.apache.pdfbox.util.Matrix;
import org.apache.pdfbox.util.Vector;

/**
 * Reads a PDF's text as {@link Segment}s: the runs of a line between wide gaps (a table's cells, the two halves of a
 * line that crosses a column gutter, a running header's page number and title), each with its box, dominant size and
 * weight, text in logical order ({@link LogicalOrder}). Text running another way than most of its page (a rotated
 * margin stamp) is left out, as it would break the flow into one-letter lines; text inside a ruled table's area is
 * left to the table, and also read as segments of that area ({@link #areaText}) for when the area turns out to be no
 * table. Lines come from PDFBox in content order ({@link LineStripper}); their order on the page is worked out later
 * ({@link Layout}).
 */
final class PageReader extends LineStripper {
    /** A gap between words at least this many times the font size splits a line into segments (a word space is ~0.3). */
    static final float SEGMENT_GAP = 1.1f;
    /** A list marker's text stands at most this many times the font size after it (a hanging indent's width). */
    private static final float MARKER_GAP = 3f;
    /**
     * A gap between words in a ruled table's cell at least this many times the font size parts the cell's line into
     * runs: two columns of figures set in one ruled box stand half an em apart where the figures are widest (a word space is about a quarter).
     */
    static final float CELL_RUN_GAP = 0.45f;
    /**
     * A gap in an OCR text layer's line at least this many times its size is a gutter between cells: wider than
     * {@link #SEGMENT_GAP}, as OCR's word boxes are rougher and a justified scan's spaces stretch past it.
     */
    private static final float OCR_GAP = 2.2f;
    /** Column edges of other lines that must stand at a word's left edge for a run to be split there ({@link #addSplitAtColumns}). */
    private static final int COLUMN_WITNESSES = 2;
    /** A run of more words is a line of prose (its spaces may stretch and line up), never cut into cells. */
    private static final int MAX_ROW_WORDS = 6;
    /** What Word's second-level bullet "o" is read as: the white bullet it stands for. */
    private static final String WHITE_BULLET = "◦";

    /**
     * A run of text on one line.
     *
     * @param text   in logical order
     * @param x      left edge, points from the page's left (as seen)
     * @param top    top edge, points from the page's top
     * @param right  right edge
     * @param bottom bottom edge (a little below the baseline)
     * @param size   the dominant font size, points (rounded to 0.5)
     * @param bold   whether most characters are bold
     * @param italic whether most characters are italic or oblique ({@link FontFacts#italic})
     * @param mono   whether most characters are in a monospace font ({@link FontFacts#mono}): code, not prose
     * @param chars  how many characters it has
     */
    /**
     * A run of words on one line; points from the page's top-left. {@code firstWord}: the width of its first word
     * (points), what a line above would have needed to hold it. {@code plainLetters}: how many of its letters are not
     * bold (a run of text with a few terms in bold is mostly bold, yet no heading). {@code raisedMark}: whether it starts
     * with a note's mark set raised in smaller type ({@link #raisedMark}).
     */
    record Segment(String text, float x, float top, float right, float bottom, float size, boolean bold, boolean italic, boolean mono,
                   int chars, float firstWord, int plainLetters, boolean raisedMark) {
        float width() {
            return right - x;
        }

        float height() {
            return bottom - top;
        }

        DocumentModel.Box box() {
            return new DocumentModel.Box(x, top, right - x, bottom - top);
        }
    }

    /** A page read: its size as seen and its segments in content order. */
    record PageText(int number, float width, float height, List<Segment> segments) {
    }

    /**
     * A ruled table's area on a page (points from the top-left), whose text the table carries: its cells take the
     * glyphs inside the area ({@link RuledTable}; none when the table came without its cells' boxes).
     */
    record Area(int page, float x, float y, float width, float height, RuledTable cells) {
        boolean contains(float px, float py) {
            return px >= x - 1 && px <= x + width + 1 && py >= y - 1 && py <= y + height + 1;
        }
    }

    private final List<Area> tables;
    private final List<PageText> pages = new ArrayList<>();
    private final Map<Float, Integer> tableSizes = new HashMap<>();
    private final java.util.function.IntConsumer pageDone;
    private final FontFacts fonts = new FontFacts();
    private List<Segment> current;
    private List<Area> pageTables = List.of();
    private float pageDir;
    private final Map<Area, Map<Integer, List<TextPosition>>> turnedInCells = new HashMap<>();
    private final Map<Area, List<Segment>> areaText = new HashMap<>();
    /**
     * Where on the page as seen (points from the left) the glyphs drawn beside their clip stand for a table's cells:
     * the nearest point inside the clip ({@link #processTextPosition}).
     */
    private final Map<TextPosition, Float> clippedX = new IdentityHashMap<>();
    /** The clip (its bounds, one object a clip) each upright glyph was drawn in, on a page with a ruled table ({@link #cells}). */
    private final Map<TextPosition, Rectangle2D> glyphClips = new IdentityHashMap<>();
    private boolean pageUpright;
    private final Clips clips = new Clips();
    private final DrawnBoxes drawnBoxes = new DrawnBoxes();
    /** The page's drawn checkboxes not yet set on a line ({@link #withBoxes}). */
    private List<DrawnBoxes.Box> pageBoxes = new ArrayList<>();
    /** The page's drawn dots not yet set on a line as bullets ({@link #withBoxes}). */
    private List<DrawnBoxes.Box> pageDots = new ArrayList<>();
    private final Clips.Bounds clipBounds = new Clips.Bounds();
    /** What a composite font's glyph that maps to no character reads as here: a control code, as a simple font's does. */
    private static final String UNMAPPED = "\u0080";
    /** The document's composite fonts with glyphs that map to no character, as {@link WithUnmapped}. */
    private final Map<PDType0Font, PDFont> unmappedFonts = new IdentityHashMap<>();
    /**
     * The page's words cut where a glyph is drawn a wide gap left of the one before ({@link #atJumps}): their line's
     * spaces are where its glyphs leave gaps ({@link LogicalOrder#lineByPosition}).
     */
    private final Set<List<TextPosition>> cutBack = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** The page's lines as runs of words (left to right), made into segments when the page is read. */
    private final List<List<Run>> lines = new ArrayList<>();

    /**
     * A line's run of words between wide gaps, before it becomes a {@link Segment} of {@code out}.
     *
     * @param letterBullet its first word is Word's bullet "o" ({@link #letterBullet})
     * @param splittable   whether it may be split at other lines' cell edges ({@link #addSplitAtColumns})
     * @param out          where its segments go: the page's, or a ruled area's
     */
    private record Run(List<List<TextPosition>> words, boolean letterBullet, boolean splittable, List<Segment> out) {
    }

    PageReader(List<Area> tables, java.util.function.IntConsumer pageDone) {
        this.tables = tables;
        this.pageDone = pageDone;
        setShouldSeparateByBeads(true);
    }

    List<PageText> pages() {
        return pages;
    }

    /**
     * The text inside a ruled table's area as segments, as it would read without the table (the area's cells have it
     * too): for an area that turns out to be no table ({@link RuledTable#table}).
     */
    List<Segment> areaText(Area area) {
        return areaText.getOrDefault(area, List.of());
    }

    /** The characters inside ruled tables (left to the tables, so in no segment) by font size (rounded to 0.5). */
    Map<Float, Integer> tableSizes() {
        return tableSizes;
    }

    @Override
    protected void startPage(PDPage page) throws IOException {
        int number = getCurrentPageNo();
        current = new ArrayList<>();
        pageTables = tables.stream().filter(t -> t.page() == number).toList();
        pageUpright = page.getRotation() % 360 == 0;
        clippedX.clear();
        glyphClips.clear();
        drawnBoxes.start(page);
        var box = page.getCropBox();
        boolean turned = page.getRotation() % 180 != 0;
        pages.add(new PageText(number, turned ? box.getHeight() : box.getWidth(), turned ? box.getWidth() : box.getHeight(), current));
        super.startPage(page);
    }

    /**
     * Notes a glyph drawn on its clip's line but left or right of it: a spreadsheet cuts a cell's text too wide for its
     * column at the cell's sides by a clip, so its last glyph, half shown, stands over the next cell ("What is the mai|nThe main objective") and Excel draws
     * the rest of the text there unseen. The glyph is its clip's cell's, where the eye sees the text it belongs to
     * ({@link #cellX}). Upright glyphs on unturned pages with a ruled table only (the clip is in the page's own space,
     * and only decides a cell); a clip over several lines must hold the glyph's centre's height.
     */
    @Override
    protected void processTextPosition(TextPosition drawn) {
        TextPosition p = withPlausibleHeight(drawn);
        if (pageUpright && p.getDir() == 0 && !pageTables.isEmpty()) {
            Rectangle2D clip = clipBounds.of(getGraphicsState());
            glyphClips.put(p, clip);
            var m = p.getTextMatrix();
            float x = m.getTranslateX() + p.getWidthDirAdj() / 2, y = m.getTranslateY() + p.getHeightDir() / 2;
            if (y >= clip.getMinY() && y <= clip.getMaxY() && (x < clip.getMinX() || x > clip.getMaxX())) {
                double inside = Math.clamp(x, clip.getMinX() + 0.5, Math.max(clip.getMinX() + 0.5, clip.getMaxX() - 0.5));
                clippedX.put(p, (float) (centreX(p) + inside - x));
                // not shown, so it must not hide the next cell's glyph it overlies as a duplicate of it ("Th main")
                boolean suppress = getSuppressDuplicateOverlappingText();
                setSuppressDuplicateOverlappingText(false);
                try {
                    super.processTextPosition(p);
                } finally {
                    setSuppressDuplicateOverlappingText(suppress);
                }
                return;
            }
        }
        super.processTextPosition(p);
    }

    @Override
    protected void processOperator(Operator operator, List<COSBase> operands) throws IOException {
        // the clip is followed only where it decides a glyph's cell
        if (!pageTables.isEmpty()) clips.operator(operator.getName(), operands, getGraphicsState());
        drawnBoxes.operator(operator.getName(), operands, getGraphicsState());
        super.processOperator(operator, operands);
    }

    @Override
    protected void endPage(PDPage page) throws IOException {
        super.endPage(page);
        pageDone.accept(getCurrentPageNo());
    }

    @Override
    protected void writePage() throws IOException {
        Map<Float, Integer> dirs = new HashMap<>();
        for (List<TextPosition> article : getCharactersByArticle()) for (TextPosition p : article) dirs.merge(p.getDir(), 1, Integer::sum);
        pageDir = dirs.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(0f);
        turnedInCells.clear();
        lines.clear();
        cutBack.clear();
        pageBoxes = new ArrayList<>(drawnBoxes.boxes());
        pageDots = new ArrayList<>(drawnBoxes.dots());
        super.writePage();
        joinAtSentenceSpaces();
        addSplitAtColumns();
        turnedInCells.forEach((table, cells) -> cells.forEach((cell, glyphs) -> {
            TextPosition first = glyphs.getFirst();
            table.cells().add(cell, turned(glyphs), centreY(first), centreY(first), centreX(first), centreX(first));
        }));
    }

    @Override
    protected void line(List<List<TextPosition>> drawn) {
        List<List<TextPosition>> words = unmapped(withBoxes(drawn)).stream().map(PageReader::withoutRules).filter(w -> !w.isEmpty()).toList();
        List<List<TextPosition>> kept = new ArrayList<>();
        Map<Area, Map<Integer, List<List<TextPosition>>>> inCells = new HashMap<>();
        Map<Area, List<List<TextPosition>>> inAreas = new HashMap<>();
        for (List<TextPosition> word : words) {
            List<TextPosition> w = new ArrayList<>();
            Map<Area, Map<Integer, List<TextPosition>>> wordInCells = new HashMap<>();
            Map<Area, List<TextPosition>> wordInAreas = new HashMap<>();
            Area wordTable = null; // the table the word's glyphs so far stood in, and the cell of its last one there
            int wordCell = -1;
            int[] glyphCells = cells(word);
            int at = 0;
            for (TextPosition p : word) {
                int glyphCell = glyphCells[at++];
                // a table's text in any direction is the table's (a column head set upright in a narrow column); the
                // rest of a word that runs out of a table's cell (a spreadsheet's text overflowing its column) is its cell's
                Area table = table(p);
                boolean overflow = table == null && wordTable != null && p.getDir() == pageDir;
                if (overflow) table = wordTable;
                if (table != null) {
                    tableSizes.merge(Math.round(size(p) * 2) / 2f, 1, Integer::sum);
                    if (table.cells().hasCells()) {
                        int cell = overflow ? wordCell : glyphCell;
                        wordTable = table;
                        wordCell = cell;
                        // glyphs set another way come one a line: they are read per cell when the page is done
                        if (p.getDir() != pageDir) turnedInCells.computeIfAbsent(table, k -> new HashMap<>()).computeIfAbsent(cell, k -> new ArrayList<>()).add(p);
                        else wordInCells.computeIfAbsent(table, k -> new HashMap<>()).computeIfAbsent(cell, k -> new ArrayList<>()).add(p);
                    }
                    if (p.getDir() == pageDir) wordInAreas.computeIfAbsent(table, k -> new ArrayList<>()).add(p);
                    continue;
                }
                if (p.getDir() != pageDir) continue;
                w.add(p);
            }
            if (!w.isEmpty()) kept.add(w);
            wordInCells.forEach((table, cells) -> cells.forEach((cell, glyphs) ->
                    inCells.computeIfAbsent(table, k -> new HashMap<>()).computeIfAbsent(cell, k -> new ArrayList<>()).add(glyphs)));
            wordInAreas.forEach((table, glyphs) -> inAreas.computeIfAbsent(table, k -> new ArrayList<>()).add(glyphs));
        }
        inCells.forEach((table, cells) -> cells.forEach((cell, cellWords) -> addToCell(table.cells(), cell, cellWords)));
        inAreas.forEach((table, areaWords) -> segments(areaWords, areaText.computeIfAbsent(table, k -> new ArrayList<>())));
        segments(kept, current);
    }

    /**
     * Passes on a composite font's glyph that maps to no character as {@link #UNMAPPED}, where PDFBox drops it (it
     * passes a simple font's on as its code): a list's bullets drawn from a CID font without a Unicode entry for them
     * (an IBM Redbook's) are then read as bullets ({@link #unmapped}). A font that cannot be read again keeps PDFBox's way.
     */
    @Override
    protected void showGlyph(Matrix textRenderingMatrix, PDFont font, int code, Vector displacement) throws IOException {
        if (font instanceof PDType0Font composite && composite.toUnicode(code) == null) {
            PDFont shown = unmappedFonts.computeIfAbsent(composite, f -> {
                try {
                    return new WithUnmapped(f.getCOSObject());
                } catch (IOException | RuntimeException e) {
                    return f;
                }
            });
            super.showGlyph(textRenderingMatrix, shown, code, displacement);
            return;
        }
        super.showGlyph(textRenderingMatrix, font, code, displacement);
    }

    /** A composite font whose glyphs without a Unicode mapping read {@link #UNMAPPED}. */
    private static final class WithUnmapped extends PDType0Font {
        WithUnmapped(org.apache.pdfbox.cos.COSDictionary font) throws IOException {
            super(font);
        }

        @Override
        public String toUnicode(int code) {
            String unicode = super.toUnicode(code);
            return unicode != null ? unicode : UNMAPPED;
        }
    }

    /**
     * Whether a glyph maps to no character: a control code, as PDFBox passes a simple font's on and {@link #showGlyph}
     * a composite font's. Not a tab: a justified line's spaces drawn as tab glyphs are its word spaces.
     */
    private static boolean unmapped(TextPosition p) {
        String u = p.getUnicode();
        return u != null && !u.isEmpty() && u.chars().allMatch(c -> Character.isISOControl(c) && c != '\t');
    }

    /**
     * The line's words without the glyphs that map to no character ({@link #unmapped}), which no reader can read: a
     * logo's lettering in a font without a Unicode map came out as control codes ("!\t\"\t#"), and so did a proof's
     * closing box at the end of its line. One standing between the line's words (a math font's "≪" in "k ≪ |C|") is a
     * blank there, so that the words around it keep their gap and the line is not cut at a hole; one inside a word (a
     * ligature without a map) is left out. One or two
     * leading the line, a gap before its first readable character, are its bullet, drawn from a symbol font without a
     * map (an IBM Redbook's lists; Docling reads them as the font's glyph names, "SM590000"), when no larger than its
     * text and a word follows (not a diagram's arrow before its label "g"): they read "•", so the line is a list item as a
     * bullet makes it.
     */
    private static List<List<TextPosition>> unmapped(List<List<TextPosition>> words) {
        if (words.stream().flatMap(List::stream).noneMatch(PageReader::unmapped)) return words;
        List<TextPosition> glyphs = words.stream().flatMap(List::stream).filter(p -> !blank(p))
                .sorted(Comparator.comparingDouble(TextPosition::getXDirAdj)).toList();
        List<TextPosition> readable = glyphs.stream().filter(p -> !unmapped(p)).toList();
        if (readable.isEmpty()) return List.of();
        float firstX = readable.getFirst().getXDirAdj(), lastX = readable.getLast().getXDirAdj();
        TextPosition bullet = null;
        int leading = glyphs.indexOf(readable.getFirst());
        if (leading >= 1 && leading <= 2) {
            TextPosition last = glyphs.get(leading - 1), next = readable.getFirst();
            boolean apart = next.getXDirAdj() - (last.getXDirAdj() + last.getWidthDirAdj()) > 0.2f * Math.max(size(next), 4);
            boolean small = size(last) <= 1.5f * size(next) && last.getWidthDirAdj() <= 1.5f * size(next);
            long letters = readable.stream().map(TextPosition::getUnicode).flatMapToInt(String::codePoints).filter(Character::isLetter).count();
            if (apart && small && letters >= 2 && !LogicalOrder.hasRightToLeft(next.getUnicode())) bullet = glyphs.getFirst();
        }
        List<List<TextPosition>> out = new ArrayList<>(words.size());
        for (List<TextPosition> w : words) {
            List<TextPosition> kept = new ArrayList<>(w.size());
            for (TextPosition p : w) {
                if (p == bullet) kept.add(glyphAs(p, "•"));
                else if (!unmapped(p)) kept.add(p);
                else if (p.getXDirAdj() > firstX && p.getXDirAdj() < lastX && !inWord(w, p)) kept.add(glyphAs(p, " "));
            }
            if (!kept.isEmpty() && (kept.stream().anyMatch(p -> !blank(p)) || kept.size() == w.size())) out.add(kept);
        }
        return out;
    }

    /** Whether glyph {@code p} of word {@code w} has readable glyphs on both sides in it (a ligature without a map: "e?cient"). */
    private static boolean inWord(List<TextPosition> w, TextPosition p) {
        int i = w.indexOf(p);
        return w.subList(0, i).stream().anyMatch(g -> !blank(g) && !unmapped(g)) && w.subList(i + 1, w.size()).stream().anyMatch(g -> !blank(g) && !unmapped(g));
    }

    /** Glyph {@code p} read as {@code text}. */
    private static TextPosition glyphAs(TextPosition p, String text) {
        return copy(p, p.getHeightDir(), text);
    }

    /** Glyph {@code p} with height {@code height} (points) and text {@code text}. */
    private static TextPosition copy(TextPosition p, float height, String text) {
        float[] widths = p.getIndividualWidths();
        return new TextPosition(p.getRotation(), p.getPageWidth(), p.getPageHeight(), p.getTextMatrix(), p.getEndX(), p.getEndY(),
                height, widths.length > 0 ? widths[0] : p.getWidth(), p.getWidthOfSpace(), text, p.getCharacterCodes(),
                p.getFont(), p.getFontSize(), Math.round(p.getFontSizeInPt()));
    }

    /**
     * The line's words with each drawn checkbox that leads one of its glyphs ({@link DrawnBoxes}: less than two of its
     * sides before it, left of a left-to-right glyph or right of a right-to-left one, its middle on the glyph's height)
     * as a glyph of its own, {@code ☐} or {@code ☒}, next to that
     * glyph's word: the box reads before its option as a form's box glyph does, in a table's cell too. A tick drawn as a
     * glyph inside the box (X, ✓) is the box's mark; a box with other text inside is no checkbox. So too each drawn dot
     * ({@link DrawnBoxes#dots}) that leads a glyph within three times the glyph's size, its middle on the glyph's
     * height and its side 0.15-0.8 of the glyph's size: a bullet, {@code •} when filled, {@code ◦} when stroked (a web
     * page's list printed by Chromium draws its markers; its items read as one paragraph without them).
     */
    private List<List<TextPosition>> withBoxes(List<List<TextPosition>> words) {
        return leadingMarks(leadingMarks(words, pageBoxes, false), pageDots, true);
    }

    private List<List<TextPosition>> leadingMarks(List<List<TextPosition>> words, List<DrawnBoxes.Box> pending, boolean dots) {
        if (pending.isEmpty()) return words;
        float lineTop = Float.MAX_VALUE, lineBottom = -Float.MAX_VALUE;
        for (List<TextPosition> w : words) {
            for (TextPosition p : w) {
                lineTop = Math.min(lineTop, p.getYDirAdj() - p.getHeightDir());
                lineBottom = Math.max(lineBottom, p.getYDirAdj());
            }
        }
        List<List<TextPosition>> out = new ArrayList<>(words);
        boolean changed = false;
        for (java.util.Iterator<DrawnBoxes.Box> it = pending.iterator(); it.hasNext(); ) {
            DrawnBoxes.Box b = it.next();
            float middle = (b.top() + b.bottom()) / 2;
            // only a box level with the line is looked at glyph by glyph (a page of many boxes and lines stays cheap)
            if (middle < lineTop || middle > lineBottom) continue;
            TextPosition beside = null, tick = null;
            float nearest = dots ? Float.MAX_VALUE : 2 * b.side();
            boolean text = false;
            for (List<TextPosition> w : out) {
                for (TextPosition p : w) {
                    if (p.getDir() != pageDir || p.getUnicode() == null || p.getUnicode().isBlank()) continue;
                    float x = p.getXDirAdj(), right = x + p.getWidthDirAdj(), bottom = p.getYDirAdj(), top = bottom - p.getHeightDir();
                    float cx = (x + right) / 2, cy = (top + bottom) / 2;
                    if (cx > b.x() && cx < b.right() && cy > b.top() && cy < b.bottom()) {
                        if (!dots && TICKS.contains(p.getUnicode()) && tick == null) tick = p;
                        else text = true;
                        continue;
                    }
                    if (middle < top || middle > bottom) continue;
                    // a box leads its option: left of it in a left-to-right script, right of it in a right-to-left one
                    boolean rightToLeft = LogicalOrder.hasRightToLeft(p.getUnicode());
                    float gap = !rightToLeft && x >= b.right() ? x - b.right() : rightToLeft && b.x() >= right ? b.x() - right : -1;
                    float size = Math.max(size(p), 4);
                    boolean bullet = !dots || gap < 3 * size && b.side() >= 0.15f * size && b.side() <= 0.8f * size;
                    if (gap >= 0 && gap < nearest && bullet) {
                        nearest = gap;
                        beside = p;
                    }
                }
            }
            if (text) {
                it.remove();
                continue;
            }
            if (beside == null) continue;
            it.remove();
            changed = true;
            TextPosition mark = dots
                    ? boxGlyph(beside, new DrawnBoxes.Box(b.x(), beside.getYDirAdj() - beside.getHeightDir(), b.right(), beside.getYDirAdj(), false), b.ticked() ? "•" : "◦")
                    : boxGlyph(beside, b, b.ticked() || tick != null ? "☒" : "☐");
            if (tick != null) {
                TextPosition t = tick;
                out.replaceAll(w -> w.contains(t) ? w.stream().filter(p -> p != t).toList() : w);
                out.removeIf(List::isEmpty);
            }
            for (int i = 0; i < out.size(); i++) {
                if (!out.get(i).contains(beside)) continue;
                out.add(b.x() < beside.getXDirAdj() ? i : i + 1, List.of(mark));
                break;
            }
        }
        return changed ? out : words;
    }

    /** What a tick drawn as a glyph inside a box reads as. */
    private static final Set<String> TICKS = Set.of("X", "x", "✓", "✔", "✗", "✘", "×", "■", "●");

    /** A glyph {@code mark} where box {@code b} stands, in the font and size of the glyph beside it. */
    private static TextPosition boxGlyph(TextPosition beside, DrawnBoxes.Box b, String mark) {
        // PDFBox's text space: from the crop box's lower-left corner, y up; the baseline at the box's foot
        org.apache.pdfbox.util.Matrix m = beside.getTextMatrix().clone();
        float baseline = beside.getPageHeight() - b.bottom();
        m.setValue(2, 0, b.x());
        m.setValue(2, 1, baseline);
        return new TextPosition(beside.getRotation(), beside.getPageWidth(), beside.getPageHeight(), m, b.right(), baseline,
                b.bottom() - b.top(), b.right() - b.x(), beside.getWidthOfSpace(), mark, new int[] {0}, beside.getFont(),
                beside.getFontSize(), Math.round(beside.getFontSizeInPt()));
    }

    /** The line's words (in one area) as runs split at wide gaps, made segments of {@code out} when the page is read. */
    private void segments(List<List<TextPosition>> kept, List<Segment> out) {
        if (kept.isEmpty()) return;
        kept = kept.stream().map(PageReader::leftRunFirst).toList();
        // Right-to-left lines stay whole: PDFBox's words of a visual-order line can hold glyphs from both its ends.
        if (kept.stream().flatMap(w -> w.subList(arabicBullet(w), w.size()).stream())
                .anyMatch(p -> p.getUnicode() != null && LogicalOrder.hasRightToLeft(p.getUnicode()) && !bidiMark(p.getUnicode()))) {
            lines.add(List.of(new Run(kept, false, false, out)));
            return;
        }
        List<List<TextPosition>> byX = new ArrayList<>();
        for (List<TextPosition> w : kept) {
            List<List<TextPosition>> parts = atJumps(w);
            for (int i = 1; i < parts.size(); i++) {
                if (parts.get(i).getFirst().getXDirAdj() < parts.get(i - 1).getLast().getXDirAdj()) cutBack.addAll(parts);
            }
            for (List<TextPosition> part : parts) byX.addAll(atWideSpaces(part));
        }
        byX.sort(Comparator.comparingDouble(w -> w.getFirst().getXDirAdj()));
        List<List<TextPosition>> run = new ArrayList<>();
        float runRight = 0;
        boolean letterBullet = letterBullet(byX);
        boolean splittable = !mono(byX);
        Set<List<TextPosition>> justified = afterJustifiedSpaces(byX);
        List<Run> runs = new ArrayList<>();
        for (List<TextPosition> w : byX) {
            float left = w.getFirst().getXDirAdj();
            float size = size(w.getFirst());
            // a list marker keeps its text after a gap, but not another marker: two "*" a gap apart are two cells; nor
            // a figure far from it: a dash for none in a table's row ("—" | "45,000", 8 em apart)
            boolean item = marker(run) && !marker(List.of(w)) && !(left - runRight > MARKER_GAP * Math.max(size, 4) && figure(w));
            if (!run.isEmpty() && (left - runRight > SEGMENT_GAP * Math.max(size, 4) && !item && !justified.contains(w) && !(letterBullet && run.size() == 1 && run.getFirst() == byX.getFirst())
                    || run.size() == 1 && dropNumber(run.getFirst(), w))) {
                runs.add(new Run(run, letterBullet && run.getFirst() == byX.getFirst(), splittable, out));
                run = new ArrayList<>();
            }
            run.add(w);
            TextPosition last = w.getLast();
            runRight = Math.max(runRight, last.getXDirAdj() + last.getWidthDirAdj());
        }
        runs.add(new Run(run, letterBullet && run.getFirst() == byX.getFirst(), splittable, out));
        lines.add(runs);
    }
    /**
     * The word cut where its next glyph is drawn a wide gap ({@link #SEGMENT_GAP}) right of the one before, a space
     * glyph included: PDFBox starts no new word after a space glyph, so a table row drawn as "1994 " moved to its next
     * column, "1997 ", and so on, came as one word spanning its gutters, and its cells were one segment. A code
     * listing's aligned columns, whose space glyphs fill their gaps, stay whole; an OCR text layer's word is cut by
     * {@link #atWideSpaces}, which knows its bullets. A word is cut as well where its next glyph is drawn a wide gap
     * left of the one before: a table's row drawn a pass a font came as words spanning its cells ("7" of one column
     * with "ungraded" of the last), and a word is placed by its first glyph. A word of a glyph each side of the jump is
     * left whole: a figure's labels ("R" and "0" of an axis), which the line's order places by position
     * ({@link LogicalOrder}).
     */
    private static List<List<TextPosition>> atJumps(List<TextPosition> word) {
        if (ocrLayer(word.getFirst())) return List.of(word);
        List<List<TextPosition>> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i < word.size(); i++) {
            TextPosition before = word.get(i - 1), p = word.get(i);
            float wide = SEGMENT_GAP * Math.max(size(before), 4);
            boolean back = before.getXDirAdj() - (p.getXDirAdj() + p.getWidthDirAdj()) > wide
                    && (inked(word.subList(start, i)) > 1 || inked(word.subList(i, word.size())) > 1)
                    || !blank(p) && drawnBefore(word.subList(start, i), p, wide);
            if (p.getXDirAdj() - (before.getXDirAdj() + before.getWidthDirAdj()) > wide || back) {
                out.add(word.subList(start, i));
                start = i;
            }
        }
        if (start == 0) return List.of(word);
        out.add(word.subList(start, word.size()));
        return out;
    }

    /**
     * Whether {@code p} stands wholly left of the last inked glyph of {@code drawn} (half a point allowed), nearer than
     * {@code wide}: a line's font runs drawn out of order, as LibreOffice draws a heading's "Ⅱ" from a fallback font
     * after the ". " that follows it; read as drawn, the heading was ". Ⅱ 추진 목표". (A glyph drawn far back, a
     * figure's label back at its axis's start, is {@link #atJumps}'s wide jump.)
     */
    private static boolean drawnBefore(List<TextPosition> drawn, TextPosition p, float wide) {
        for (int i = drawn.size() - 1; i >= 0; i--) {
            TextPosition last = drawn.get(i);
            if (blank(last)) continue;
            float back = last.getXDirAdj() - (p.getXDirAdj() + p.getWidthDirAdj());
            return back >= -0.5f && back <= wide;
        }
        return false;
    }

    /** How many of {@code glyphs} are not blank. */
    private static long inked(List<TextPosition> glyphs) {
        return glyphs.stream().filter(p -> !blank(p)).count();
    }

    /**
     * The word of an OCR text layer cut where its own space glyphs span a gap wider than {@link #OCR_GAP}:
     * Tesseract's text layer writes a line's words with spaces in one text object and PDFBox reads it as one word, so a
     * scanned table's row ("Leaves Ash, Elm, Maple 50") had no gap to cut its cells at. A drawn page's word is left
     * whole (a code listing's aligned columns, a caption's number set apart). The space glyphs at a cut are left out; a list marker keeps
     * its text, as OCR reads it too ("©", "e", "=" for a bullet).
     */
    private static List<List<TextPosition>> atWideSpaces(List<TextPosition> word) {
        if (!ocrLayer(word.getFirst())) return List.of(word);
        List<List<TextPosition>> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i < word.size(); i++) {
            if (!word.get(i).getUnicode().isBlank() || word.get(i - 1).getUnicode().isBlank()) continue;
            int next = i;
            while (next < word.size() && word.get(next).getUnicode().isBlank()) next++;
            if (next == word.size()) break;
            TextPosition before = word.get(i - 1), after = word.get(next);
            if (after.getXDirAdj() - (before.getXDirAdj() + before.getWidthDirAdj()) > OCR_GAP * Math.max(size(before), 4)
                    && !(start == 0 && (bullet(word.subList(0, i)) || arabicBullet(word) == next))) {
                out.add(word.subList(start, i));
                start = next;
            }
        }
        out.add(word.subList(start, word.size()));
        return out;
    }

    /**
     * Whether glyph {@code i} of {@code glyphs} (a word or a line, in drawing order) is an OCR text layer's reading of
     * an upright rule: a "|" standing alone, between blanks or the ends (a scanned table's rules between its cells came
     * out as "0.934 | 0.927 |" and "mAP | (0.75) |"). Left out of the text, here and in a ruled table's cells
     * ({@link LatticeText}).
     */
    static boolean readRule(List<TextPosition> glyphs, int i) {
        TextPosition p = glyphs.get(i);
        if (p == null || !ocrLayer(p) || p.getUnicode() == null || !p.getUnicode().strip().matches("[|¦│]")) return false;
        return (i == 0 || apart(glyphs.get(i - 1), p)) && (i == glyphs.size() - 1 || apart(p, glyphs.get(i + 1)));
    }

    private static boolean blank(TextPosition p) {
        return p == null || p.getUnicode() == null || p.getUnicode().isBlank();
    }

    /** Whether two glyphs in a line are a space apart, or one is blank: PDFBox's lines hold no glyph for a gap. */
    private static boolean apart(TextPosition left, TextPosition right) {
        if (blank(left) || blank(right)) return true;
        return right.getXDirAdj() - (left.getXDirAdj() + left.getWidthDirAdj()) > 0.15f * Math.max(size(right), 4);
    }

    /** The word without its {@link #readRule}s; empty when it is nothing else but blanks. */
    private static List<TextPosition> withoutRules(List<TextPosition> word) {
        List<TextPosition> out = new ArrayList<>(word.size());
        boolean text = false;
        for (int i = 0; i < word.size(); i++) {
            if (readRule(word, i)) continue;
            out.add(word.get(i));
            text |= !blank(word.get(i));
        }
        return out.size() == word.size() ? word : text ? out : List.of();
    }

    /** Whether a glyph is of an OCR text layer: Tesseract's (and OCRmyPDF's) invisible GlyphLessFont. */
    private static boolean ocrLayer(TextPosition p) {
        return p.getFont() != null && p.getFont().getName() != null && p.getFont().getName().contains("GlyphLessFont");
    }

    /**
     * An OCR line with its right-to-left glyphs that stand left of its first glyph put first: Tesseract writes a
     * Latin line's words, then an Arabic run, so a bullet read as an Arabic sign at the line's start ("ل" for "•")
     * came last ("Paddle about in the shallows ل"). Only one or two Arabic signs before a Latin line's text move (a
     * bullet's or a checkbox's reading): the glyphs of a line with Arabic words keep their order.
     */
    private static List<TextPosition> leftRunFirst(List<TextPosition> word) {
        if (!ocrLayer(word.getFirst())) return word;
        int k = word.size();
        while (k > 0 && rightToLeftOrBlank(word.get(k - 1).getUnicode())) k--;
        if (k == 0 || k == word.size()) return word;
        List<TextPosition> head = word.subList(0, k);
        if (head.stream().anyMatch(p -> arabic(p.getUnicode()))
                || head.stream().noneMatch(p -> Character.UnicodeScript.of(p.getUnicode().isEmpty() ? ' ' : p.getUnicode().codePointAt(0)) == Character.UnicodeScript.LATIN)) {
            return word;
        }
        float left = word.getFirst().getXDirAdj();
        List<TextPosition> front = new ArrayList<>(), rest = new ArrayList<>(head);
        for (TextPosition p : word.subList(k, word.size())) (p.getXDirAdj() < left ? front : rest).add(p);
        long signs = front.stream().filter(p -> arabic(p.getUnicode())).count();
        if (signs == 0 || signs > 2) return word;
        front.addAll(rest);
        return front;
    }

    private static boolean rightToLeftOrBlank(String glyph) {
        return glyph.isBlank() || arabic(glyph) || bidiMark(glyph);
    }

    /** Whether a glyph is an invisible direction mark (LRM, RLM, embeddings, isolates) that OCR layers set. */
    private static boolean bidiMark(String glyph) {
        return !glyph.isEmpty() && glyph.codePoints().allMatch(c -> c == 0x200E || c == 0x200F || c >= 0x202A && c <= 0x202E
                || c >= 0x2066 && c <= 0x2069);
    }

    private static boolean arabic(String glyph) {
        return !glyph.isEmpty() && Character.UnicodeScript.of(glyph.codePointAt(0)) == Character.UnicodeScript.ARABIC;
    }

    /**
     * The word's glyphs; an OCR layer's Arabic sign for a bullet ({@link #arabicBullet}) as "•", the "»" and direction
     * marks OCR read about it left out.
     */
    private static List<LogicalOrder.Glyph> asBullet(List<TextPosition> word) {
        List<LogicalOrder.Glyph> glyphs = LogicalOrder.glyphs(word);
        int text = arabicBullet(word);
        if (text == 0) return glyphs;
        List<LogicalOrder.Glyph> out = new ArrayList<>();
        LogicalOrder.Glyph sign = glyphs.getFirst();
        out.add(new LogicalOrder.Glyph("\u2022", sign.x(), sign.width()));
        for (int i = 1; i < glyphs.size(); i++) if (i >= text ? !bidiMark(glyphs.get(i).text()) : glyphs.get(i).text().isBlank()) out.add(glyphs.get(i));
        return out;
    }

    /**
     * The glyphs of an OCR layer's word that are one or two Arabic signs before a Latin capital, with the blanks and
     * marks after them: a round bullet or a box read with Arabic among the languages ("٠", "ل" for "•", "ال" for "☐");
     * else 0.
     */
    private static int arabicBullet(List<TextPosition> word) {
        if (word.isEmpty() || !ocrLayer(word.getFirst()) || !arabic(word.getFirst().getUnicode())) return 0;
        int i = 1;
        if (i < word.size() && arabic(word.get(i).getUnicode())) i++;
        int signs = i;
        while (i < word.size() && (rightToLeftOrBlank(word.get(i).getUnicode()) && !arabic(word.get(i).getUnicode()) || "»".equals(word.get(i).getUnicode()))) i++;
        if (i == signs || i == word.size() || word.subList(0, signs).stream().mapToInt(p -> p.getUnicode().codePointCount(0, p.getUnicode().length())).sum() > 2) {
            return 0;
        }
        int next = word.get(i).getUnicode().isEmpty() ? ' ' : word.get(i).getUnicode().codePointAt(0);
        return Character.isUpperCase(next) && Character.UnicodeScript.of(next) == Character.UnicodeScript.LATIN ? i : 0;
    }

    /** Whether glyphs are a list marker, or two glyphs or fewer with no letter or figure, or what OCR makes of a bullet. */
    private static boolean bullet(List<TextPosition> glyphs) {
        StringBuilder sb = new StringBuilder();
        for (TextPosition p : glyphs) sb.append(p.getUnicode());
        String t = sb.toString().strip();
        return Structure.MARKER_ONLY.matcher(t).matches() || t.equals("e") || t.equals("o")
                || t.length() <= 2 && t.codePoints().noneMatch(Character::isLetterOrDigit);
    }

    /**
     * Adds the page's runs as segments, each split where one of its words starts at a column's left edge that other
     * lines nearby show: a spreadsheet or a table set with narrow gutters puts a header's two cells closer than
     * {@link #SEGMENT_GAP} ("Header1 Header2") while the rows under it stand apart at the same edges, or every row's
     * cells only a little apart ("Widget A  2024-01-01"). An edge is shown by a cell of a line of two or more runs, or
     * by a word set apart in its line (0.4 em from the word before, and more than twice the line's other gaps, which a
     * justified line stretches alike). A split needs {@link #COLUMN_WITNESSES} such edges of other lines, within ten
     * lines, within a point of the word, or as many gutters between two cells of other lines that the gap before the
     * word overlaps (a header over right-aligned numbers), and a gap before it of 0.4 em; never after a list marker, a checkbox or a number. Runs of
     * more than {@link #MAX_ROW_WORDS} words (prose), monospace lines (code, aligned by nature) and right-to-left lines
     * are never split.
     */
    /**
     * Joins a line's two runs cut at the space after a sentence's end that a line of the same paragraph above or below
     * runs across. TeX stretches the space after a full stop three times as much as a justified line's other spaces,
     * so a loose line of a narrow column ("widely used.      However, it is") spaced it past {@link #SEGMENT_GAP} and
     * the line fell apart into two segments, the second read as a block of its own. A gutter or a table's column gap
     * has no line running across it.
     */
    private void joinAtSentenceSpaces() {
        for (int l = 0; l < lines.size(); l++) {
            List<Run> line = lines.get(l);
            for (int k = line.size() - 1; k > 0; k--) {
                Run before = line.get(k - 1), after = line.get(k);
                if (!sentenceSpace(before, after) || !runAcross(l, before, after)) continue;
                List<List<TextPosition>> words = new ArrayList<>(before.words());
                words.addAll(after.words());
                List<Run> joined = new ArrayList<>(line);
                joined.set(k - 1, new Run(words, before.letterBullet(), before.splittable() && after.splittable(), before.out()));
                joined.remove(k);
                lines.set(l, line = joined);
            }
        }
    }

    private static final Pattern SENTENCE_END = Pattern.compile(".*[\\p{L}\\p{N}][.!?:;][)\\]\"”’']?");
    private static final Pattern SENTENCE_START = Pattern.compile("[(\\[\"“‘']?\\p{L}.*");

    /** A word's characters as PDFBox maps them. */
    private static String text(List<TextPosition> word) {
        return word.stream().map(TextPosition::getUnicode).filter(java.util.Objects::nonNull).collect(java.util.stream.Collectors.joining());
    }

    /** Whether {@code before} ends a sentence and {@code after} starts a word within 3 em, in one size. */
    private boolean sentenceSpace(Run before, Run after) {
        List<TextPosition> last = before.words().getLast(), first = after.words().getFirst();
        float size = size(first.getFirst());
        return Math.abs(size(last.getLast()) - size) < 0.5f && gap(last, first) <= 3 * Math.max(size, 4)
                && (SENTENCE_END.matcher(text(last).strip()).matches() || runIn(before, after)) && SENTENCE_START.matcher(text(first).strip()).matches()
                && !marker(List.of(first));
    }

    /** Whether {@code before} is all bold and {@code after} starts upright and not bold: a heading run into its text. */
    private boolean runIn(Run before, Run after) {
        return before.words().stream().flatMap(List::stream).filter(p -> !blank(p)).allMatch(p -> fonts.bold(p.getFont()))
                && after.words().getFirst().stream().filter(p -> !blank(p)).noneMatch(p -> fonts.bold(p.getFont()));
    }

    /**
     * Whether a run of four words or more on the line next above or below line {@code l} (its baseline 0.8 to 1.8 times
     * the size away) starts left of {@code before}'s end and ends right of {@code after}'s start, each by an em.
     */
    private boolean runAcross(int l, Run before, Run after) {
        TextPosition end = before.words().getLast().getLast(), start = after.words().getFirst().getFirst();
        float size = Math.max(size(start), 4), baseline = start.getYDirAdj();
        float from = end.getXDirAdj() + end.getWidthDirAdj() - size, to = start.getXDirAdj() + size;
        for (int o = 0; o < lines.size(); o++) {
            if (o == l) continue;
            for (Run r : lines.get(o)) {
                TextPosition first = r.words().getFirst().getFirst(), last = r.words().getLast().getLast();
                float pitch = Math.abs(first.getYDirAdj() - baseline);
                if (r.words().size() >= 4 && pitch >= 0.8f * size && pitch <= 1.8f * size && Math.abs(size(first) - size(start)) < 0.5f
                        && first.getXDirAdj() <= from && last.getXDirAdj() + last.getWidthDirAdj() >= to) return true;
            }
        }
        return false;
    }

    private void addSplitAtColumns() {
        List<float[]> edges = new ArrayList<>(); // x and baseline of each edge shown
        List<float[]> gutters = new ArrayList<>(); // left, right and baseline of each gap between two cells of a line
        for (List<Run> line : lines) {
            for (int k = 0; k < line.size(); k++) {
                Run r = line.get(k);
                if (!cellLike(r)) continue;
                List<List<TextPosition>> words = r.words();
                if (line.size() >= 2) edges.add(place(words.getFirst()));
                for (int i = 1; i < words.size(); i++) if (apartInLine(words, i)) edges.add(place(words.get(i)));
                if (k > 0 && cellLike(line.get(k - 1))) {
                    List<TextPosition> before = line.get(k - 1).words().getLast();
                    TextPosition end = before.getLast();
                    gutters.add(new float[] {end.getXDirAdj() + end.getWidthDirAdj(), words.getFirst().getFirst().getXDirAdj(), words.getFirst().getFirst().getYDirAdj()});
                }
            }
        }
        for (List<Run> line : lines) {
            for (Run r : line) {
                List<List<TextPosition>> words = r.words();
                List<List<TextPosition>> part = new ArrayList<>();
                for (int i = 0; i < words.size(); i++) {
                    // Word's bullet "o" is a marker too: its item's text stays with it
                    if (i > 0 && !(i == 1 && r.letterBullet()) && cellLike(r) && columnStart(words, i, edges, gutters)) {
                        add(part, r.letterBullet() && part.getFirst() == words.getFirst(), r.out());
                        part = new ArrayList<>();
                    }
                    part.add(words.get(i));
                }
                add(part, r.letterBullet() && part.getFirst() == words.getFirst(), r.out());
            }
        }
    }

    /** Whether a run may be cut into cells: not code nor right-to-left, and short as a sheet's row of cells is. */
    private static boolean cellLike(Run r) {
        return r.splittable() && r.words().size() <= MAX_ROW_WORDS;
    }

    private static float[] place(List<TextPosition> word) {
        return new float[] {word.getFirst().getXDirAdj(), word.getFirst().getYDirAdj()};
    }

    /**
     * Whether word {@code i} of a run may start a cell: 0.4 em from the word before, and a letter before it (not a list
     * marker, a checkbox ☐ before its option, nor a page or section number before its title), or a figure after figures
     * (a table's row whose widest figures stand closer than a segment gap: "208 1,271.7 (1,098.9–1,444.5)"; a dash
     * for none is a figure: "— — 45,000").
     */
    private static boolean mayStartCell(List<List<TextPosition>> words, int i) {
        if (gap(words.get(i - 1), words.get(i)) < 0.4f * Math.max(size(words.get(i).getFirst()), 4)) return false;
        if (i == 1 && marker(List.of(words.getFirst()))) return false;
        StringBuilder before = new StringBuilder();
        for (List<TextPosition> w : words.subList(0, i)) for (TextPosition p : w) before.append(p.getUnicode());
        // only symbols before it (a checkbox or a bullet, in one or more glyphs), or only a number (a page number
        // before a running title, a section number before its title in a contents line)
        return before.codePoints().anyMatch(Character::isLetter) || FIGURES.matcher(before).matches() && figure(words.get(i));
    }

    /** Whether {@code word} is a {@link #FIGURE}. */
    private static boolean figure(List<TextPosition> word) {
        StringBuilder sb = new StringBuilder();
        for (TextPosition p : word) sb.append(p.getUnicode());
        return FIGURE.matcher(sb.toString().strip()).matches();
    }

    /** A figure as a table's cell holds it: a sign, currency, separators, a percent, brackets, a range; or a dash for none. */
    private static final Pattern FIGURE = Pattern.compile("[-+(]?[$€£]?\\d[\\d,.%()–-]*|[—–-]");
    /** Figures one after another, as {@link #FIGURE}s glued or spaced. */
    private static final Pattern FIGURES = Pattern.compile("([-+(]?[$€£]?\\d|[—–-])[\\d,.%()—–\\s$€£+-]*");

    /** Whether word {@code i} stands apart in its run: {@link #mayStartCell}, and over twice the run's other gaps. */
    private static boolean apartInLine(List<List<TextPosition>> words, int i) {
        if (!mayStartCell(words, i)) return false;
        List<Float> others = new ArrayList<>();
        for (int j = 1; j < words.size(); j++) if (j != i) others.add(gap(words.get(j - 1), words.get(j)));
        if (others.isEmpty()) return true;
        others.sort(null);
        return gap(words.get(i - 1), words.get(i)) > 2 * others.get(others.size() / 2);
    }

    private static boolean columnStart(List<List<TextPosition>> words, int i, List<float[]> edges, List<float[]> gutters) {
        if (!mayStartCell(words, i)) return false;
        TextPosition first = words.get(i).getFirst(), previous = words.get(i - 1).getLast();
        float x = first.getXDirAdj(), y = first.getYDirAdj(), size = Math.max(size(first), 4);
        float gapLeft = previous.getXDirAdj() + previous.getWidthDirAdj();
        int atEdge = 0, inGutter = 0;
        for (float[] e : edges) if (Math.abs(e[0] - x) <= 1 && near(e[1], y, size)) atEdge++;
        // or the gap before the word lies in the gutter between two cells of other lines (a header over
        // right-aligned numbers: "Quantity Revenue" over "5   5000")
        for (float[] g : gutters) if (Math.min(x, g[1]) - Math.max(gapLeft, g[0]) >= 1 && near(g[2], y, size)) inGutter++;
        return atEdge >= COLUMN_WITNESSES || inGutter >= COLUMN_WITNESSES;
    }

    /** Whether a baseline is another line's within ten lines of {@code y}. */
    private static boolean near(float baseline, float y, float size) {
        float dy = Math.abs(baseline - y);
        return dy > 0.5f * size && dy <= 10 * size;
    }

    private boolean mono(List<List<TextPosition>> words) {
        int mono = 0, all = 0;
        for (List<TextPosition> w : words) {
            for (TextPosition p : w) {
                if (fonts.mono(p.getFont())) mono++;
                all++;
            }
        }
        return mono * 2 > all;
    }

    /**
     * Whether a line's words (left to right) start with a lone "o" set apart by a tab: at least 0.75 em to the next
     * word and, when the line has other gaps to compare, more than twice their median (a justified line stretches all
     * its spaces alike). Word's second-level bullet is a Courier "o", read as {@link #WHITE_BULLET}.
     */
    private static boolean letterBullet(List<List<TextPosition>> byX) {
        if (byX.size() < 2 || byX.getFirst().size() != 1 || !"o".equals(byX.getFirst().getFirst().getUnicode())) return false;
        float gap = gap(byX.get(0), byX.get(1));
        if (gap < 0.75f * size(byX.get(1).getFirst())) return false;
        List<Float> others = new ArrayList<>();
        for (int i = 2; i < byX.size(); i++) others.add(gap(byX.get(i - 1), byX.get(i)));
        if (others.size() < 2) return true;
        others.sort(null);
        return gap > 2 * others.get(others.size() / 2);
    }

    /**
     * The words of a line (left to right) that follow a space a justified line stretched: three or more single words
     * in a row whose gaps are equal to a third of a point or 3 %, of differing widths, two thirds of them with letters
     * (all of them when there are three). Justification widens every space of a line alike, so a narrow column's line
     * ("strong   and   cheap   baseline") can space its words wider than {@link #SEGMENT_GAP} and fell apart into
     * one-word segments; a table's row leaves gaps of its column pitch less each cell's width, which differ as the
     * cells' widths do, its cells often hold more than a word, and a row of figures of one width set at one pitch is
     * left to its gaps.
     */
    private static Set<List<TextPosition>> afterJustifiedSpaces(List<List<TextPosition>> byX) {
        Set<List<TextPosition>> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        int start = 0;
        for (int i = 2; i <= byX.size(); i++) {
            if (i < byX.size() && evenGaps(gap(byX.get(i - 2), byX.get(i - 1)), gap(byX.get(i - 1), byX.get(i)))) continue;
            // words start .. i-1 are evenly spaced
            List<List<TextPosition>> stretch = byX.subList(start, i);
            if (stretch.size() >= 3 && justifiedWords(stretch)) out.addAll(stretch.subList(1, stretch.size()));
            start = i - 1;
        }
        return out;
    }

    private static boolean evenGaps(float a, float b) {
        return a > 0 && Math.abs(a - b) <= Math.max(0.34f, 0.03f * a);
    }

    private static boolean justifiedWords(List<List<TextPosition>> words) {
        float narrowest = Float.MAX_VALUE, widest = 0;
        int lettered = 0;
        for (List<TextPosition> w : words) {
            // one word: no space inside it (a space glyph drawn at its end is no gap in it)
            int from = 0, to = w.size();
            while (from < to && blank(w.get(from))) from++;
            while (to > from && blank(w.get(to - 1))) to--;
            for (int i = from + 1; i < to; i++) if (apart(w.get(i - 1), w.get(i))) return false;
            TextPosition last = w.getLast();
            float width = last.getXDirAdj() + last.getWidthDirAdj() - w.getFirst().getXDirAdj();
            narrowest = Math.min(narrowest, width);
            widest = Math.max(widest, width);
            if (w.stream().anyMatch(p -> p.getUnicode() != null && p.getUnicode().codePoints().anyMatch(Character::isLetter))) lettered++;
        }
        return widest >= 1.3f * narrowest && lettered * 3 >= words.size() * 2 && (words.size() > 3 || lettered == 3);
    }

    private static float gap(List<TextPosition> a, List<TextPosition> b) {
        TextPosition last = a.getLast();
        return b.getFirst().getXDirAdj() - (last.getXDirAdj() + last.getWidthDirAdj());
    }


    /**
     * Whether {@code number} is a number set beside a heading in type 1.3 times its size or more, a gap apart (an
     * InDesign report's "3" standing over the two lines of "Shape market forces to drive / security and resilience"):
     * it stands on its own, so the heading's lines are read as lines, not the number's line with one of them.
     */
    private static boolean dropNumber(List<TextPosition> number, List<TextPosition> next) {
        String digits = text(number).strip();
        TextPosition first = next.stream().filter(p -> !blank(p)).findFirst().orElse(null);
        TextPosition last = number.getLast();
        return digits.matches("\\d{1,2}") && first != null && Character.isLetter(first.getUnicode().codePointAt(0))
                && size(number.getFirst()) >= 1.3f * size(first)
                && first.getXDirAdj() - (last.getXDirAdj() + last.getWidthDirAdj()) > 0.5f * size(first);
    }

    /** True when the run so far is only a list marker (a bullet or "3."): its text follows after the gap. */
    private static boolean marker(List<List<TextPosition>> run) {
        if (run.size() != 1) return false;
        StringBuilder sb = new StringBuilder();
        for (TextPosition p : run.getFirst()) sb.append(p.getUnicode());
        return Structure.MARKER_ONLY.matcher(sb.toString().strip()).matches();
    }

    /** A segment of {@code words} added to {@code out}; {@code letterBullet}: its first word is Word's bullet "o". */
    private void add(List<List<TextPosition>> words, boolean letterBullet, List<Segment> out) {
        List<List<LogicalOrder.Glyph>> glyphs = new ArrayList<>();
        Map<Float, Integer> sizes = new HashMap<>();
        int bold = 0, italic = 0, mono = 0, chars = 0, plainLetters = 0;
        float x = Float.MAX_VALUE, right = -Float.MAX_VALUE, top = Float.MAX_VALUE, bottom = -Float.MAX_VALUE;
        for (List<TextPosition> w : words) {
            glyphs.add(asBullet(w));
            for (TextPosition p : w) {
                float size = Math.round(size(p) * 2) / 2f;
                sizes.merge(size, 1, Integer::sum);
                if (fonts.bold(p.getFont())) bold++;
                else if (p.getUnicode().codePoints().anyMatch(Character::isLetter)) plainLetters++;
                if (fonts.italic(p.getFont())) italic++;
                if (fonts.mono(p.getFont())) mono++;
                chars++;
                float base = p.getYDirAdj();
                // a space drawn as a glyph before the text (a line indented with spaces, as code is) is no ink: the
                // segment starts at its first letter
                if (!p.getUnicode().isBlank()) x = Math.min(x, p.getXDirAdj());
                right = Math.max(right, p.getXDirAdj() + p.getWidthDirAdj());
                top = Math.min(top, base - Math.max(p.getHeightDir(), 0.7f * size));
                bottom = Math.max(bottom, base + 0.2f * size);
            }
        }
        String text = (words.stream().anyMatch(cutBack::contains) ? LogicalOrder.lineByPosition(glyphs) : LogicalOrder.line(glyphs)).strip();
        if (text.isEmpty() || x == Float.MAX_VALUE) return;
        if (letterBullet) text = WHITE_BULLET + text.substring(1);
        float size = sizes.entrySet().stream().max(Map.Entry.<Float, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).orElse(0f);
        out.add(new Segment(text, x, top, right, bottom, size, bold * 2 > chars, italic * 2 > chars, mono * 2 > chars, chars, firstWord(words),
                plainLetters, raisedMark(words, size)));
    }

    /**
     * Whether {@code words} start with a note's mark set raised in smaller type before more text ("¹ 2020 estimate",
     * "¹The code"): one to three figures or note signs (* † ‡ § ¶ ∗), each at most 0.8 of {@code size} (the run's usual
     * size) with its baseline over the run's last glyph's by 0.15 of it or more, and the text after it set as the run is.
     */
    static boolean raisedMark(List<List<TextPosition>> words, float size) {
        List<TextPosition> glyphs = words.stream().flatMap(List::stream).toList();
        if (glyphs.isEmpty() || size <= 0) return false;
        float baseline = glyphs.getLast().getYDirAdj();
        int mark = 0;
        while (mark < glyphs.size() && mark <= 3) {
            TextPosition p = glyphs.get(mark);
            String c = p.getUnicode();
            boolean sign = c != null && c.length() == 1 && (Character.isDigit(c.charAt(0)) || "*†‡§¶∗".indexOf(c.charAt(0)) >= 0);
            if (!sign || size(p) > 0.8f * size || p.getYDirAdj() > baseline - 0.15f * size) break;
            mark++;
        }
        if (mark == 0 || mark > 3) return false;
        // the text after the mark is set as the run is: a raised label of more than a number ("³⁽ⁱⁱ⁾⇒") is no mark
        TextPosition after = glyphs.subList(mark, glyphs.size()).stream().filter(p -> !blank(p)).findFirst().orElse(null);
        return after != null && (size(after) > 0.8f * size || after.getYDirAdj() > baseline - 0.15f * size);
    }

    /** The width of the first word of {@code words} (points): up to its first space glyph, or its end. */
    private static float firstWord(List<List<TextPosition>> words) {
        List<TextPosition> lead = words.getFirst();
        float from = Float.NaN, to = 0;
        for (TextPosition p : lead) {
            boolean blank = p.getUnicode() == null || p.getUnicode().isBlank();
            if (blank && !Float.isNaN(from)) break;
            if (blank) continue;
            if (Float.isNaN(from)) from = p.getXDirAdj();
            to = p.getXDirAdj() + p.getWidthDirAdj();
        }
        return Float.isNaN(from) ? 0 : Math.max(0, to - from);
    }

    /**
     * The line's words that stand in one cell of a ruled table, as one line of that cell; a left-to-right line as its
     * runs between gaps wider than {@link #CELL_RUN_GAP} (text columns inside one ruled box, {@link RuledTable#add}).
     */
    private static void addToCell(RuledTable table, int cell, List<List<TextPosition>> words) {
        boolean rightToLeft = words.stream().flatMap(List::stream).anyMatch(p -> p.getUnicode() != null && LogicalOrder.hasRightToLeft(p.getUnicode()));
        List<List<TextPosition>> byX = new ArrayList<>(words);
        if (!rightToLeft) byX.sort(Comparator.comparingDouble(w -> w.getFirst().getXDirAdj()));
        int start = 0;
        float right = -Float.MAX_VALUE;
        for (int i = 0; i < byX.size(); i++) {
            List<TextPosition> w = byX.get(i);
            float left = w.getFirst().getXDirAdj();
            // a list marker keeps its text after the gap
            if (!rightToLeft && i > start && left - right > CELL_RUN_GAP * Math.max(size(w.getFirst()), 4) && !(i == start + 1 && marker(byX.subList(start, i)))) {
                addRun(table, cell, byX.subList(start, i));
                start = i;
            }
            for (TextPosition p : w) right = Math.max(right, p.getXDirAdj() + p.getWidthDirAdj());
        }
        addRun(table, cell, byX.subList(start, byX.size()));
    }

    private static void addRun(RuledTable table, int cell, List<List<TextPosition>> words) {
        List<List<LogicalOrder.Glyph>> glyphs = new ArrayList<>();
        float x = Float.MAX_VALUE, right = -Float.MAX_VALUE, top = Float.MAX_VALUE, bottom = -Float.MAX_VALUE;
        for (List<TextPosition> w : words) {
            glyphs.add(asBullet(w));
            for (TextPosition p : w) {
                x = Math.min(x, p.getXDirAdj());
                right = Math.max(right, p.getXDirAdj() + p.getWidthDirAdj());
                top = Math.min(top, p.getYDirAdj() - Math.max(p.getHeightDir(), 0.7f * size(p)));
                bottom = Math.max(bottom, p.getYDirAdj());
            }
        }
        table.add(cell, LogicalOrder.line(glyphs), top, bottom, x, right);
    }

    /**
     * The text of glyphs set another way than the page (a column head turned upright), read along their own direction:
     * PDFBox's word breaks between them are unreliable, so a space stands only where a glyph starts more than a quarter
     * of its size past the previous one's end.
     */
    private static String turned(List<TextPosition> cell) {
        List<TextPosition> glyphs = new ArrayList<>(cell);
        // line by line (across their direction), each along it
        glyphs.sort(Comparator.comparingDouble((TextPosition p) -> Math.round(p.getYDirAdj() / Math.max(size(p), 1)))
                .thenComparingDouble(TextPosition::getXDirAdj));
        StringBuilder sb = new StringBuilder();
        float end = Float.NaN;
        for (TextPosition p : glyphs) {
            if (!Float.isNaN(end) && p.getXDirAdj() - end > 0.25f * size(p)) sb.append(' ');
            sb.append(p.getUnicode());
            end = p.getXDirAdj() + p.getWidthDirAdj();
        }
        return sb.toString();
    }

    /**
     * The cell of each of a word's glyphs in the ruled table that holds it (-1: none): where a clip no wider than the
     * table holds a run of the word's glyphs, the cell most of the run stands in. A spreadsheet's head centred over its
     * column runs over into the empty cells beside it, in one clip ("Product/Integration" over two borders), where text
     * cut off at its cell's edge meets the next cell's text, each in its cell's clip ("Purpose and" | "AI 1"); glyphs
     * drawn in no such clip go by where each stands.
     */
    private int[] cells(List<TextPosition> word) {
        int[] cells = new int[word.size()];
        Area[] tables = new Area[word.size()];
        for (int i = 0; i < word.size(); i++) {
            TextPosition p = word.get(i);
            tables[i] = table(p);
            cells[i] = tables[i] != null && tables[i].cells().hasCells() ? tables[i].cells().cellAt(cellX(p), centreY(p)) : -1;
        }
        int start = 0;
        for (int i = 1; i <= word.size(); i++) {
            Rectangle2D clip = glyphClips.get(word.get(i - 1));
            if (i < word.size() && tables[i] == tables[i - 1] && tables[i] != null && clip != null
                    && glyphClips.get(word.get(i)) == clip && clip.getWidth() <= tables[i].width() + 2) continue;
            Map<Integer, Float> widths = new HashMap<>();
            for (int j = start; j < i; j++) if (cells[j] >= 0) widths.merge(cells[j], word.get(j).getWidthDirAdj(), Float::sum);
            int most = widths.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(-1);
            if (most >= 0) for (int j = start; j < i; j++) if (cells[j] >= 0) cells[j] = most;
            start = i;
        }
        return cells;
    }

    /** The ruled table whose area holds the glyph's centre ({@link #cellX}), or null. */
    private Area table(TextPosition p) {
        if (pageTables.isEmpty()) return null;
        float x = cellX(p), y = centreY(p);
        for (Area t : pageTables) if (t.contains(x, y)) return t;
        return null;
    }

    /**
     * The glyph with a height of at most its size. PDFBox takes a glyph's height from its font's metrics (bounding
     * box, cap height, ascent), and a font that states them for vertical writing (a CJK font's "-VK" variant, whose
     * "＊" bullets stand at 1.8 em) made the glyph reach into the line above, so PDFBox's line finding put the bullet
     * on that line ("Symptoms:＊" over "Fever"). Type 3 glyphs keep theirs: their metrics are their own drawing's.
     */
    private static TextPosition withPlausibleHeight(TextPosition p) {
        float size = size(p);
        if (p.getHeightDir() <= size || size <= 0 || p.getFont() instanceof PDType3Font) return p;
        return copy(p, size, p.getUnicode());
    }

    /** The glyph's centre on the page as seen (points from the left); its own left edge for a glyph set another way. */
    private float centreX(TextPosition p) {
        return p.getDir() == pageDir ? p.getXDirAdj() + p.getWidthDirAdj() / 2 : p.getX();
    }

    /** The glyph's centre on the page as seen for a table's cells: in its clip when it was drawn beside it. */
    private float cellX(TextPosition p) {
        Float x = clippedX.get(p);
        return x != null ? x : centreX(p);
    }

    /** The glyph's centre on the page as seen (points from the top); its baseline point for a glyph set another way. */
    private float centreY(TextPosition p) {
        return p.getDir() == pageDir ? p.getYDirAdj() - p.getHeightDir() / 2 : p.getY();
    }

    /**
     * The glyph's vertical size in points. Not {@code getFontSizeInPt}: that follows the horizontal scale too, which
     * pdfTeX's font expansion (microtype) changes from line to line in justified text.
     */
    private static float size(TextPosition p) {
        float sy = Math.abs(p.getTextMatrix().getScalingFactorY());
        return sy > 0 ? sy : p.getFontSizeInPt();
    }
}
