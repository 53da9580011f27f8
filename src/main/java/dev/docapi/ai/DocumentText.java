package dev.docapi.ai;

import dev.docapi.core.FileKind;
import dev.docapi.engines.EngineFailure;
import dev.docapi.contract.InputFile;
import dev.docapi.document.DocumentReader;
import dev.docapi.text.OcrText;
import java.nio.file.Path;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * A document's text, page by page: what {@code custom/} models read and what the grounding check of {@code extract}
 * verifies quotes against. A PDF's pages as its document model reads them (reading order, headings and lists as
 * paragraphs, tables as rows: {@link DocumentReader#pageTexts}), OCR for pages without a text layer; an image's OCR
 * ({@link OcrText}). Index 0 is page 1.
 */
@Component
public class DocumentText {
    private final OcrText ocrText;
    private final DocumentReader documents;

    public DocumentText(OcrText ocrText, DocumentReader documents) {
        this.ocrText = ocrText;
        this.documents = documents;
    }

    /** @throws EngineFailure when the text cannot be read (the engines failed) */
    public List<String> pages(InputFile input, Path workDir) throws EngineFailure, InterruptedException {
        if (input.file().kind() == FileKind.IMAGE) return List.of(ocrText.image(input.path(), workDir));
        return documents.pageTexts(input, true, workDir, (done, total) -> { }).texts();
    }

    /** The pages joined with {@code --- page N ---} markers, the form in which models read text. */
    public static String withPageMarkers(List<String> pages) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pages.size(); i++) sb.append("--- page ").append(i + 1).append(" ---\n").append(pages.get(i).strip()).append("\n\n");
        return sb.toString();
    }
}
