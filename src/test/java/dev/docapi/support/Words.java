package dev.docapi.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Word-level comparison of texts, for checks that an output kept its input's words. */
public final class Words {
    private Words() {
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{M}\\p{N}]+");
    private static final Pattern RIGHT_TO_LEFT = Pattern.compile("[\\p{IsArabic}\\p{IsHebrew}]");

    /**
     * The words of a text: runs of letters, marks and digits (punctuation, symbols and markup such as {@code **} or a
     * table's {@code |} are not words, so {@code d(P,Q)} is {@code d P Q} however an extractor spaced it). A hyphen at
     * a line's end before a lower-case letter is taken as a hyphenation ({@code retrie-\nval} is {@code retrieval}),
     * as flowing outputs rejoin it. A right-to-left word is taken in whichever order sorts first, as readers disagree
     * on it (pdftotext gives visual order); the order is checked apart from this.
     */
    public static List<String> of(String text) {
        String joined = text.replaceAll("(\\p{L})-\\R(\\p{Ll})", "$1$2");
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(joined);
        while (m.find()) {
            String w = m.group();
            if (RIGHT_TO_LEFT.matcher(w).find()) {
                String reversed = new StringBuilder(w).reverse().toString();
                if (reversed.compareTo(w) < 0) w = reversed;
            }
            words.add(w);
        }
        return words;
    }

    /** The share of {@code expected}'s words (as a multiset) found in {@code actual}; 1 when there are none. */
    public static double share(List<String> expected, List<String> actual) {
        if (expected.isEmpty()) return 1;
        Map<String, Integer> left = new HashMap<>();
        actual.forEach(w -> left.merge(w, 1, Integer::sum));
        return (double) expected.stream().filter(w -> left.merge(w, -1, Integer::sum) >= 0).count() / expected.size();
    }

    /** Up to {@code limit} of {@code expected}'s words (as a multiset) not in {@code actual}: for failure messages. */
    public static List<String> missing(List<String> expected, List<String> actual, int limit) {
        Map<String, Integer> left = new HashMap<>();
        actual.forEach(w -> left.merge(w, 1, Integer::sum));
        return expected.stream().filter(w -> left.merge(w, -1, Integer::sum) < 0).limit(limit).toList();
    }
}
