package dev.docapi.ai;

import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.TextContent;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;

/**
 * The document as message parts for one model (spec §2.5): hosted providers receive the PDF or image itself
 * (a document/file part); {@code custom/} receives the text, page by page, OCR'd when the file is a scan. Images in a
 * format the providers do not all take (TIFF) are sent as PNG (first page). A file larger than
 * {@link #MAX_INLINE_BYTES} is sent as text to every provider (inline request limits).
 */
public final class DocumentInput {
    /** Largest file sent inline (providers cap inline data at about 20-32 MB per request). */
    public static final long MAX_INLINE_BYTES = 20L * 1024 * 1024;
    private static final Set<String> SENT_AS_IS = Set.of("image/png", "image/jpeg", "image/webp", "image/gif");

    private DocumentInput() {
    }

    /** True when a model that reads PDFs gets this file itself (false: it gets the text). */
    public static boolean sendsFile(InputFile input) {
        return input.file().size() <= MAX_INLINE_BYTES;
    }

    /**
     * @param pages the document's text per page; used only when the text is sent (see {@link #sendsFile})
     */
    public static List<Content> parts(ModelClient model, InputFile input, List<String> pages) throws IOException {
        List<Content> parts = new ArrayList<>();
        if (model.readsPdf() && sendsFile(input)) {
            Integer count = input.file().pages();
            if (input.file().kind() == FileKind.PDF) {
                parts.add(PdfFileContent.from(Base64.getEncoder().encodeToString(Files.readAllBytes(input.path())), "application/pdf"));
            } else if (SENT_AS_IS.contains(input.file().contentType())) {
                parts.add(ImageContent.from(Base64.getEncoder().encodeToString(Files.readAllBytes(input.path())), input.file().contentType()));
            } else {
                parts.add(ImageContent.from(Base64.getEncoder().encodeToString(png(input)), "image/png"));
            }
            parts.add(TextContent.from("The document above is '" + input.file().name() + "'"
                    + (count != null ? " (" + count + " page" + (count == 1 ? "" : "s") + ")" : "") + "."));
        } else {
            parts.add(TextContent.from("The document '" + input.file().name() + "', as text (pages marked):\n\n" + DocumentText.withPageMarkers(pages)));
        }
        return parts;
    }

    private static byte[] png(InputFile input) throws IOException {
        BufferedImage img = ImageIO.read(input.path().toFile());
        if (img == null) throw new IOException("the image cannot be read");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        return out.toByteArray();
    }
}
