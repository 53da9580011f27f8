package dev.docapi.ai;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.operations.FileKind;
import dev.docapi.operations.InputFile;
import dev.docapi.operations.OperationFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * A document's text, page by page: what {@code custom/} models read and what the grounding check of {@code extract}
 * verifies quotes against. PDFs: the text layer (pdftotext); pages without one are OCR'd with OCRmyPDF
 * ({@code --skip-text}, sidecar text, eng+ara). Images: OCR'd with tesseract. Pages are numbered from 1.
 */
@Component
public class DocumentText {
    /** A page with fewer letters than this counts as a scan. */
    private static final int MIN_LETTERS = 10;
    private final ProcessRunner runner;

    public DocumentText(ProcessRunner runner) {
        this.runner = runner;
    }

    /** @throws OperationFailure when the text cannot be read (the engines failed) */
    public List<String> pages(InputFile input, Path workDir) throws OperationFailure {
        try {
            if (input.file().kind() == FileKind.IMAGE) return List.of(ocrImage(input.path(), workDir));
            List<String> pages = textLayer(input.path(), workDir);
            boolean anyScan = pages.isEmpty() || pages.stream().anyMatch(p -> letters(p) < MIN_LETTERS);
            if (!anyScan) return pages;
            List<String> ocr = ocrPdf(input.path(), workDir);
            List<String> merged = new ArrayList<>();
            for (int i = 0; i < Math.max(pages.size(), ocr.size()); i++) {
                String layer = i < pages.size() ? pages.get(i) : "";
                String read = i < ocr.size() ? ocr.get(i) : "";
                merged.add(letters(layer) >= MIN_LETTERS || read.contains("[OCR skipped on page") ? layer : read);
            }
            return merged;
        } catch (IOException e) {
            throw new OperationFailure(dev.docapi.api.ErrorCode.INTERNAL_ERROR, "the document's text could not be read", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OperationFailure("interrupted while reading the document's text");
        }
    }

    /** The pages joined with {@code --- page N ---} markers, the form in which models read text. */
    public static String withPageMarkers(List<String> pages) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pages.size(); i++) sb.append("--- page ").append(i + 1).append(" ---\n").append(pages.get(i).strip()).append("\n\n");
        return sb.toString();
    }

    private List<String> textLayer(Path pdf, Path work) throws IOException, InterruptedException {
        Path out = work.resolve("text-layer.txt");
        var r = runner.run(List.of("pdftotext", "-enc", "UTF-8", pdf.toString(), out.toString()), Duration.ofMinutes(2));
        if (!r.ok() || !Files.exists(out)) throw new IOException("pdftotext exit " + r.exitCode() + ": " + r.stderr());
        return splitPages(Files.readString(out, StandardCharsets.UTF_8));
    }

    private List<String> ocrPdf(Path pdf, Path work) throws IOException, InterruptedException {
        Path sidecar = work.resolve("ocr-sidecar.txt");
        Path outPdf = work.resolve("ocr.pdf");
        var r = runner.run(List.of("ocrmypdf", "--skip-text", "-l", "eng+ara", "--output-type", "pdf", "--optimize", "0",
                "--sidecar", sidecar.toString(), pdf.toString(), outPdf.toString()), Duration.ofMinutes(10));
        if (!r.ok() || !Files.exists(sidecar)) throw new IOException("ocrmypdf exit " + r.exitCode() + ": " + r.stderr());
        return splitPages(Files.readString(sidecar, StandardCharsets.UTF_8));
    }

    private String ocrImage(Path image, Path work) throws IOException, InterruptedException {
        Path base = work.resolve("ocr-image");
        var r = runner.run(List.of("tesseract", image.toString(), base.toString(), "-l", "eng+ara"), Duration.ofMinutes(5));
        Path txt = work.resolve("ocr-image.txt");
        if (!r.ok() || !Files.exists(txt)) throw new IOException("tesseract exit " + r.exitCode() + ": " + r.stderr());
        return Files.readString(txt, StandardCharsets.UTF_8);
    }

    static List<String> splitPages(String all) {
        List<String> pages = new ArrayList<>(List.of(all.split("\f", -1)));
        if (pages.size() > 1 && pages.getLast().isBlank()) pages.removeLast();
        return pages;
    }

    private static int letters(String s) {
        return (int) s.codePoints().filter(Character::isLetterOrDigit).count();
    }
}
