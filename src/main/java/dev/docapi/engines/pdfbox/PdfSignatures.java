package dev.docapi.engines.pdfbox;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The signatures of a PDF as its bytes show them, read in bounded time and memory without a PDF parser (issue 40):
 * whether it is signed (any rewrite changes the bytes a signature covers and so invalidates it: compress returns
 * such a file unchanged, the other operations that write a new PDF say so in their note; issue 27), how many
 * signatures it has, and whether one is built to break a signature reader.
 *
 * <p>A signature dictionary's {@code /ByteRange [a b c d]} stands in the file's bytes as written: its
 * {@code /Contents} (the CMS, as a hex string) is the one part of the file it does not sign, so the dictionary
 * cannot sit in a compressed object stream (ISO 32000-2 §12.8.1), and the CMS lies at bytes {@code a+b} to
 * {@code c}. A DocMDP certification and usage rights ({@code /Perms}) are such signatures too. One pass over the
 * file finds every {@code /ByteRange}; each CMS is then checked with an iterative DER walk (no recursion, so no
 * structure can exhaust the stack of this check).
 */
public final class PdfSignatures {
    private static final byte[] BYTE_RANGE = "/ByteRange".getBytes(StandardCharsets.US_ASCII);
    /**
     * The deepest nesting of ASN.1 structures a signature's CMS may have. A real one (signed data, certificates,
     * attributes, an embedded timestamp token with its own certificates) is under 30 levels deep; BouncyCastle's
     * parser recurses once per level and 60,000 levels ended in a {@code StackOverflowError} (issue 40).
     */
    public static final int MAX_DER_DEPTH = 256;
    /** How far past {@code /ByteRange} its array may end (whitespace and four numbers). */
    private static final int ARRAY_WINDOW = 256;

    private PdfSignatures() {
    }

    /**
     * A signature found in the file: its position in file order (from 1) and byte range.
     *
     * @param number    from 1, in the order the file holds them
     * @param byteRange {@code [a, b, c, d]}: bytes {@code a} to {@code a+b} and {@code c} to {@code c+d} are signed
     */
    public record Signature(int number, long[] byteRange) {
    }

    /**
     * What the scan found.
     *
     * @param signatures every signature's byte range, in file order (one per distinct range)
     * @param hostile    why the signatures cannot be read safely, in words for the client; null when they can
     */
    public record Scan(List<Signature> signatures, String hostile) {
        public int count() {
            return signatures.size();
        }
    }

    /** True when the file holds a signature dictionary (a {@code /ByteRange} array of four numbers). */
    public static boolean signed(Path pdf) {
        try {
            return !byteRanges(pdf, 1).isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Every signature of {@code pdf}, each CMS checked when there are at most {@code maxSignatures} (above that the
     * count is what matters and the scan stops at {@code maxSignatures + 1}).
     *
     * @return the signatures (one per distinct byte range), and why they cannot be read safely when a CMS nests
     *         more than {@value #MAX_DER_DEPTH} levels deep
     * @throws IOException when the file cannot be read
     */
    public static Scan scan(Path pdf, int maxSignatures) throws IOException {
        List<long[]> ranges = byteRanges(pdf, maxSignatures + 1);
        List<Signature> signatures = new ArrayList<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (long[] r : ranges) {
            String key = r[0] + " " + r[1] + " " + r[2] + " " + r[3];
            // one signature dictionary written again in a later revision is one signature. (Two distinct dictionaries
            // with one range and no /M made DSS fail with a NullPointerException; that is said in our words at run
            // time: telling the two cases apart here would need the object structure, PdfSignatureValidator#unreadable)
            if (seen.putIfAbsent(key, signatures.size() + 1) != null) continue;
            signatures.add(new Signature(signatures.size() + 1, r));
        }
        String hostile = null;
        if (ranges.size() <= maxSignatures) {
            long size = Files.size(pdf);
            for (Signature s : signatures) {
                if (hostile == null) hostile = checkCms(pdf, size, s);
            }
        }
        return new Scan(List.copyOf(signatures), hostile);
    }

    /**
     * Why signature {@code s}'s CMS cannot be read safely, or null. A byte range that does not frame a hex string
     * (the file was rewritten after signing, which breaks the signature) is left to DSS, which reports such a
     * signature as not intact.
     */
    private static String checkCms(Path pdf, long size, Signature s) throws IOException {
        long[] r = s.byteRange();
        long from = r[0] + r[1], to = r[2];
        if (r[1] < 0 || from >= to || to > size) return null;
        try (FileChannel ch = FileChannel.open(pdf, StandardOpenOption.READ)) {
            ch.position(from);
            InputStream in = new BufferedInputStream(Channels.newInputStream(ch), 65536);
            if (in.read() != '<') return null;
            int depth = derDepth(new HexBytes(in, to - from - 1), MAX_DER_DEPTH);
            if (depth > MAX_DER_DEPTH) {
                return "signature " + s.number() + "'s data (its CMS) nests more than " + MAX_DER_DEPTH
                        + " structures inside each other; a real signature has fewer than 30, so it cannot be read safely";
            }
        }
        return null;
    }

    /**
     * The deepest nesting of constructed DER/BER structures in {@code in}, walked with an explicit stack; stops as
     * soon as it passes {@code limit} (returning {@code limit + 1}) or the data stops making sense (what was seen).
     */
    static int derDepth(HexBytes in, int limit) throws IOException {
        final long indefinite = -1;
        long[] ends = new long[limit + 1];
        int top = 0, deepest = 0;
        while (true) {
            while (top > 0 && ends[top - 1] != indefinite && in.position() >= ends[top - 1]) top--;
            int tag = in.read();
            if (tag < 0) return deepest;
            int lengthByte = in.read();
            if (lengthByte < 0) return deepest;
            if (tag == 0 && lengthByte == 0) { // end of contents: closes the innermost indefinite-length structure
                if (top > 0 && ends[top - 1] == indefinite) top--;
                else if (top == 0) return deepest; // the padding after the CMS
                continue;
            }
            if ((tag & 0x1f) == 0x1f) { // a high tag number: its bytes, then the real length byte
                int b = lengthByte;
                for (int i = 0; (b & 0x80) != 0; i++) {
                    if (i > 4 || (b = in.read()) < 0) return deepest;
                }
                lengthByte = in.read();
                if (lengthByte < 0) return deepest;
            }
            long length;
            if (lengthByte == 0x80) {
                length = indefinite;
            } else if ((lengthByte & 0x80) != 0) {
                int n = lengthByte & 0x7f;
                if (n > 7) return deepest;
                length = 0;
                for (int i = 0; i < n; i++) {
                    int b = in.read();
                    if (b < 0) return deepest;
                    length = (length << 8) | b;
                }
            } else {
                length = lengthByte;
            }
            if ((tag & 0x20) != 0) { // constructed: one level deeper
                if (top == limit) return limit + 1;
                ends[top++] = length == indefinite ? indefinite : in.position() + length;
                deepest = Math.max(deepest, top);
            } else {
                if (length == indefinite || in.skip(length) < length) return deepest;
            }
        }
    }

    /** The bytes of a PDF hex string read from {@code in}: hex digit pairs, whitespace skipped, ending at {@code >}. */
    static final class HexBytes {
        private final InputStream in;
        private long left;
        private long position;

        HexBytes(InputStream in, long maxChars) {
            this.in = in;
            this.left = maxChars;
        }

        long position() {
            return position;
        }

        int read() throws IOException {
            int hi = digit(), lo = hi < 0 ? -1 : digit();
            if (lo < 0) return -1;
            position++;
            return hi << 4 | lo;
        }

        /** An odd final digit is followed by 0 (ISO 32000-2 §7.3.4.3): it reads as the end here, which is harmless. */
        private int digit() throws IOException {
            while (left-- > 0) {
                int c = in.read();
                if (c < 0 || c == '>') return -1;
                int d = Character.digit(c, 16);
                if (d >= 0) return d;
                if (!Character.isWhitespace(c)) return -1;
            }
            return -1;
        }

        long skip(long n) throws IOException {
            long done = 0;
            while (done < n && read() >= 0) done++;
            return done;
        }
    }

    /**
     * The {@code /ByteRange [a b c d]} arrays of the file in file order, at most {@code max}: one pass in 1 MB chunks
     * (overlapping, so a name across two chunks is found), each array read from the bytes after its name.
     */
    private static List<long[]> byteRanges(Path pdf, int max) throws IOException {
        List<long[]> found = new ArrayList<>();
        byte[] buf = new byte[1 << 20];
        int keep = 0;
        long offset = 0; // the file offset of buf[0]
        try (FileChannel ch = FileChannel.open(pdf, StandardOpenOption.READ); InputStream in = Channels.newInputStream(ch)) {
            FileChannel positional = ch;
            for (int n; (n = in.readNBytes(buf, keep, buf.length - keep)) > 0; ) {
                int end = keep + n;
                for (int i = indexOf(buf, 0, end); i >= 0; i = indexOf(buf, i + 1, end)) {
                    long[] r = array(positional, offset + i + BYTE_RANGE.length);
                    if (r != null) found.add(r);
                    if (found.size() >= max) return found;
                }
                keep = Math.min(BYTE_RANGE.length - 1, end);
                System.arraycopy(buf, end - keep, buf, 0, keep);
                offset += end - keep;
            }
        }
        return found;
    }

    /** The four non-negative numbers of the array at {@code at} ({@code [a b c d]}, whitespace around), or null. */
    private static long[] array(FileChannel ch, long at) throws IOException {
        ByteBuffer window = ByteBuffer.allocate(ARRAY_WINDOW);
        while (window.hasRemaining() && ch.read(window, at + window.position()) > 0) {
            // read positionally: the channel's own position belongs to the chunked scan
        }
        String text = new String(window.array(), 0, window.position(), StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher m = ARRAY.matcher(text);
        if (!m.lookingAt()) return null;
        try {
            return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4))};
        } catch (NumberFormatException e) {
            return null; // more digits than a file offset has
        }
    }

    private static final java.util.regex.Pattern ARRAY =
            java.util.regex.Pattern.compile("\\s*\\[\\s*(\\d{1,18})\\s+(\\d{1,18})\\s+(\\d{1,18})\\s+(\\d{1,18})\\s*]");

    private static int indexOf(byte[] buf, int from, int end) {
        outer:
        for (int i = from; i + BYTE_RANGE.length <= end; i++) {
            for (int j = 0; j < BYTE_RANGE.length; j++) if (buf[i + j] != BYTE_RANGE[j]) continue outer;
            return i;
        }
        return -1;
    }
}
