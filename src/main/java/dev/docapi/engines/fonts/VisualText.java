package dev.docapi.engines.fonts;

import com.ibm.icu.text.ArabicShaping;
import com.ibm.icu.text.ArabicShapingException;
import com.ibm.icu.text.Bidi;

/**
 * Turns text in logical (typed) order into the glyph sequence to draw left to right: Arabic letters are replaced by
 * their contextual presentation forms (initial, medial, final, isolated; lam-alef ligatures) with ICU's
 * {@link ArabicShaping}, then the Unicode bidirectional algorithm puts right-to-left runs in visual order and mirrors
 * brackets ({@link Bidi}). A PDF font has no shaping engine, so this is what makes Arabic join and read right to left;
 * readers such as pdftotext map the presentation forms back and reverse the runs to recover the logical text. Used
 * for watermarks and form field appearances.
 */
public final class VisualText {

    private VisualText() {
    }

    /** @return the visual-order, shaped form of {@code logical} (the paragraph direction follows its first strong character) */
    public static String of(String logical) {
        String shaped;
        try {
            shaped = new ArabicShaping(ArabicShaping.LETTERS_SHAPE | ArabicShaping.TEXT_DIRECTION_LOGICAL
                    | ArabicShaping.LENGTH_GROW_SHRINK).shape(logical);
        } catch (ArabicShapingException e) {
            // Only raised for fixed-length modes that run out of room; GROW_SHRINK never does. Draw unshaped then.
            shaped = logical;
        }
        Bidi bidi = new Bidi(shaped, Bidi.LEVEL_DEFAULT_LTR);
        return bidi.writeReordered(Bidi.DO_MIRRORING | Bidi.REMOVE_BIDI_CONTROLS);
    }
}
