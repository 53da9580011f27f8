package dev.docapi.document;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.fontbox.util.BoundingBox;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDFontDescriptor;
import org.apache.pdfbox.pdmodel.font.PDType3Font;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;

/**
 * A page's glyphs as {@link Lattice} reads them, in Tabula's terms: each printable glyph's box (points from the page's
 * top-left, rounded to 0.01), font size and the word it belongs to, in content order. The smallest glyph's width and
 * height are how close ruling ends must be to be snapped together; a cell's words say whether the ruled area reads as a
 * table ({@link DocumentReader#tabular}).
 */
final class LatticeText extends PDFTextStripper {
    /** A blank glyph this many times taller than the glyphs so far is no text (a tall empty cell's space). */
    private static final float TALL_BLANK = 6f;

    /**
     * A glyph.
     *
     * @param word which word of the page it belongs to (from 0), as PDFBox's text reading splits them
     */
    record Glyph(float left, float top, float width, float height, float fontSize, String text, int word) {
        float right() {
            return left + width;
        }

        float bottom() {
            return top + height;
        }

        /** Whether the glyph lies wholly inside the rectangle. */
        boolean inside(float l, float t, float w, float h) {
            return w > 0 && h > 0 && left >= l && top >= t && right() <= l + w && bottom() <= t + h;
        }
    }

    final List<Glyph> glyphs = new ArrayList<>();
    float minWidth = Float.MAX_VALUE, minHeight = Float.MAX_VALUE;
    private float totalHeight;
    private int counted;
    private int words;

    private LatticeText() {
    }

    /** The glyphs of page {@code page} (from 1). */
    static LatticeText of(PDDocument doc, int page) throws IOException {
        LatticeText t = new LatticeText();
        t.setStartPage(page);
        t.setEndPage(page);
        t.getText(doc);
        return t;
    }

    @Override
    protected void writeString(String string, List<TextPosition> positions) {
        words++;
        for (int i = 0; i < positions.size(); i++) {
            TextPosition p = positions.get(i);
            if (p == null || PageReader.readRule(positions, i)) continue;
            String c = p.getUnicode();
            if (c == null || !printable(c)) continue;
            if (c.equals("\u00A0")) c = " ";
            float h = p.getHeightDir();
            Glyph g = new Glyph(Lattice.round2(p.getXDirAdj()), Lattice.round2(p.getYDirAdj() - h), Lattice.round2(p.getWidthDirAdj()),
                    Lattice.round2(h), p.getFontSizeInPt(), c, words);
            minWidth = Math.min(minWidth, g.width());
            minHeight = Math.min(minHeight, g.height());
            totalHeight += g.height();
            counted++;
            if (c.isBlank()) {
                float average = totalHeight / counted;
                if (average > 0 && g.height() >= average * TALL_BLANK) continue;
                if (p.getFontSizeInPt() > 40 || p.getFontSizeInPt() < 2) continue;
            }
            glyphs.add(g);
        }
    }

    /**
     * A font's glyph height in text space (the height of {@code TextPosition#getHeightDir}), as Tabula's text reading
     * has it: half the font's box, or its cap height, or half its ascent less descent, whichever is smallest and not
     * zero. The smallest glyph's height is how near ruling ends are snapped together.
     */
    @Override
    protected float computeFontHeight(PDFont font) throws IOException {
        BoundingBox box = font.getBoundingBox();
        float lowerLeftY = box.getLowerLeftY() < Short.MIN_VALUE ? -(box.getLowerLeftY() + 65536) : box.getLowerLeftY();
        float height = (box.getUpperRightY() - lowerLeftY) / 2;
        PDFontDescriptor d = font.getFontDescriptor();
        if (d != null) {
            float cap = d.getCapHeight();
            if (cap != 0 && (cap < height || height == 0)) height = cap;
            float ascent = d.getAscent(), descent = d.getDescent();
            if (ascent > 0 && descent < 0 && ((ascent - descent) / 2 < height || height == 0)) height = (ascent - descent) / 2;
        }
        return font instanceof PDType3Font ? font.getFontMatrix().transformPoint(0, height).y : height / 1000;
    }

    private static boolean printable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            Character.UnicodeBlock block = Character.UnicodeBlock.of(c);
            if (!Character.isISOControl(c) && block != null && block != Character.UnicodeBlock.SPECIALS) return true;
        }
        return false;
    }
}
