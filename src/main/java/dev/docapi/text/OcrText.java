package dev.docapi.text;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.ocrmypdf.Ocrmypdf;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.engines.tesseract.Tesseract;
import dev.docapi.contract.InputFile;
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
 * is Tesseract's own output (the OCRmyPDF sidecar), in logical order. A file's OCR runs once and is kept with it
 * ({@link OcrOnce}); only an {@code everyPage} reading OCRs the pages that have a text layer afresh.
 */
@Component
public class OcrText {
    private final Poppler poppler;
    private final Ocrmypdf ocrmypdf;
    private final Tesseract tesseract;
    private final Qpdf qpdf;
    private final OcrOnce ocrOnce;
    private final TextLayer textLayer;

    public OcrText(Poppler poppler, Ocrmypdf ocrmypdf, Tesseract tesseract, Qpdf qpdf, OcrOnce ocrOnce, TextLayer textLayer) {
        this.textLayer = textLayer;
        this.poppler = poppler;
        this.ocrOnce = ocrOnce;
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
    public String image(Path image, Path workDir) throws EngineFailure, InterruptedException {
        return tesseract.text(image, workDir);
    }

    /**
     * The text of each page of {@code in}: its text layer ({@link TextLayer}, in logical order), and OCR for the pages without one
     * (fewer than {@link Poppler#MIN_TEXT_CHARS} non-blank characters), taken from the OCR kept with the file
     * ({@link OcrOnce}) or run now and kept. A page with a few characters of text, which OCRmyPDF leaves alone, is
     * OCR'd on its own here. A page that shows nothing beyond its text layer ({@link PdfBox#blankPages}: an empty
     * page, one with only its page number) is not OCR'd: its text is its text layer's.
     *
     * @param workDir a writable job folder for the OCR's files
     * @throws EngineFailure when the engines fail ({@code invalid_file} for a PDF they cannot read)
     */
    public Pages pages(InputFile in, Path workDir, Progress progress) throws EngineFailure, InterruptedException {
        return pages(in, false, workDir, progress);
    }

    /**
     * As {@link #pages(InputFile, Path, Progress)}, or with every page OCR'd when {@code everyPage}: the pages without
     * a text layer still from the kept OCR (a picture reads the same either way, and the next operation on the file
     * reuses it: issue 25 item 2), the pages with one OCR'd afresh from their picture (not kept: the caller asked for a
     * new reading of them). The pages OCR'd afresh are cut out with qpdf and OCR'd together.
     */
    public Pages pages(InputFile in, boolean everyPage, Path workDir, Progress progress) throws EngineFailure, InterruptedException {
        List<String> pages = new ArrayList<>(textLayer.pages(in.path(), workDir));
        List<Integer> toOcr = new ArrayList<>();
        List<Integer> withText = new ArrayList<>();
        for (int p = 1; p <= pages.size(); p++) (Poppler.hasText(pages.get(p - 1)) ? withText : toOcr).add(p);
        toOcr.removeAll(PdfBox.blankPages(in.path(), toOcr));
        int total = pages.size();
        int done = total - toOcr.size();
        progress.pages(everyPage ? 0 : done, total);
        List<Integer> repaired = new ArrayList<>();
        if (!toOcr.isEmpty()) {
            OcrOnce.Result kept = ocrOnce.ocr(in, total, workDir, n -> progress.pages(Math.min(total, (everyPage ? 0 : done) + n), total));
            List<Integer> skipped = new ArrayList<>();
            for (int p : toOcr) {
                String t = kept.texts().get(p - 1);
                if (t == null) skipped.add(p);
                else pages.set(p - 1, t);
            }
            repaired.addAll(kept.repaired().stream().filter(toOcr::contains).toList());
            if (!skipped.isEmpty()) repaired.addAll(forceOcr(in.path(), pages, skipped, workDir, (d, t) -> { }));
        }
        if (everyPage && !withText.isEmpty()) repaired.addAll(forceOcr(in.path(), pages, withText, workDir, progress));
        progress.pages(total, total);
        return new Pages(pages, repaired.stream().distinct().sorted().toList());
    }

    /**
     * OCRs pages {@code toOcr} (from 1) of {@code pdf} from a picture of each, replacing their entries of
     * {@code pages}; returns those OCR'd from a picture because they were damaged.
     */
    private List<Integer> forceOcr(Path pdf, List<String> pages, List<Integer> toOcr, Path workDir, Progress progress)
            throws EngineFailure, InterruptedException {
        int total = pages.size();
        int done = total - toOcr.size();
        List<Integer> repaired = new ArrayList<>();
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
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the OCR text could not be read", e);
        }
        return repaired;
    }

    /**
     * {@code in} itself when every page has a text layer or shows nothing beyond it ({@link PdfBox#blankPages}), else
     * its OCR'd copy (pages with text kept as they are), kept with the file ({@link OcrOnce}); read it only.
     *
     * @param pageCount the page count (sets OCRmyPDF's timeout)
     */
    public WithTextLayer withTextLayer(InputFile in, int pageCount, Path workDir, Progress progress) throws EngineFailure, InterruptedException {
        List<Integer> empty = new ArrayList<>(poppler.pagesWithoutText(in.path()));
        empty.removeAll(PdfBox.blankPages(in.path(), empty));
        if (empty.isEmpty()) return new WithTextLayer(in.path(), List.of());
        OcrOnce.Result kept = ocrOnce.ocr(in, pageCount, workDir, done -> progress.pages(Math.min(done, empty.size()), empty.size()));
        return new WithTextLayer(kept.pdf(), List.copyOf(empty));
    }
}
