package dev.docapi.engines.pdfbox;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.cos.COSString;

/**
 * The ways a reader may decode the bytes of a PDF string or a text-like stream (issue 35), so a word stored as
 * UTF-16 (with or without a byte-order mark, either byte order), UTF-8, Latin-1 or PDFDocEncoding is found whichever
 * encoding hid it; and which streams hold text at all (not fonts, images or colour profiles).
 */
public final class PdfTexts {
    private PdfTexts() {
    }

    /**
     * Every reading of {@code bytes} worth searching: UTF-16 by its byte-order mark, else Latin-1 (which PDFDocEncoding
     * agrees with for letters and digits), the same with NUL bytes dropped (ASCII text in UTF-16 of either byte order
     * without a mark) and UTF-8 when the bytes are valid UTF-8 beyond ASCII.
     */
    public static List<String> readings(byte[] bytes) {
        List<String> out = new ArrayList<>(3);
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) {
            out.add(new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16BE));
        } else if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) {
            out.add(new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE));
        }
        String latin1 = new String(bytes, StandardCharsets.ISO_8859_1);
        out.add(latin1);
        if (latin1.indexOf('\0') >= 0) out.add(latin1.replace("\0", ""));
        boolean ascii = true;
        for (byte b : bytes) {
            if (b < 0) {
                ascii = false;
                break;
            }
        }
        if (!ascii) {
            try {
                out.add(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes)).toString());
            } catch (CharacterCodingException e) {
                // not UTF-8: the other readings stand
            }
        }
        return out;
    }

    /** The readings of a string object: PDFBox's text-string decoding (BOM or PDFDocEncoding) and {@link #readings}. */
    public static List<String> readings(COSString s) {
        List<String> out = new ArrayList<>(readings(s.getBytes()));
        String text = s.getString();
        if (!out.contains(text)) out.add(text);
        return out;
    }

    /** What a stream holds, for searching it. */
    public enum Kind {
        /** Binary data no reader shows as text: images, font programs, colour profiles. */
        BINARY,
        /** Text as a whole: XMP metadata, embedded files, JavaScript. */
        TEXT,
        /** A content stream (page, Form XObject, pattern, appearance, Type 3 glyph): its strings and property lists. */
        CONTENT
    }

    private static final List<COSName> IMAGE_FILTERS = List.of(COSName.DCT_DECODE, COSName.JPX_DECODE, COSName.JBIG2_DECODE, COSName.CCITTFAX_DECODE);

    /** The kind of {@code stream}, reached under {@code key} (a dictionary key, or null in an array). */
    public static Kind kind(COSStream stream, String key) {
        COSName type = stream.getCOSName(COSName.TYPE), subtype = stream.getCOSName(COSName.SUBTYPE);
        if (COSName.IMAGE.equals(subtype) || (key != null && key.startsWith("FontFile"))) return Kind.BINARY;
        if (stream.containsKey(COSName.LENGTH1) || stream.containsKey(COSName.LENGTH2)) return Kind.BINARY;
        if (subtype != null && List.of("Type1C", "CIDFontType0C", "OpenType").contains(subtype.getName())) return Kind.BINARY;
        if (stream.containsKey(COSName.N) && subtype == null && type == null) return Kind.BINARY; // an ICC profile
        COSBase filter = stream.getFilters();
        for (COSName f : IMAGE_FILTERS) {
            if (f.equals(filter) || (filter instanceof COSArray a && a.indexOfObject(f) >= 0)) return Kind.BINARY;
        }
        if (COSName.METADATA.equals(type) || COSName.EMBEDDED_FILE.equals(type) || "JS".equals(key)) return Kind.TEXT;
        if (key != null && (key.equals("F") || key.equals("UF") || key.equals("DOS") || key.equals("Mac") || key.equals("Unix"))) return Kind.TEXT; // under /EF
        return Kind.CONTENT;
    }

    /** True when {@code d} is an annotation: it has a /Rect and a /Subtype, and is no page, XObject or field-only dictionary. */
    public static boolean isAnnotation(COSDictionary d) {
        return d.containsKey(COSName.RECT) && d.getCOSName(COSName.SUBTYPE) != null && !COSName.FORM.equals(d.getCOSName(COSName.SUBTYPE))
                && !COSName.IMAGE.equals(d.getCOSName(COSName.SUBTYPE));
    }
}
