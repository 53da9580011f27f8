package dev.docapi.ai;

import dev.docapi.api.ErrorCode;
import dev.docapi.engines.ocrmypdf.Ocrmypdf;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.tesseract.Tesseract;
import dev.docapi.operations.FileKind;
import dev.docapi.operations.InputFile;
import dev.docapi.operations.OperationFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * A document's text, page by page: what {@code custom/} models read and what the grounding check of {@code extract}
 * verifies quotes against. PDFs: the text layer ({@link Poppler}); when a page has none, OCRmyPDF reads the pages
 * without text (sidecar only, pages with text kept). Images: {@link Tesseract}. Index 0 is page 1.
 */
@Component
public class DocumentText {
    private final Poppler poppler;
    private final Ocrmypdf ocrmypdf;
    private final Tesseract tesseract;

    public DocumentText(Poppler poppler, Ocrmypdf ocrmypdf, Tesseract tesseract) {
        this.poppler = poppler;
        this.ocrmypdf = ocrmypdf;
        this.tesseract = tesseract;
    }

    /** @throws OperationFailure when the text cannot be read (the engines failed) */
    public List<String> pages(InputFile input, Path workDir) throws OperationFailure, InterruptedException {
        if (input.file().kind() == FileKind.IMAGE) return List.of(tesseract.text(input.path(), workDir));
        List<String> layer = poppler.pageTexts(input.path());
        if (!layer.isEmpty() && layer.stream().allMatch(Poppler::hasText)) return layer;
        Path sidecar = workDir.resolve("ocr-sidecar.txt");
        int count = input.file().pages() != null ? input.file().pages() : Math.max(layer.size(), 1);
        ocrmypdf.ocr(input.path(), null, sidecar, Ocrmypdf.PagesWithText.SKIP, count, null);
        List<String> read;
        try {
            read = Ocrmypdf.sidecarPages(sidecar, count);
        } catch (IOException e) {
            throw new OperationFailure(ErrorCode.INTERNAL_ERROR, "the OCR text could not be read", e);
        }
        List<String> merged = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String l = i < layer.size() ? layer.get(i) : "";
            String r = read.get(i);
            merged.add(Poppler.hasText(l) || r == null ? l : r);
        }
        return merged;
    }

    /** The pages joined with {@code --- page N ---} markers, the form in which models read text. */
    public static String withPageMarkers(List<String> pages) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pages.size(); i++) sb.append("--- page ").append(i + 1).append(" ---\n").append(pages.get(i).strip()).append("\n\n");
        return sb.toString();
    }
}
