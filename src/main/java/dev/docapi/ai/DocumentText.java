package dev.docapi.ai;

import dev.docapi.core.FileKind;
import dev.docapi.engines.EngineFailure;
import dev.docapi.contract.InputFile;
import dev.docapi.document.DocumentModel;
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

    /**
     * The document's text with the elements it can be cited by.
     *
     * @param pages    the text per page ({@link #pages}): what quotes are checked against
     * @param withIds  the text per page as sent to a model that reads text: where a page's text is the document model's,
     *                 each element preceded by its id ({@link DocumentModel#id}, e.g. {@code [e12]}); else as in pages
     * @param elements the document model's elements, every page (none for an image, or a PDF PDFBox cannot parse)
     */
    public record Cited(List<String> pages, List<String> withIds, List<DocumentModel.Element> elements) {
    }

    /** The text and elements of {@code input} (see {@link Cited}); the model is built once per file and kept. */
    public Cited cited(InputFile input, Path workDir) throws EngineFailure, InterruptedException {
        List<String> pages = pages(input, workDir);
        DocumentModel model = model(input, true, workDir);
        if (model == null) return new Cited(pages, pages, List.of());
        List<String> withIds = new java.util.ArrayList<>(pages);
        for (DocumentModel.Page page : model.pages()) {
            int i = page.number() - 1;
            // only where the page's text is the model's: an OCR'd page reads as Tesseract's text, without ids
            if (i < pages.size() && model.pageText(page.number(), true).equals(pages.get(i))) withIds.set(i, model.pageTextWithIds(page.number()));
        }
        return new Cited(pages, withIds, elements(model));
    }

    /**
     * The document model's elements of {@code input}, every page, or none (an image; a PDF PDFBox cannot parse): where
     * the sources of a model that read the file itself are looked up. Pages are not OCR'd for this (a scan's OCR can
     * take minutes that a question answered from the PDF itself did not need): a page without a text layer has none.
     */
    public List<DocumentModel.Element> elements(InputFile input, Path workDir) throws EngineFailure, InterruptedException {
        DocumentModel model = model(input, false, workDir);
        return model == null ? List.of() : elements(model);
    }

    private DocumentModel model(InputFile input, boolean ocr, Path workDir) throws EngineFailure, InterruptedException {
        if (input.file().kind() == FileKind.IMAGE) return null;
        try {
            return documents.read(input, ocr, workDir, (done, total, unit) -> { });
        } catch (EngineFailure e) {
            if (e.kind() != EngineFailure.Kind.INVALID_INPUT) throw e;
            return null;
        }
    }

    private static List<DocumentModel.Element> elements(DocumentModel model) {
        return model.pages().stream().flatMap(p -> p.elements().stream()).toList();
    }

    /** The pages joined with {@code --- page N ---} markers, the form in which models read text. */
    public static String withPageMarkers(List<String> pages) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pages.size(); i++) sb.append("--- page ").append(i + 1).append(" ---\n").append(pages.get(i).strip()).append("\n\n");
        return sb.toString();
    }
}
