package dev.docapi.text;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterDirection;
import com.ibm.icu.text.Bidi;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.pdfbox.text.TextPosition;

/**
 * Turns the glyphs of one line of a PDF page into its text in logical (typed) order (issue 12 item 2): the one place
 * that does so, for every text output read from glyph positions (extract-text and the AI inputs through
 * {@link TextLayer}, pdf → docx, compare's words).
 * <p>
 * PDFs draw right-to-left text two ways. Most writers (LibreOffice, WeasyPrint, our own watermark) draw the glyphs
 * of a line left to right, so an Arabic word comes in visual order, its last letter first. Tesseract's text layer
 * (OCRmyPDF) draws each right-to-left word in logical order with a mirrored text matrix, so its glyphs move leftwards.
 * Which one a line is, is decided by geometry, not by its characters: when consecutive right-to-left glyphs mostly
 * move leftwards the drawing order is already logical and is kept; otherwise the glyphs are put in left-to-right
 * order of their position and the Unicode bidirectional algorithm (ICU4J, inverse reordering) gives the logical
 * order, mixed-direction lines included ("حَبيبي habibi" stays so). A line without right-to-left characters is
 * returned in drawing order, unchanged.
 */
public final class LogicalOrder {
    /** A gap between glyphs wider than this share of the line's mean glyph width is a space (a space is ~0.5). */
    private static final double SPACE_GAP = 0.3;

    /**
     * One drawn glyph, or a glyph with the combining marks PDFBox merged into it.
     *
     * @param text  its text from the font's Unicode mapping, in logical order (a ligature such as lam-alef is "لا")
     * @param x     its left edge along the line's direction, in points
     * @param width its advance along the line's direction, in points
     */
    public record Glyph(String text, float x, float width) {
        public static Glyph of(TextPosition p) {
            return new Glyph(p.getUnicode() == null ? "" : p.getUnicode(), p.getXDirAdj(), p.getWidthDirAdj());
        }
    }

    private LogicalOrder() {
    }

    /** The glyphs of a PDFBox word, as {@link Glyph}s in the same order. */
    public static List<Glyph> glyphs(List<TextPosition> positions) {
        return positions.stream().map(Glyph::of).toList();
    }

    /**
     * @param words the line's words in drawing order, each its glyphs in drawing order (PDFBox's words: the
     *              line's text is cut where the glyphs leave a gap)
     * @return the line's text in logical order; presentation forms (ligatures, shaped Arabic) are mapped to their
     *         letters (NFKC)
     */
    public static String line(List<List<Glyph>> words) {
        List<List<Glyph>> normalised = normalised(words);
        boolean rtl = normalised.stream().flatMap(List::stream).anyMatch(g -> hasRightToLeft(g.text()));
        // left-to-right text drawn from the right in runs (a date in a right-to-left table's cell, as Word writes it: "19",
        // "/", "09", "/", "1403", each left of the one before) reads by position
        if (!rtl) {
            List<Glyph> runs = runsByPosition(normalised);
            return runs == null ? text(joined(normalised)) : text(spacedByGaps(runs, List.of())).replaceAll("\\s{2,}", " ").strip();
        }
        if (drawnInLogicalOrder(normalised)) return text(joined(normalised));
        return reorder(byPosition(normalised)).replaceAll("\\s{2,}", " ").strip();
    }

    /**
     * A left-to-right line whose words' breaks say nothing of its spaces (words cut from the ones they were drawn in:
     * a line's subscripts drawn in a pass after it, each cut to stand at its place), read glyph by glyph by position,
     * spaced by the gaps; as {@link #line} when a glyph stands on another or the line has right-to-left text.
     *
     * @param words the line's words, each its glyphs (never empty)
     */
    public static String lineByPosition(List<List<Glyph>> words) {
        List<List<Glyph>> normalised = normalised(words);
        List<Glyph> glyphs = new ArrayList<>(), blanks = new ArrayList<>();
        for (List<Glyph> w : normalised) for (Glyph g : w) (g.text().isBlank() ? blanks : glyphs).add(g);
        glyphs.sort(Comparator.comparingDouble(Glyph::x));
        if (glyphs.stream().anyMatch(g -> hasRightToLeft(g.text())) || !apart(glyphs)) return line(words);
        return text(spacedByGaps(glyphs, blanks)).strip();
    }

    /** Whether no glyph of {@code sorted} (by position) starts before the middle of the one before: none stands on another. */
    private static boolean apart(List<Glyph> sorted) {
        for (int i = 1; i < sorted.size(); i++) if (sorted.get(i).x() < sorted.get(i - 1).x() + sorted.get(i - 1).width() / 2) return false;
        return true;
    }

    /**
     * The words' glyphs with presentation forms (ligatures, shaped Arabic) mapped to their letters (NFKC), a glyph the
     * font maps to nothing left out; an empty word is left out.
     */
    private static List<List<Glyph>> normalised(List<List<Glyph>> words) {
        List<List<Glyph>> normalised = new ArrayList<>();
        for (List<Glyph> word : words) {
            List<Glyph> w = new ArrayList<>();
            for (Glyph g : word) {
                // a glyph the font maps to nothing comes as U+0000 from PDFBox; a no-break space is a space (a cell
                // of one is blank, a cell's text ends before it)
                Glyph n = new Glyph(presentationFormsToLetters(g.text()).replace("\0", "").replace('\u00a0', ' '), g.x(), g.width());
                if (!n.text().isEmpty()) w.add(n);
            }
            if (!w.isEmpty()) normalised.add(w);
        }
        return normalised;
    }

    /**
     * The glyphs left to right, spaced by their gaps ({@link #spacedByGaps}): by position, not word by word, as PDFBox's
     * words of a visual-order line can hold glyphs from both its ends, so its word breaks say nothing about where the
     * spaces go; the gaps between the glyphs do.
     */
    private static List<Glyph> byPosition(List<List<Glyph>> words) {
        List<Glyph> visual = new ArrayList<>();
        for (List<Glyph> w : words) visual.addAll(w);
        visual.sort(Comparator.comparingDouble(Glyph::x));
        return spacedByGaps(visual, List.of());
    }

    /**
     * Glyphs in position order with a space wherever the gap to the next glyph is wider than
     * {@link #SPACE_GAP} of the line's mean glyph width (a writer that draws no space glyphs leaves such a gap), or
     * where one of {@code spaces} (space glyphs drawn, not among {@code glyphs}) stands between them, its middle within
     * a point of the gap: Hangul's wide glyphs leave a space narrower than a fraction of their width.
     */
    private static List<Glyph> spacedByGaps(List<Glyph> glyphs, List<Glyph> spaces) {
        double mean = glyphs.stream().filter(g -> !g.text().isBlank()).mapToDouble(Glyph::width).average().orElse(0);
        List<Glyph> out = new ArrayList<>();
        for (Glyph g : glyphs) {
            Glyph last = out.isEmpty() ? null : out.getLast();
            float gapFrom = last == null ? 0 : last.x() + last.width();
            boolean drawnSpace = last != null && spaces.stream().anyMatch(b -> b.x() + b.width() / 2 >= gapFrom - 1 && b.x() + b.width() / 2 <= g.x() + 1);
            if (last != null && !last.text().isBlank() && !g.text().isBlank() && (g.x() - gapFrom > SPACE_GAP * mean || drawnSpace)) {
                out.add(new Glyph(" ", last.x() + last.width(), 0));
            }
            out.add(g);
        }
        return out;
    }

    /** True when consecutive right-to-left glyphs mostly move leftwards: Tesseract's logical-order text layer. */
    private static boolean drawnInLogicalOrder(List<List<Glyph>> words) {
        int leftwards = 0, rightwards = 0;
        Glyph previous = null;
        for (List<Glyph> w : words) {
            for (Glyph g : w) {
                if (!hasRightToLeft(g.text())) {
                    previous = null;
                    continue;
                }
                if (previous != null) {
                    if (g.x() < previous.x()) leftwards++;
                    else if (g.x() > previous.x()) rightwards++;
                }
                previous = g;
            }
        }
        return leftwards > rightwards;
    }

    /**
     * The glyphs of a line drawn in runs that are not left to right (a run starts at a glyph wholly left of the one
     * before it: a mark drawn over its letter, or a glyph drawn twice for bold, overlaps it), the runs put left to
     * right; null when the line is drawn left to right. Runs that overlap are read glyph by glyph when no glyph stands
     * on another (a formula's symbols drawn in a pass of their own between its figures: "χ² = 16.9, v = 2"); null when
     * one does (text drawn over text, as a clipped cell's overflow: no order by position reads it).
     */
    private static List<Glyph> runsByPosition(List<List<Glyph>> words) {
        List<List<Glyph>> runs = new ArrayList<>();
        Glyph previous = null;
        for (List<Glyph> w : words) {
            for (Glyph g : w) {
                if (g.text().isBlank()) continue; // the gaps between the runs say where the spaces go
                if (previous == null || g.x() + g.width() <= previous.x() + 0.01f) runs.add(new ArrayList<>());
                runs.getLast().add(g);
                previous = g;
            }
        }
        if (runs.size() < 2) return null;
        runs.sort(Comparator.comparingDouble(LogicalOrder::left));
        List<Glyph> out = new ArrayList<>();
        for (List<Glyph> r : runs) out.addAll(r);
        boolean overlap = false;
        for (int i = 1; i < runs.size(); i++) overlap |= left(runs.get(i)) < right(runs.get(i - 1)) - 0.5f;
        if (!overlap) return out;
        out.sort(Comparator.comparingDouble(Glyph::x));
        return apart(out) ? out : null;
    }

    private static float left(List<Glyph> run) {
        return (float) run.stream().mapToDouble(Glyph::x).min().orElseThrow();
    }

    private static float right(List<Glyph> run) {
        return (float) run.stream().mapToDouble(g -> g.x() + g.width()).max().orElseThrow();
    }

    /**
     * Visual → logical order, glyph by glyph: each glyph stands in the bidi algorithm as one character of its
     * direction, so a glyph's own text (a ligature, a base letter with its marks) is never split or turned around.
     * A left-to-right letter and a right-to-left one next to each other in logical order get a space between them.
     */
    private static String reorder(List<Glyph> visual) {
        StringBuilder classes = new StringBuilder(visual.size());
        for (Glyph g : visual) classes.append(standIn(g.text()));
        Bidi bidi = new Bidi();
        bidi.setReorderingMode(Bidi.REORDER_INVERSE_LIKE_DIRECT);
        bidi.setPara(classes.toString(), paragraphLevel(classes), null);
        StringBuilder out = new StringBuilder();
        char before = ' ';
        for (int i : bidi.getVisualMap()) {
            if (i < 0) continue;
            char now = classes.charAt(i);
            // letters of the two directions touching are two words: Word draws "Python من" with no space between
            // them, the space glyph standing on the Arabic word's other side
            if (strong(before) != 0 && strong(now) != 0 && strong(before) != strong(now)) out.append(' ');
            out.append(visual.get(i).text());
            before = now;
        }
        return out.toString();
    }

    /**
     * The paragraph direction of a line seen in visual order. A right-to-left paragraph starts at the right end, a
     * left-to-right one at the left: right-to-left when the rightmost strong glyph is, unless the leftmost one is
     * left-to-right and the line has more left-to-right words (an English sentence ending in an Arabic word). A word's
     * direction is its first strong glyph's.
     */
    private static byte paragraphLevel(CharSequence classes) {
        int first = 0, last = 0, l = 0, r = 0, word = 0;
        for (int i = 0; i < classes.length(); i++) {
            char c = classes.charAt(i);
            if (Character.isWhitespace(c)) {
                word = 0;
                continue;
            }
            int d = strong(c);
            if (d == 0) continue;
            if (first == 0) first = d;
            last = d;
            if (word == 0) {
                word = d;
                if (d == 1) l++;
                else r++;
            }
        }
        return last == 2 && (first == 2 || r >= l) ? (byte) 1 : (byte) 0;
    }

    /** 1 for a strong left-to-right character, 2 for a strong right-to-left one, 0 otherwise. */
    private static int strong(int c) {
        return switch (UCharacter.getDirection(c)) {
            case UCharacterDirection.LEFT_TO_RIGHT -> 1;
            case UCharacterDirection.RIGHT_TO_LEFT, UCharacterDirection.RIGHT_TO_LEFT_ARABIC -> 2;
            default -> 0;
        };
    }

    /**
     * One character with the bidi class of a glyph's text. A text with strong characters of both directions (a
     * font mapping that gives one glyph the text of a neighbouring run, as WeasyPrint's does) takes its last
     * strong character's: the one the glyph draws.
     */
    private static char standIn(String text) {
        int d = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            int s = strong(c);
            if (s != 0) d = s;
            i += Character.charCount(c);
        }
        if (d == 1) return 'a';
        if (d == 2) return '\u0627';
        char c = text.charAt(0);
        return Character.isSurrogate(c) ? ' ' : c;
    }

    /** The words' glyphs in drawing order, a space between words unless a glyph at the boundary is blank. */
    private static List<Glyph> joined(List<List<Glyph>> words) {
        List<Glyph> out = new ArrayList<>();
        for (List<Glyph> w : words) {
            if (!out.isEmpty() && !out.getLast().text().isBlank() && !w.getFirst().text().isBlank()) out.add(new Glyph(" ", out.getLast().x(), 0));
            out.addAll(w);
        }
        return out;
    }

    private static String text(List<Glyph> glyphs) {
        StringBuilder sb = new StringBuilder();
        for (Glyph g : glyphs) sb.append(g.text());
        return sb.toString();
    }

    /** True when {@code text} has a strong right-to-left character (Arabic, Hebrew, Syriac, Thaana, N'Ko …). */
    public static boolean hasRightToLeft(CharSequence text) {
        for (int i = 0; i < text.length(); ) {
            int c = Character.codePointAt(text, i);
            if (strong(c) == 2) return true;
            i += Character.charCount(c);
        }
        return false;
    }

    /**
     * Presentation forms (U+FB00-U+FDFF, U+FE70-U+FEFF: Latin ligatures such as "ﬁ", the shaped Hebrew and Arabic
     * glyphs fonts map to) to their letters (NFKC), as PDFBox's own text extraction does; other characters are kept.
     */
    static String presentationFormsToLetters(String text) {
        boolean any = false;
        for (int i = 0; i < text.length() && !any; i++) any = presentationForm(text.charAt(i));
        if (!any) return text;
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            sb.append(presentationForm(c) ? Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFKC) : String.valueOf(c));
        }
        return sb.toString();
    }

    private static boolean presentationForm(char c) {
        return c >= 0xFB00 && c <= 0xFDFF || c >= 0xFE70 && c <= 0xFEFF;
    }
}
