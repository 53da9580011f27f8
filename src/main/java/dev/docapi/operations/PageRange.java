package dev.docapi.operations;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * A {@code [from, to]} page range of a ranges option ({@link OptionField#ranges}): pages counted from 1, inclusive,
 * {@code from <= to} (checked by the option before it is bound).
 */
public record PageRange(int from, int to) {

    /** Binds the request's two-number array. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static PageRange of(int[] pair) {
        return new PageRange(pair[0], pair[1]);
    }
}
