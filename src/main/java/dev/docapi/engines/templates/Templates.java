package dev.docapi.engines.templates;

import com.github.jknack.handlebars.Context;
import com.github.jknack.handlebars.Handlebars;
import com.github.jknack.handlebars.HandlebarsException;
import com.github.jknack.handlebars.Helper;
import com.github.jknack.handlebars.Options;
import com.github.jknack.handlebars.Template;
import com.github.jknack.handlebars.context.MapValueResolver;
import com.github.jknack.handlebars.helper.EachHelper;
import com.github.jknack.handlebars.helper.IfHelper;
import com.github.jknack.handlebars.helper.UnlessHelper;
import com.github.jknack.handlebars.helper.WithHelper;
import com.github.jknack.handlebars.io.AbstractTemplateLoader;
import com.github.jknack.handlebars.io.TemplateSource;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The template language of {@code POST /generate} (issue 28), the same in .docx and .html templates: Handlebars.java,
 * used Mustache style — {@code {{customer}}} (HTML/XML-escaped), {@code {{#items}}…{{/items}}} (once per array item,
 * or once when truthy), {@code {{^paid}}…{{/paid}}} (when absent-valued: false, null, empty), plus three helpers:
 * <ul>
 *   <li>{@code {{number total "#,##0.00"}}} — a {@link DecimalFormat} pattern (default {@code #,##0.##});</li>
 *   <li>{@code {{date due "d MMMM yyyy"}}} — a {@link DateTimeFormatter} pattern over an ISO-8601 date or date-time
 *       (default {@code yyyy-MM-dd});</li>
 *   <li>{@code {{image logo}}} — the image of {@code {"file": "file_…"}}, optionally {@code width=120} (CSS pixels);</li>
 * </ul>
 * both format helpers take {@code locale="de"} (default: English). A key missing from the data (at any level of
 * the context stack) is an error naming it; a key present with {@code null} renders empty and counts as false.
 * Nothing in the data is code: values are only looked up in maps and lists (no bean methods), partials and the
 * helpers that read resources or log are refused, and the work of one fill is bounded ({@link Budget}, issue 40
 * item 0): sections nest at most {@link #MAX_NESTING} deep, repeat at most {@link #MAX_ITERATIONS} times in all, write
 * at most {@link #MAX_OUTPUT_CHARS} characters and take at most {@link #MAX_TIME}; the format helpers take
 * numbers of at most {@link #MAX_NUMBER_DIGITS} digits and exponent, and values and patterns of bounded length.
 */
public final class Templates {
    /** The largest rendered output of one fill (characters, every part of a .docx together), against loops nested over the same data. */
    public static final int MAX_OUTPUT_CHARS = 32 * 1024 * 1024;
    /** The most times sections are entered and repeated in one fill (every item of every loop counts one). */
    public static final int MAX_ITERATIONS = 200_000;
    /** The deepest nesting of sections in a template. */
    public static final int MAX_NESTING = 32;
    /** The longest one fill may take (a real invoice or report fills in well under a second). */
    public static final java.time.Duration MAX_TIME = java.time.Duration.ofSeconds(10);
    /** The most digits, and the largest exponent, of a number the number helper formats. */
    public static final int MAX_NUMBER_DIGITS = 1000;
    /** The longest value the date helper parses, and the longest pattern either format helper takes. */
    private static final int MAX_FORMAT_INPUT = 200;
    /** The widest image a template may ask for ({{image x width=…}}, CSS pixels). */
    private static final int MAX_IMAGE_WIDTH = 10_000;
    private static final Pattern SECTION_TAG = Pattern.compile("\\{\\{~?\\s*([#^/])|\\{\\{~?\\s*else\\b");
    private static final Pattern FIRST_TAG = Pattern.compile("^\\{\\{\\{?[#^&]?\\s*([^\\s}]+)(?:\\s+([^\\s}]+))?");
    private static final List<String> REFUSED_HELPERS = List.of("embedded", "precompile", "i18n", "i18nJs", "partial", "block", "log");

    /** An image a template places with {@code {{image x}}}: its bytes and size in pixels. */
    public record Image(String fileId, byte[] bytes, String mediaType, int width, int height) {
    }

    /** Where an image goes: its width in CSS pixels (null: its own). */
    public record Placement(Image image, Integer width) {
    }

    /**
     * A template that cannot be filled: a syntax error, a missing value, a bad format. The message is client-safe and
     * says where ({@code where} of the line); {@link #missing} is the missing key, if that was the error.
     */
    public static final class TemplateError extends Exception {
        private final String missing;

        TemplateError(String message, String missing) {
            super(message);
            this.missing = missing;
        }

        public String missing() {
            return missing;
        }
    }

    /** How a helper writes an image into the output: HTML {@code <img>}, or a marker the docx writer replaces. */
    interface ImageWriter {
        CharSequence write(Placement placement);
    }

    /**
     * The work one fill may still do: {@link #start} it once per document, and pass it to every {@link #render} of
     * the document's parts. Exceeding it ends the fill with a {@link TemplateError} saying which bound.
     */
    public static final class Budget {
        private final long deadline = System.nanoTime() + MAX_TIME.toNanos();
        private long iterations;
        private long chars;

        private Budget() {
        }

        public static Budget start() {
            return new Budget();
        }

        /** Counts {@code n} repetitions of a section. @throws BoundExceeded past {@link #MAX_ITERATIONS} or the time */
        void iterate(long n) {
            iterations += n;
            if (iterations > MAX_ITERATIONS) {
                throw new BoundExceeded(String.format(Locale.ROOT, "the template repeats its sections more than %,d times in all with this data", MAX_ITERATIONS));
            }
            checkTime();
        }

        /** Counts {@code n} characters written. @throws BoundExceeded past {@link #MAX_OUTPUT_CHARS} or the time */
        void write(long n) {
            chars += n;
            if (chars > MAX_OUTPUT_CHARS) {
                throw new BoundExceeded("the filled template would be larger than " + MAX_OUTPUT_CHARS / (1024 * 1024) + " M characters");
            }
            checkTime();
        }

        private void checkTime() {
            if (System.nanoTime() - deadline > 0) throw new BoundExceeded("filling the template takes longer than " + MAX_TIME.toSeconds() + " s");
        }
    }

    /** A bound of {@link Budget} exceeded; the message is client-safe. */
    private static final class BoundExceeded extends RuntimeException {
        BoundExceeded(String message) {
            super(message, null, false, false);
        }
    }

    private static final class MissingValue extends RuntimeException {
        MissingValue() {
            super("missing value", null, false, false);
        }
    }

    private static final class RefusedPartials extends AbstractTemplateLoader {
        @Override
        public TemplateSource sourceAt(String location) throws IOException {
            throw new IOException("partials are not available in templates");
        }
    }

    private Templates() {
    }

    /** The JSON data as maps, lists, strings, {@link BigDecimal}s and booleans; JSON null becomes "" (empty, false). */
    public static Object model(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) return "";
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : node.properties()) map.put(e.getKey(), model(e.getValue()));
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            for (JsonNode item : node) list.add(model(item));
            return list;
        }
        if (node.isBoolean()) return node.asBoolean();
        if (node.isNumber()) {
            try {
                return node.decimalValue();
            } catch (RuntimeException infinite) {
                // a double out of range (1e1000000000 read as Infinity): the number helper refuses it by name
                return node.asString();
            }
        }
        return node.asString();
    }

    /** The file ids of every {@code {"file": "…"}} object in the data, for resolving images before rendering. */
    public static List<String> imageFileIds(JsonNode data) {
        List<String> ids = new ArrayList<>();
        collectIds(data, ids);
        return ids;
    }

    private static void collectIds(JsonNode node, List<String> ids) {
        if (node.isObject() && node.size() == 1 && node.path("file").isString()) ids.add(node.get("file").asString());
        else if (node.isContainer()) for (JsonNode child : node) collectIds(child, ids);
    }

    /**
     * Fills an HTML template: values are HTML-escaped, {@code {{image x}}} becomes an {@code <img>} with a
     * {@code data:} URL (the printing browser loads nothing else).
     *
     * @throws TemplateError naming the line (1-based) of the template
     */
    public static String html(String source, Object model, Map<String, Image> images) throws TemplateError {
        return render(source, model, images, Budget.start(), p -> new Handlebars.SafeString("<img src=\"data:" + p.image().mediaType() + ";base64,"
                + java.util.Base64.getEncoder().encodeToString(p.image().bytes()) + "\" alt=\"\" style=\"max-width:100%\""
                + (p.width() != null ? " width=\"" + p.width() + "\"" : "") + ">"), line -> "line " + line);
    }

    /**
     * Fills {@code source} with {@code model}.
     *
     * @param where  describes line {@code n} (1-based) of the source for error messages, e.g. {@code "line 12"}
     * @param images the images by file id ({@link #imageFileIds}), already checked to be the account's
     * @param budget the work the document's fill may still do, shared by its parts
     * @throws TemplateError a client-safe message naming the place and the cause, or the bound exceeded
     */
    static String render(String source, Object model, Map<String, Image> images, Budget budget, ImageWriter imageWriter, IntFunction<String> where)
            throws TemplateError {
        checkNesting(source, where);
        Handlebars handlebars = new Handlebars(new RefusedPartials());
        // the four helpers every section runs through ({{#x}} picks one by the value's type): each counted
        handlebars.registerHelper(EachHelper.NAME, counted(EachHelper.INSTANCE, budget, true));
        handlebars.registerHelper(IfHelper.NAME, counted(IfHelper.INSTANCE, budget, false));
        handlebars.registerHelper(UnlessHelper.NAME, counted(UnlessHelper.INSTANCE, budget, false));
        handlebars.registerHelper(WithHelper.NAME, counted(WithHelper.INSTANCE, budget, false));
        Helper<Object> refused = (context, options) -> {
            throw new IllegalArgumentException("the helper '" + options.helperName + "' is not available in templates");
        };
        for (String name : REFUSED_HELPERS) handlebars.registerHelper(name, refused);
        handlebars.registerHelperMissing((context, options) -> {
            throw new MissingValue();
        });
        handlebars.registerHelper("number", Templates::number);
        handlebars.registerHelper("date", Templates::date);
        handlebars.registerHelper("image", (Object value, Options options) -> {
            Image image = value instanceof Map<?, ?> m && m.get("file") instanceof String id ? images.get(id) : null;
            if (image == null) throw new IllegalArgumentException("image takes a value like {\"file\": \"file_…\"} naming an uploaded image");
            return imageWriter.write(new Placement(image, width(options.hash("width"))));
        });
        Template template;
        try {
            template = handlebars.compileInline(source);
        } catch (HandlebarsException e) {
            throw error(e, source, where);
        } catch (IOException | RuntimeException e) {
            throw new TemplateError("the template cannot be read: " + e.getMessage(), null);
        } catch (StackOverflowError e) {
            throw new TemplateError("the template is too deeply structured to read", null);
        }
        Context context = Context.newBuilder(model).resolver(MapValueResolver.INSTANCE).build();
        BoundedWriter out = new BoundedWriter(budget);
        try {
            template.apply(context, out);
        } catch (HandlebarsException e) {
            BoundExceeded bound = cause(e, BoundExceeded.class);
            if (bound != null) throw new TemplateError(bound.getMessage(), null);
            throw error(e, source, where);
        } catch (BoundExceeded e) {
            throw new TemplateError(e.getMessage(), null);
        } catch (IOException e) {
            BoundExceeded bound = cause(e, BoundExceeded.class);
            throw new TemplateError(bound != null ? bound.getMessage() : e.getMessage(), null);
        } catch (StackOverflowError e) {
            throw new TemplateError("the template nests too deeply to fill", null);
        } finally {
            context.destroy();
        }
        return out.text.toString();
    }

    /** {@code helper}, each use counted in {@code budget}: one for the section, and when it {@code repeats}, one for each item. */
    private static Helper<Object> counted(Helper<Object> helper, Budget budget, boolean repeats) {
        return (context, options) -> {
            long items = !repeats ? 0 : context instanceof java.util.Collection<?> c ? c.size() : context instanceof Map<?, ?> m ? m.size() : 0;
            budget.iterate(1 + items);
            return helper.apply(context, options);
        };
    }

    /**
     * Refuses sections nested deeper than {@link #MAX_NESTING} before Handlebars parses them (its parser recurses once
     * per level).
     */
    private static void checkNesting(String source, IntFunction<String> where) throws TemplateError {
        Matcher m = SECTION_TAG.matcher(source);
        int depth = 0;
        while (m.find()) {
            if (m.group(1) == null) continue; // {{else}} neither opens nor closes
            depth += m.group(1).equals("/") ? -1 : 1;
            if (depth > MAX_NESTING) {
                int line = 1 + (int) source.substring(0, m.start()).chars().filter(c -> c == '\n').count();
                throw new TemplateError("sections nest more than " + MAX_NESTING + " deep (" + where.apply(line) + ")", null);
            }
        }
    }

    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) if (type.isInstance(t)) return type.cast(t);
        return null;
    }

    /** The {@code width=} of {@code {{image}}}: null, or a whole number of CSS pixels from 1 to {@link #MAX_IMAGE_WIDTH}. */
    private static Integer width(Object width) {
        if (width == null) return null;
        String text = width.toString().strip();
        if (!text.matches("\\d{1,5}") || Integer.parseInt(text) < 1 || Integer.parseInt(text) > MAX_IMAGE_WIDTH) {
            throw new IllegalArgumentException("image's width must be a whole number of pixels from 1 to " + MAX_IMAGE_WIDTH);
        }
        return Integer.parseInt(text);
    }

    private static TemplateError error(HandlebarsException e, String source, IntFunction<String> where) {
        var error = e.getError();
        if (error == null) return new TemplateError("template error: " + e.getMessage(), null);
        String place = where.apply(error.line);
        if (missing(e)) {
            String name = missingName(tagAt(source, error.line, error.column));
            return new TemplateError("the data has no value for '" + name + "' (" + place + ")", name);
        }
        String reason = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : error.reason;
        return new TemplateError("template error at " + place + ": " + reason, null);
    }

    private static boolean missing(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof MissingValue) return true;
        return false;
    }

    /** The tag that starts at {@code line}, {@code column} (1-based; 0-based, just after the opening braces, as Handlebars counts them) of {@code source}. */
    private static String tagAt(String source, int line, int column) {
        String[] lines = source.split("\n", -1);
        if (line < 1 || line > lines.length) return "";
        String text = lines[line - 1];
        int at = text.lastIndexOf("{{", Math.min(column, text.length()));
        return at < 0 ? "" : text.substring(at);
    }

    /** The key a failing tag looked up: {@code {{customer}}} → customer, {@code {{number total "0.00"}}} → total. */
    private static String missingName(String tag) {
        Matcher m = FIRST_TAG.matcher(tag);
        if (!m.find()) return "?";
        String first = m.group(1);
        boolean helper = first.equals("number") || first.equals("date") || first.equals("image");
        return helper && m.group(2) != null ? m.group(2) : first;
    }

    private static Object number(Object value, Options options) {
        if (value == null) throw new MissingValue();
        if (value instanceof String s && s.isEmpty()) return "";
        String text = value.toString().strip();
        if (text.length() > MAX_NUMBER_DIGITS + 20) {
            throw new IllegalArgumentException("number takes numbers of at most " + MAX_NUMBER_DIGITS + " digits, not one of " + text.length() + " characters");
        }
        BigDecimal n;
        try {
            n = new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("number needs a number, not '" + shown(text) + "'");
        }
        // formatting writes every digit out: 1e1000000000 would be a billion zeros (an OutOfMemoryError, issue 40)
        long exponent = (long) n.precision() - n.scale() - 1;
        if (n.signum() != 0 && Math.abs(exponent) > MAX_NUMBER_DIGITS) {
            throw new IllegalArgumentException("number takes numbers of at most " + MAX_NUMBER_DIGITS + " digits, not '" + shown(text) + "'");
        }
        String pattern = pattern(options, "#,##0.##");
        DecimalFormat format = new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(locale(options)));
        format.setParseBigDecimal(true);
        return format.format(n);
    }

    private static Object date(Object value, Options options) {
        if (value == null) throw new MissingValue();
        if (value instanceof String s && s.isEmpty()) return "";
        String pattern = pattern(options, "yyyy-MM-dd");
        DateTimeFormatter format = DateTimeFormatter.ofPattern(pattern, locale(options));
        String text = value.toString().strip();
        if (text.length() > MAX_FORMAT_INPUT) throw new IllegalArgumentException("date takes an ISO-8601 date or date-time, not '" + shown(text) + "'");
        return format.format(temporal(text));
    }

    /** The format pattern, the helper's first parameter, bounded (a pattern like "0000…" writes a digit per character). */
    private static String pattern(Options options, String fallback) {
        String pattern = options.params.length > 0 ? options.params[0].toString() : fallback;
        if (pattern.length() > MAX_FORMAT_INPUT) throw new IllegalArgumentException(options.helperName + "'s pattern must be at most " + MAX_FORMAT_INPUT + " characters");
        return pattern;
    }

    /** A value as a message shows it: at most 40 characters. */
    private static String shown(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    private static TemporalAccessor temporal(String text) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException notADate) {
            try {
                return OffsetDateTime.parse(text);
            } catch (DateTimeParseException notAnInstant) {
                try {
                    return LocalDateTime.parse(text);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("date needs an ISO-8601 date or date-time (2026-11-25, 2026-11-25T10:30:00Z), not '" + text + "'");
                }
            }
        }
    }

    private static Locale locale(Options options) {
        Object tag = options.hash("locale");
        return tag == null ? Locale.ENGLISH : Locale.forLanguageTag(tag.toString());
    }

    /** The output, each write counted in the fill's {@link Budget}. */
    private static final class BoundedWriter extends Writer {
        final StringBuilder text = new StringBuilder();
        private final Budget budget;

        BoundedWriter(Budget budget) {
            this.budget = budget;
        }

        @Override
        public void write(char[] buf, int off, int len) {
            budget.write(len);
            text.append(buf, off, len);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
