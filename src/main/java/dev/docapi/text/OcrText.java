package dev.docapi.text;

import dev.docapi.api.ErrorCode;
import dev.docapi.engines.ocrmypdf.Ocrmypdf;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.engines.tesseract.Tesseract;
import dev.docapi.operations.OperationFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Text with OCR where needed (issue 14 item 3): the one place that reads a document's text layer and OCRs what has
 * none, for {@code extract-text}, the AI operations' inputs ({@code ai/DocumentText}) and the pdf → docx/xlsx
 * converters ({@code PdfSource}). OCR picks each page's languages by script ({@link Tesseract#languages}); OCR text
 * is Tesseract's own output (the OCRmyPDF sidecar), in logical order.
 */
@Component
public class OcrText {
    private final Poppler poppler;
    private final Ocrmypdf ocrmypdf;
    private final Tesseract tesseract;
    private final Qpdf qpdf;

    public OcrText(Poppler poppler, Ocrmypdf ocrmypdf, Tesseract tesseract, Qpdf qpdf) {
        this.poppler = poppler;
        this.ocrmypdf = ocrmypdf;
        this.tesseract = tesseract;
        this.qpdf = qpdf;
    }

    /** Pages read so far out of all pages (for a job's {@code progress}, unit pages). */
    @FunctionalInterface
    public interface Progress {
        void pages(int done, int total);
    }

    /**
     * Each page's text (index 0 = page 1) and the pages (from 1) OCR'd from a picture because they were damaged
     * ({@link Ocrmypdf#repairedNote}).
     */
    public record Pages(List<String> texts, List<Integer> repaired) {
    }

    /** A PDF with a text layer on every page it could get one, and the pages (from 1) whose text came from OCR. */
    public record WithTextLayer(Path pdf, List<Integer> ocrPages) {
    }

    /** The text of an image (UTF-8, frames of a multi-page TIFF separated by form feeds). */
    public String image(Path image, Path workDir) throws OperationFailure, InterruptedException {
        return tesseract.text(image, workDir);
    }

    /**
     * The text of each page of {@code pdf}: its text layer ({@code pdftotext}), and OCR for the pages without one
     * (fewer than {@link Poppler#MIN_TEXT_CHARS} non-blank characters), or for every page when {@code everyPage}.
     * The pages to OCR are cut out with qpdf and OCR'd together.
     *
     * @param workDir a writable job folder for the OCR's files
     * @throws OperationFailure when the engines fail ({@code invalid_file} for a PDF they cannot read)
     */
    public Pages pages(Path pdf, boolean everyPage, Path workDir, Progress progress) throws OperationFailure, InterruptedException {
        List<String> pages = new ArrayList<>(poppler.pageTexts(pdf));
        List<Integer> toOcr = new ArrayList<>();
        for (int p = 1; p <= pages.size(); p++) if (everyPage || !Poppler.hasText(pages.get(p - 1))) toOcr.add(p);
        int total = pages.size();
        int done = total - toOcr.size();
        progress.pages(done, total);
        List<Integer> repaired = new ArrayList<>();
        if (!toOcr.isEmpty()) {
            try {
                Path dir = Files.createTempDirectory(workDir, "ocr-");
                Path subset = pdf;
                if (toOcr.size() < total) {
                    subset = dir.resolve("pages-to-ocr.pdf");
                    qpdf.selectPages(pdf, toOcr, subset);
                }
                Path sidecar = dir.resolve("sidecar.txt");
                List<Integer> rasterised = ocrmypdf.ocr(subset, null, sidecar, Ocrmypdf.PagesWithText.FORCE, toOcr.size(),
                        n -> progress.pages(Math.min(total, done + n), total));
                for (int p : rasterised) repaired.add(toOcr.get(p - 1));
                List<String> ocred = Ocrmypdf.sidecarPages(sidecar, toOcr.size());
                for (int i = 0; i < toOcr.size(); i++) {
                    String t = ocred.get(i);
                    pages.set(toOcr.get(i) - 1, t == null ? "" : t);
                }
            } catch (IOException e) {
                throw new OperationFailure(ErrorCode.INTERNAL_ERROR, "the OCR text could not be read", e);
            }
        }
        progress.pages(total, total);
        return new Pages(pages, repaired);
    }

    /**
     * {@code pdf} itself when every page has a text layer, else an OCR'd copy in {@code workDir} (pages with text
     * kept as they are).
     *
     * @param pageCount the page count (sets OCRmyPDF's timeout)
     */
    public WithTextLayer withTextLayer(Path pdf, int pageCount, Path workDir, Progress progress) throws OperationFailure, InterruptedException {
        List<Integer> empty = poppler.pagesWithoutText(pdf);
        if (empty.isEmpty()) return new WithTextLayer(pdf, List.of());
        Path out = workDir.resolve("ocr.pdf");
        ocrmypdf.ocr(pdf, out, workDir.resolve("ocr.txt"), Ocrmypdf.PagesWithText.SKIP, pageCount,
                done -> progress.pages(Math.min(done, empty.size()), empty.size()));
        return new WithTextLayer(out, List.copyOf(empty));
    }
}
