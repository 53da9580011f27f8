package dev.docapi.api;

import dev.docapi.core.ApiException;

/** Query parameter checks shared by the list endpoints. */
final class Limits {
    private Limits() {
    }

    /**
     * @throws ApiException 400 {@code invalid_request} when {@code value} is not an integer in [min, max]
     */
    static int limit(String value, int min, int max, int dflt) {
        if (value == null || value.isBlank()) return dflt;
        try {
            int v = Integer.parseInt(value.strip());
            if (v >= min && v <= max) return v;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw ApiException.invalid("'limit' must be an integer from " + min + " to " + max);
    }
}
