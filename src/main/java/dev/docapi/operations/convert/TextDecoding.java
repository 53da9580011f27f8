package dev.docapi.operations.convert;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decodes uploaded text (plain text, Markdown, HTML): a byte-order mark wins (UTF-8, UTF-16 LE/BE); then, for HTML,
 * a {@code <meta charset>} declaration; then strict UTF-8; otherwise Windows-1252, the usual encoding of legacy
 * Western text, which maps every byte.
 */
public final class TextDecoding {
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
    private static final Pattern META_CHARSET = Pattern.compile("<meta[^>]+charset\\s*=\\s*[\"']?([A-Za-z0-9_:.-]+)", Pattern.CASE_INSENSITIVE);

    private TextDecoding() {
    }

    public static String decode(byte[] b, boolean html) {
        if (b.length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF)
            return new String(b, 3, b.length - 3, StandardCharsets.UTF_8);
        if (b.length >= 2 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xFE)
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16LE);
        if (b.length >= 2 && (b[0] & 0xff) == 0xFE && (b[1] & 0xff) == 0xFF)
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16BE);
        if (html) {
            Matcher m = META_CHARSET.matcher(new String(b, 0, Math.min(b.length, 4096), StandardCharsets.ISO_8859_1));
            if (m.find()) {
                try {
                    Charset cs = Charset.forName(m.group(1).toLowerCase(Locale.ROOT));
                    // per the HTML standard, a declared latin-1/ascii means windows-1252; a declared utf-16 in bytes without a BOM means utf-8
                    if (cs.equals(StandardCharsets.ISO_8859_1) || cs.equals(StandardCharsets.US_ASCII)) cs = WINDOWS_1252;
                    if (!cs.name().startsWith("UTF-16")) return new String(b, cs);
                } catch (IllegalArgumentException ignored) {
                    // an unknown charset name: detect below
                }
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return new String(b, WINDOWS_1252);
        }
    }

    /** Escapes text for HTML element content and attribute values. */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
