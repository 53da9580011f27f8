package dev.docapi.engines.pdfbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;

/**
 * Whether a PDF is digitally signed (or certified, or carries usage rights): any rewrite changes the bytes a
 * signature covers and so invalidates it, so compress returns such a file unchanged, and the other operations that
 * write a new PDF say so in their note (issue 27).
 */
public final class PdfSignatures {
    private static final byte[] BYTE_RANGE = "/ByteRange".getBytes(StandardCharsets.US_ASCII);

    private PdfSignatures() {
    }

    /**
     * True when a signature field has a value (PDFBox's reading), the catalog has {@code /Perms} (DocMDP, usage
     * rights), or the file's bytes hold a {@code /ByteRange} (a signature dictionary outside the form tree, or in a
     * file PDFBox cannot read).
     */
    public static boolean signed(Path pdf) {
        try (PDDocument doc = Loader.loadPDF(pdf.toFile(), "", null, null, IOUtils.createTempFileOnlyStreamCache())) {
            if (!doc.getSignatureDictionaries().isEmpty() || doc.getDocumentCatalog().getCOSObject().containsKey(COSName.PERMS)) return true;
        } catch (IOException | RuntimeException e) {
            // unreadable by PDFBox: the byte scan still answers
        }
        return mentionsByteRange(pdf);
    }

    /** Scans the file in 1 MB chunks (overlapping by the word's length, so a word across two chunks is found). */
    private static boolean mentionsByteRange(Path pdf) {
        byte[] buf = new byte[1 << 20];
        int keep = 0;
        try (InputStream in = Files.newInputStream(pdf)) {
            for (int n; (n = in.readNBytes(buf, keep, buf.length - keep)) > 0; ) {
                int end = keep + n;
                if (indexOf(buf, end) >= 0) return true;
                keep = Math.min(BYTE_RANGE.length - 1, end);
                System.arraycopy(buf, end - keep, buf, 0, keep);
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static int indexOf(byte[] buf, int end) {
        outer:
        for (int i = 0; i + BYTE_RANGE.length <= end; i++) {
            for (int j = 0; j < BYTE_RANGE.length; j++) if (buf[i + j] != BYTE_RANGE[j]) continue outer;
            return i;
        }
        return -1;
    }
}
