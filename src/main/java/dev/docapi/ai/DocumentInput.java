package dev.docapi.ai;

import dev.docapi.operations.FileKind;
import dev.docapi.operations.InputFile;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.TextContent;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The document as message parts for one model (spec §2.5): hosted providers receive the PDF or image itself
 * (a document/file part); {@code custom/} receives the text, page by page, OCR'd when the file is a scan.
 */
public final class DocumentInput {
    private DocumentInput() {
    }

    public static List<Content> parts(ModelClient model, InputFile input, List<String> pages) throws IOException {
        List<Content> parts = new ArrayList<>();
        if (model.readsPdf()) {
            String b64 = Base64.getEncoder().encodeToString(Files.readAllBytes(input.path()));
            if (input.file().kind() == FileKind.PDF) parts.add(PdfFileContent.from(b64, "application/pdf"));
            else parts.add(ImageContent.from(b64, input.file().contentType()));
            parts.add(TextContent.from("The document above is '" + input.file().name() + "'" + (pages.size() > 0 ? " (" + pages.size() + " page" + (pages.size() == 1 ? "" : "s") + ")" : "") + "."));
        } else {
            parts.add(TextContent.from("The document '" + input.file().name() + "', as text (pages marked):\n\n" + DocumentText.withPageMarkers(pages)));
        }
        return parts;
    }
}
