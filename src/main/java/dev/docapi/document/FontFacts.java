package dev.docapi.document;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSNumber;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDFontDescriptor;
import org.apache.pdfbox.pdmodel.font.PDSimpleFont;

/**
 * What a font says of the characters set in it (issue 36): bold, italic, monospace. From the font's name first
 * (subset prefix and all: "ABCDEF+Times-Italic", "Calibri,Bold", "CMTT9"), then its descriptor (weight, flags, italic
 * angle), then, for monospace, its widths (a simple font whose glyphs all have one advance, as IBM's BookMaster has
 * without saying so). Italic lines at body size are run-in headings in some styles; monospace lines are code, never
 * headings. One instance per document read: answers are kept per font object.
 */
final class FontFacts {
    private static final Pattern BOLD = Pattern.compile(".*(bold|black|heavy|medi|demi|cmbx|sfbx|ecbx|-bd|_bd|,b).*");
    /** Italic and oblique faces by name: "Italic", "Oblique", "-It" (Adobe's short form), TeX's cmti/cmsl/sfti, "Kursiv". */
    private static final Pattern ITALIC = Pattern.compile(".*(italic|oblique|slanted|kursiv|-it$|-it[^a-z]|[-,]bdit|boldit|cmti|cmsl|cmbxti|sfti|sfsl|ecti).*");
    /** Monospace families by name; "code" alone is not one ("ArialUnicodeMS"): only the known code faces. */
    private static final Pattern MONO = Pattern.compile(
            ".*(mono|courier|consola|menlo|typewriter|inconsolata|sourcecode|firacode|lucidaconsole|andale|bookmaster|letter ?gothic|ocr-?a|ocr-?b|cmtt|sftt|ectt|txtt|lmtt).*");
    /** At least this many glyph advances, all alike, make a simple font monospace (a tiny subset proves nothing). */
    private static final int MIN_WIDTHS = 20;

    private final Map<PDFont, Boolean> bold = new IdentityHashMap<>();
    private final Map<PDFont, Boolean> italic = new IdentityHashMap<>();
    private final Map<PDFont, Boolean> mono = new IdentityHashMap<>();

    /** Whether the font is bold (or heavier): by name, or the descriptor's force-bold flag or a weight of 600 or more. */
    boolean bold(PDFont font) {
        if (font == null) return false;
        return bold.computeIfAbsent(font, f -> {
            if (BOLD.matcher(name(f)).matches()) return true;
            PDFontDescriptor d = f.getFontDescriptor();
            return d != null && (d.isForceBold() || d.getFontWeight() >= 600);
        });
    }

    /** Whether the font is italic or oblique: by name, the descriptor's italic flag, or a slanted italic angle. */
    boolean italic(PDFont font) {
        if (font == null) return false;
        return italic.computeIfAbsent(font, f -> {
            if (ITALIC.matcher(name(f)).matches()) return true;
            PDFontDescriptor d = f.getFontDescriptor();
            return d != null && (d.isItalic() || Math.abs(d.getItalicAngle()) >= 5);
        });
    }

    /**
     * Whether the font is monospace: by name, or all of a simple font's advances alike. The descriptor's fixed-pitch
     * flag alone does not say so: CJK fonts set it for their full-width glyphs, whose text is prose.
     */
    boolean mono(PDFont font) {
        if (font == null) return false;
        return mono.computeIfAbsent(font, f -> {
            if (MONO.matcher(name(f)).matches()) return true;
            COSArray widths = f instanceof PDSimpleFont ? f.getCOSObject().getCOSArray(COSName.WIDTHS) : null;
            if (widths == null) return false;
            Set<Float> advances = new HashSet<>();
            int drawn = 0;
            for (int i = 0; i < widths.size(); i++) {
                if (!(widths.getObject(i) instanceof COSNumber n) || n.floatValue() <= 0) continue;
                advances.add(n.floatValue());
                drawn++;
            }
            return drawn >= MIN_WIDTHS && advances.size() == 1;
        });
    }

    private static String name(PDFont font) {
        return font.getName() == null ? "" : font.getName().toLowerCase(Locale.ROOT);
    }
}
