package dev.docapi.operations.convert;

import dev.docapi.engines.chromium.Chromium;
import dev.docapi.core.FileKind;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Plain text (UTF-8, UTF-16 with a BOM, Windows-1252) → pdf through Chromium: each line becomes a block with
 * {@code dir="auto"}, so Arabic and Hebrew lines run right-to-left and are shaped, and fontconfig falls back to the
 * Noto fonts for Arabic and CJK. Line breaks and runs of spaces are kept; long lines wrap.
 */
@Component
@Order(22)
public class TextToPdfConverter extends HtmlToPdfConverter {
    private static final String STYLE = """
            body { margin: 0; font-family: "DejaVu Sans Mono", "Noto Sans Mono", "Noto Sans Arabic", "Noto Sans CJK SC", monospace;
                   font-size: 10pt; line-height: 1.35; }
            div { white-space: pre-wrap; overflow-wrap: anywhere; min-height: 1.35em; unicode-bidi: plaintext; }
            """;

    public TextToPdfConverter(Chromium chromium) {
        super(chromium);
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.TEXT && to == ConvertTarget.PDF;
    }

    @Override
    protected String toHtml(byte[] bytes, String title) {
        String text = TextDecoding.decode(bytes, false).replace("\r\n", "\n").replace('\r', '\n');
        StringBuilder html = new StringBuilder(text.length() + 4096);
        html.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>").append(TextDecoding.escape(title))
                .append("</title><style>").append(STYLE).append("</style></head><body>");
        for (String line : text.split("\n", -1)) {
            html.append("<div dir=\"auto\">").append(TextDecoding.escape(line)).append("</div>");
        }
        return html.append("</body></html>").toString();
    }
}
