package dev.docapi.engines.pdfbox;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.qpdf.Qpdf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.springframework.stereotype.Component;

/**
 * Opens PDFs with PDFBox's lenient parser, falling back to qpdf's recovery for files PDFBox cannot read
 * (a broken xref, junk before the header). Streams are cached in temp files, not the heap.
 */
@Component
public class PdfBox {
    private final Qpdf qpdf;

    public PdfBox(Qpdf qpdf) {
        this.qpdf = qpdf;
    }

    /** What a PDF is: its page count (null when it needs a password to open) and whether it needs one. */
    public record PdfInfo(Integer pages, boolean needsPassword) {
    }

    /**
     * @throws IOException when no reader (PDFBox, then qpdf's recovery) can open the file
     */
    public PdfInfo inspect(Path pdf) throws IOException {
        try (PDDocument doc = load(pdf, "")) {
            return new PdfInfo(doc.getNumberOfPages(), false);
        } catch (InvalidPasswordException e) {
            return new PdfInfo(null, true);
        } catch (IOException e) {
            try {
                int pages = qpdf.pageCount(pdf, null);
                if (pages > 0) return new PdfInfo(pages, false);
            } catch (EngineFailure qpdfFailure) {
                e.addSuppressed(qpdfFailure);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading the page count");
            }
            throw new IOException("no reader can open it: " + e.getMessage(), e);
        }
    }

    /** True when {@code password} (user or owner) opens the file. */
    public boolean opensWith(Path pdf, String password) {
        try (PDDocument doc = load(pdf, password)) {
            return true;
        } catch (IOException e) {
            try {
                return qpdf.readsPages(pdf, password);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /**
     * Opens a PDF for editing. A file PDFBox cannot parse is first rewritten by qpdf's recovery into
     * {@code scratchDir}.
     *
     * @throws EngineFailure {@code PASSWORD_NEEDED} when {@code password} does not open it, {@code FAILED} when
     *                        neither reader can open it
     */
    public PDDocument open(Path pdf, String password, Path scratchDir) throws EngineFailure, InterruptedException {
        try {
            return load(pdf, password == null ? "" : password);
        } catch (InvalidPasswordException e) {
            throw new EngineFailure(EngineFailure.Kind.PASSWORD_NEEDED, "the PDF needs a password to open");
        } catch (IOException first) {
            Path repaired = scratchDir.resolve("repaired.pdf");
            qpdf.repair(pdf, repaired);
            try {
                return load(repaired, password == null ? "" : password);
            } catch (IOException e) {
                throw new EngineFailure(EngineFailure.Kind.FAILED, "the PDF could not be read: " + first.getMessage(), e);
            }
        }
    }

    /**
     * Of {@code pages} (from 1) of {@code pdf}, those that show nothing OCR could read beyond their text layer
     * ({@link BlankPages}: no image, path, shading, glyph without Unicode or annotation but links). None when PDFBox
     * cannot open the file.
     */
    public static java.util.Set<Integer> blankPages(Path pdf, java.util.Collection<Integer> pages) {
        if (pages.isEmpty()) return java.util.Set.of();
        try (PDDocument doc = load(pdf, "")) {
            return BlankPages.of(doc, pages);
        } catch (IOException e) {
            return java.util.Set.of();
        }
    }

    /** Saves {@code doc} to {@code out} through a temp file, so a failed save leaves no half-written output. */
    public static void save(PDDocument doc, Path out) throws IOException {
        Path tmp = out.resolveSibling(out.getFileName() + ".part");
        doc.save(tmp.toFile());
        Files.move(tmp, out, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static PDDocument load(Path pdf, String password) throws IOException {
        return Loader.loadPDF(pdf.toFile(), password, null, null, IOUtils.createTempFileOnlyStreamCache());
    }
}
