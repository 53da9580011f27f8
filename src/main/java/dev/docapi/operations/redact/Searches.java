package dev.docapi.operations.redact;

import com.fasterxml.jackson.annotation.JsonValue;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What redact looks for (issue 27): literal texts, the caller's regular expressions (Java's {@link Pattern} syntax,
 * compiled at validation so a bad one answers 400) and presets, each a pattern and a check of what it matched (an
 * IBAN's mod-97 checksum, a card number's Luhn digit). Matching is bounded in time ({@link #find}): a regex that
 * backtracks without end on a hostile page stops with {@link TooSlow}, never holds the job.
 */
final class Searches {
    /** The presets: a pattern and a check of each match; in JSON by their names, e.g. {@code credit_card}. */
    enum Preset {
        EMAIL(Pattern.compile("[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}"), m -> true),
        // international (+…, 00…) or national numbers in groups, 9-15 digits (E.164), so dates and counts stay
        PHONE(Pattern.compile("(?<![\\w+])(?:\\+|00)?(?:\\(\\d{1,4}\\)[ .\\-/]?)?\\d{1,4}(?:[ .\\-/]?\\(?\\d{1,5}\\)?){1,6}(?![\\w])"),
                m -> digits(m).length() >= 9 && digits(m).length() <= 15),
        // printed in groups of four or unbroken; the country's length is not checked, the mod-97 checksum is
        IBAN(Pattern.compile("\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\\b"), Searches::ibanChecksum),
        CREDIT_CARD(Pattern.compile("(?<![\\d-])\\d(?:[ -]?\\d){12,18}(?![\\d-])"), Searches::luhn),
        IP_ADDRESS(Pattern.compile(
                "(?<![\\d.])(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(?![\\d.]\\d)"), m -> true);

        private final Pattern pattern;
        private final Predicate<String> check;

        Preset(Pattern pattern, Predicate<String> check) {
            this.pattern = pattern;
            this.check = check;
        }

        /** The option value, e.g. {@code credit_card}. */
        @JsonValue
        String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One thing to look for: its pattern, the check each match must pass, and whether it is also matched in the text
     * with letter-spaced runs closed up ({@link #closedUp}; a literal text carries its spaced forms in its pattern).
     */
    record Search(Pattern pattern, Predicate<String> check, boolean closedUpToo) {
    }

    /** Thrown from {@link Bounded#charAt} past the deadline; {@link #find} turns it into {@link Found#tooSlow}. */
    static final class TooSlow extends RuntimeException {
        TooSlow() {
            super(null, null, false, false);
        }
    }

    private final List<Search> searches;
    private final List<String> sources;

    private Searches(List<Search> searches, List<String> sources) {
        this.searches = searches;
        this.sources = sources;
    }

    /**
     * The searches for {@code texts} (whitespace in them matches any run of whitespace, a line break included),
     * {@code patterns} and {@code presets}; {@code ignoreCase} applies to the first two.
     *
     * @throws IllegalArgumentException naming the option and the first pattern that does not compile
     */
    static Searches of(List<String> texts, List<String> patterns, List<Preset> presets, boolean ignoreCase) {
        int flags = ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
        List<Search> out = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (String t : texts) {
            String[] words = t.strip().split("\\s+");
            List<String> quoted = new ArrayList<>();
            for (String w : words) quoted.add(Pattern.quote(w));
            out.add(new Search(Pattern.compile(String.join("\\s+", quoted) + spaced(t), flags), m -> true, false));
            sources.add("text '" + t + "'");
        }
        for (int i = 0; i < patterns.size(); i++) {
            try {
                out.add(new Search(Pattern.compile(patterns.get(i), flags | Pattern.UNICODE_CHARACTER_CLASS), m -> !m.isEmpty(), true));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("'patterns' item " + (i + 1) + " is not a valid regular expression (Java syntax): "
                        + e.getDescription() + " near index " + e.getIndex());
            }
            sources.add("pattern '" + patterns.get(i) + "'");
        }
        for (Preset p : presets) {
            out.add(new Search(p.pattern, p.check, true));
            sources.add("preset '" + p.id() + "'");
        }
        return new Searches(out, sources);
    }

    /**
     * The spaced forms of a literal text, as an alternative ({@code |…}): its letters with or without whitespace
     * between any two of them, as readers show text set with character spacing ({@code Tc}) or wide {@code TJ} gaps
     * ("S E C R E T"), or a word drawn in pieces with a kerning gap ("SEC RET"), not glued to a letter or digit on
     * either side (so "in" does not match "hi not"). Empty for a single character.
     */
    private static String spaced(String text) {
        String letters = text.replaceAll("\\s+", "");
        if (letters.codePointCount(0, letters.length()) < 2) return "";
        List<String> quoted = new ArrayList<>();
        letters.codePoints().forEach(c -> quoted.add(Pattern.quote(Character.toString(c))));
        return "|(?<![\\p{L}\\p{N}])" + String.join("\\s*", quoted) + "(?![\\p{L}\\p{N}])";
    }

    /**
     * A letter-spaced run: three or more single characters each separated by whitespace ("S E C R E T",
     * "j o e @ x . o r g"), as readers show text set with character spacing; readers put letters set far apart on
     * lines of their own, so a run may cross line breaks, but then only when it holds a letter (not a table's column of
     * single digits, which closed up would read as a phone number).
     */
    private static final Pattern SPACED_RUN = Pattern.compile("(?<!\\S)\\S(?:\\s+\\S){2,}(?!\\S)");
    private static final Pattern LINE_BREAK = Pattern.compile("[\\n\\r\\f\\u2028\\u2029]"), LETTER = Pattern.compile("\\p{L}");

    /** {@code text} with each letter-spaced run closed up, and for each of its characters the index it had in {@code text}. */
    record ClosedUp(String text, int[] origin) {
        /** The match {@code [start, end)} of the closed-up text as the characters of the original text it covers. */
        Match original(int start, int end) {
            return new Match(origin[start], origin[end - 1] + 1);
        }
    }

    /** {@code text} with its letter-spaced runs closed up, or null when it has none. */
    static ClosedUp closedUp(String text) {
        Matcher m = SPACED_RUN.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        int[] origin = new int[text.length()];
        int i = 0;
        boolean any = false;
        while (m.find()) {
            String run = m.group();
            if (LINE_BREAK.matcher(run).find() && !LETTER.matcher(run).find()) continue;
            any = true;
            for (; i < m.start(); i++) {
                origin[out.length()] = i;
                out.append(text.charAt(i));
            }
            for (; i < m.end(); i++) {
                char c = text.charAt(i);
                if (Character.isWhitespace(c) || Character.isSpaceChar(c)) continue;
                origin[out.length()] = i;
                out.append(c);
            }
        }
        if (!any) return null;
        for (; i < text.length(); i++) {
            origin[out.length()] = i;
            out.append(text.charAt(i));
        }
        return new ClosedUp(out.toString(), java.util.Arrays.copyOf(origin, out.length()));
    }

    boolean isEmpty() {
        return searches.isEmpty();
    }

    /** A match: the characters {@code [start, end)} of the text searched. */
    record Match(int start, int end) {
    }

    /** What {@link #find} found, or the search that ran out of time ({@code tooSlow}, else null). */
    record Found(List<Match> matches, String tooSlow) {
    }

    /**
     * Every match of every search in {@code text} (overlapping matches of different searches are all returned),
     * within {@code deadline} ({@link System#nanoTime()}); a search still running then stops and is named.
     */
    Found find(String text, long deadline) {
        Set<Match> out = new LinkedHashSet<>();
        Bounded bounded = new Bounded(text, deadline);
        ClosedUp closed = null;
        boolean closedRead = false;
        for (int i = 0; i < searches.size(); i++) {
            Search s = searches.get(i);
            try {
                Matcher m = s.pattern().matcher(bounded);
                while (m.find()) {
                    if (m.end() > m.start() && s.check().test(m.group())) out.add(new Match(m.start(), m.end()));
                }
                if (!s.closedUpToo()) continue;
                // a pattern or preset also matches letter-spaced text ("j o e @ x . o r g"), closed up
                if (!closedRead) {
                    closed = closedUp(text);
                    closedRead = true;
                }
                if (closed == null) continue;
                m = s.pattern().matcher(new Bounded(closed.text(), deadline));
                while (m.find()) {
                    if (m.end() > m.start() && s.check().test(m.group())) out.add(closed.original(m.start(), m.end()));
                }
            } catch (TooSlow e) {
                return new Found(List.copyOf(out), sources.get(i));
            }
        }
        return new Found(List.copyOf(out), null);
    }

    /** True when some search matches in {@code text} (annotation contents, metadata values, bookmarks...). */
    boolean matchesIn(String text, long deadline) {
        return !text.isEmpty() && !find(text, deadline).matches().isEmpty();
    }

    private static String digits(String s) {
        return s.replaceAll("\\D", "");
    }

    private static boolean luhn(String match) {
        String d = digits(match);
        int sum = 0;
        for (int i = 0; i < d.length(); i++) {
            int n = d.charAt(d.length() - 1 - i) - '0';
            if (i % 2 == 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
            sum += n;
        }
        return sum % 10 == 0;
    }

    private static boolean ibanChecksum(String match) {
        String iban = match.replace(" ", "").toUpperCase(Locale.ROOT);
        if (iban.length() < 15 || iban.length() > 34) return false;
        StringBuilder n = new StringBuilder();
        for (char c : (iban.substring(4) + iban.substring(0, 4)).toCharArray()) n.append(Character.digit(c, 36));
        return new BigInteger(n.toString()).mod(BigInteger.valueOf(97)).intValue() == 1;
    }

    /**
     * The text as a {@link CharSequence} that stops a regex with {@link TooSlow} once the deadline passes: Java's
     * regex engine reads every character through {@code charAt}, so a backtracking pattern checks the clock as it goes.
     */
    private record Bounded(String text, long deadline, int[] reads) implements CharSequence {
        Bounded(String text, long deadline) {
            this(text, deadline, new int[1]);
        }

        @Override
        public char charAt(int index) {
            if ((++reads[0] & 0xFFF) == 0 && System.nanoTime() > deadline) throw new TooSlow();
            return text.charAt(index);
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
