package dev.docapi.operations.pagenumbers;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a page number sits, named as the reader sees the page (spec §4.4 {@code page-numbers} {@code position}). */
public enum PageNumberPosition {
    BOTTOM_CENTER, BOTTOM_RIGHT, BOTTOM_LEFT, TOP_CENTER, TOP_RIGHT, TOP_LEFT;

    /** The option value, e.g. {@code bottom-center}. */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    boolean top() {
        return name().startsWith("TOP");
    }

    boolean left() {
        return name().endsWith("LEFT");
    }

    boolean right() {
        return name().endsWith("RIGHT");
    }
}
