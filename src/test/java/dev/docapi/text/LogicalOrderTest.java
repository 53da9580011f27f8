package dev.docapi.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.text.LogicalOrder.Glyph;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines drawn the ways PDF writers draw them, with the logical text each must give. */
class LogicalOrderTest {

    /** Glyphs drawn left to right, 5 pt apart from {@code x}, one per code point unless a glyph text has several. */
    private static List<Glyph> rightwards(float x, String... glyphs) {
        List<Glyph> out = new ArrayList<>();
        for (String g : glyphs) {
            out.add(new Glyph(g, x, 4));
            x += 5;
        }
        return out;
    }

    /** Glyphs drawn right to left from {@code x} (Tesseract's mirrored text matrix). */
    private static List<Glyph> leftwards(float x, String... glyphs) {
        List<Glyph> out = new ArrayList<>();
        for (String g : glyphs) {
            out.add(new Glyph(g, x, 4));
            x -= 5;
        }
        return out;
    }

    @Test
    void anArabicLineDrawnInVisualOrderIsTurnedToLogicalOrder() {
        // "مرحبا بالعالم" drawn as LibreOffice draws it: the second word leftmost, each word last letter first
        List<Glyph> second = rightwards(0, "م", "ل", "ا", "ع", "ل", "ا", "ب");
        List<Glyph> first = rightwards(45, "ا", "ب", "ح", "ر", "م");
        assertThat(LogicalOrder.line(List.of(second, first))).isEqualTo("مرحبا بالعالم");
        // the same words drawn in the other order still land by position
        assertThat(LogicalOrder.line(List.of(first, second))).isEqualTo("مرحبا بالعالم");
    }

    @Test
    void aLineAlreadyInLogicalOrderIsKept() {
        // Tesseract: each word in logical order, moving leftwards
        List<Glyph> first = leftwards(100, "م", "ر", "ح", "ب", "ا");
        List<Glyph> second = leftwards(70, "ب", "ا", "ل", "ع", "ا", "ل", "م");
        assertThat(LogicalOrder.line(List.of(first, second))).isEqualTo("مرحبا بالعالم");
    }

    @Test
    void aMixedLineKeepsBothRunsInLogicalOrder() {
        // right-to-left paragraph: "habibi" on the left, the Arabic word (last letter first) on the right
        List<Glyph> latin = rightwards(0, "h", "a", "b", "i", "b", "i");
        List<Glyph> arabic = rightwards(40, "ي", "ب", "ي", "ب", "حَ");
        assertThat(LogicalOrder.line(List.of(latin, arabic))).isEqualTo("حَبيبي habibi");
        // left-to-right paragraph that starts with the Arabic word
        List<Glyph> arabicFirst = rightwards(0, "ي", "ب", "ي", "ب", "حَ");
        List<Glyph> latinAfter = rightwards(40, "h", "a", "b", "i", "b", "i");
        assertThat(LogicalOrder.line(List.of(arabicFirst, latinAfter))).isEqualTo("حَبيبي habibi");
        // an English sentence with an Arabic word inside and at its end
        List<Glyph> english = rightwards(0, "T", "h", "e", " ", "w", "o", "r", "d", " ");
        List<Glyph> salam = rightwards(45, "م", "لا", "س");
        List<Glyph> means = rightwards(65, " ", "m", "e", "a", "n", "s", " ");
        List<Glyph> end = rightwards(100, "م", "لا", "س");
        assertThat(LogicalOrder.line(List.of(english, salam, means, end))).isEqualTo("The word سلام means سلام");
    }

    /**
     * Word draws a Latin word inside an Arabic sentence touching the Arabic word after it ("R و Python من" in
     * Docling's right_to_left_01.pdf): the space glyph between them stands on the Arabic word's other side, so no gap
     * says where it goes. Letters of the two directions touching are two words.
     */
    @Test
    void aLatinWordTouchingAnArabicWordIsAWordOfItsOwn() {
        List<Glyph> next = rightwards(0, "ن", "م", " ");
        List<Glyph> python = rightwards(15, "P", "y", "t", "h", "o", "n");
        List<Glyph> and = rightwards(45, " ", "و", " ", "R", " ", "ة", "غ", "ل", "ب");
        assertThat(LogicalOrder.line(List.of(next, python, and))).isEqualTo("بلغة R و Python من");
        // a Latin word with spaces of its own is not given another
        List<Glyph> spaced = rightwards(15, " ", "P", "y", "t", "h", "o", "n");
        assertThat(LogicalOrder.line(List.of(rightwards(0, "ن", "م"), spaced, rightwards(50, " ", "و")))).isEqualTo("و Python من");
    }

    @Test
    void presentationFormsBecomeLettersAndALigatureIsNotTurnedAround() {
        // "سلام" drawn with shaped forms: final meem, lam-alef ligature, initial seen
        List<Glyph> word = rightwards(0, "\uFEE2", "\uFEFB", "\uFEB3");
        assertThat(LogicalOrder.line(List.of(word))).isEqualTo("سلام");
    }

    @Test
    void numbersInsideArabicKeepTheirDigitOrder() {
        // "عام 2024" in a right-to-left paragraph: digits left to right, at the left of the word
        List<Glyph> year = rightwards(0, "2", "0", "2", "4");
        List<Glyph> word = rightwards(30, "م", "ا", "ع");
        assertThat(LogicalOrder.line(List.of(year, word))).isEqualTo("عام 2024");
    }

    @Test
    void wordsThatHoldGlyphsFromBothEndsOfTheLineAreOrderedByPosition() {
        // "قال لا للحرب 2024" as PDFBox groups LibreOffice's glyphs: the digits (left end) in one word with the
        // first word (right end), the writer's spaces inside words
        List<Glyph> spacesAndWar = new ArrayList<>(List.of(new Glyph(" ", 81, 6), new Glyph(" ", 117, 6), new Glyph(" ", 123, 0)));
        spacesAndWar.addAll(rightwards(87, "ب", "ر", "ح", "ل", "ل"));
        List<Glyph> no = List.of(new Glyph("لا", 123, 6));
        List<Glyph> saidAndYear = new ArrayList<>(rightwards(135, "ل", "ا", "ق"));
        saidAndYear.addAll(rightwards(57, "2", "0", "2", "4"));
        assertThat(LogicalOrder.line(List.of(spacesAndWar, no, saidAndYear))).isEqualTo("قال لا للحرب 2024");
    }

    @Test
    void aLatinLineIsReturnedInDrawingOrder() {
        List<Glyph> hello = rightwards(0, "H", "e", "l", "l", "o");
        List<Glyph> world = rightwards(40, "W", "o", "r", "l", "d");
        assertThat(LogicalOrder.line(List.of(hello, world))).isEqualTo("Hello World");
        assertThat(LogicalOrder.line(List.of(rightwards(0, "e", "ﬀ", "ort")))).isEqualTo("effort");
    }

    /**
     * Left-to-right text drawn in runs from the right (Word's date in a right-to-left table's cell: "19", "/", "09",
     * "/", "1403", each left of the one before) reads left to right; text drawn over text (a clipped cell's overflow
     * under its neighbour's text) and a mark drawn over its letter keep their drawing order.
     */
    @Test
    void aLatinLineDrawnInRunsFromTheRightReadsByPosition() {
        List<List<Glyph>> date = List.of(rightwards(40, "1", "9"), rightwards(35, "/"), rightwards(25, "0", "9"), rightwards(20, "/"),
                rightwards(0, "1", "4", "0", "3"), List.of(new Glyph(" ", -5, 3)));
        assertThat(LogicalOrder.line(date)).isEqualTo("1403/09/19");
        // "Sub-category" clipped in its cell, "Production" drawn after it over the same place
        assertThat(LogicalOrder.line(List.of(rightwards(10, "S", "u", "b"), rightwards(0, "P", "r", "o", "d", "u", "c", "t")))).isEqualTo("Sub Product");
        assertThat(LogicalOrder.line(List.of(List.of(new Glyph("e", 0, 4), new Glyph("\u0301", 0, 0), new Glyph("t", 5, 4))))).isEqualTo("e\u0301t");
        // a section's number drawn after its title, to the title's left
        assertThat(LogicalOrder.line(List.of(rightwards(20, "I", "n", "t", "r", "o"), rightwards(0, "1")))).isEqualTo("1 Intro");
    }

    /**
     * A formula drawn in passes, one a font (a Times line's figures, then its italic letters, then its Symbol signs, each
     * pass from the left), reads by position: the passes' runs span one another but no glyph stands on another.
     */
    @Test
    void aFormulaDrawnInOnePassAFontReadsByPosition() {
        List<List<Glyph>> figures = List.of(rightwards(7, "2"), rightwards(21, "1", "6", ","), rightwards(54, "2", ","), rightwards(80, "0", ".", "5"));
        List<List<Glyph>> letters = List.of(rightwards(40, "v"), rightwards(66, "p"));
        List<List<Glyph>> signs = List.of(rightwards(0, "χ"), rightwards(14, "="), rightwards(47, "="), rightwards(73, "<"));
        List<List<Glyph>> line = new ArrayList<>(figures);
        line.addAll(letters);
        line.addAll(signs);
        assertThat(LogicalOrder.line(line)).isEqualTo("χ 2 = 16, v = 2, p < 0.5");
    }
}
