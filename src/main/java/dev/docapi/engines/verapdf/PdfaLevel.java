package dev.docapi.engines.verapdf;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * A PDF/A part and conformance level (ISO 19005-1 to -3): A (accessible), B (basic, the visual appearance), U (B with
 * every glyph mapped to Unicode). In JSON and to veraPDF as part and level, e.g. {@code 2b}.
 */
public enum PdfaLevel {
    PDFA_1A, PDFA_1B, PDFA_2A, PDFA_2B, PDFA_2U, PDFA_3A, PDFA_3B, PDFA_3U;

    /** The part and level, e.g. {@code 2b}. */
    @JsonValue
    public String id() {
        return name().substring("PDFA_".length()).toLowerCase(Locale.ROOT);
    }

    /** The part of ISO 19005: 1, 2 or 3. */
    public int part() {
        return Character.getNumericValue(id().charAt(0));
    }

    /** Level U: every glyph mapped to Unicode. */
    public boolean unicode() {
        return id().endsWith("u");
    }
}
