package dev.docapi.operations.convert;

import dev.docapi.engines.chromium.Chromium;
import dev.docapi.core.FileKind;
import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.strikethrough.StrikethroughExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** Markdown (CommonMark + GFM tables and strikethrough) → HTML with a plain print stylesheet → pdf through Chromium. */
@Component
@Order(21)
public class MarkdownToPdfConverter extends HtmlToPdfConverter {
    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create(), StrikethroughExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS).build();
    static final String STYLE = """
            body { font-family: "Noto Sans", "DejaVu Sans", "Noto Sans Arabic", "Noto Sans CJK SC", sans-serif;
                   font-size: 11pt; line-height: 1.45; color: #1a1a1a; }
            h1, h2, h3, h4 { line-height: 1.2; margin: 1.2em 0 0.5em; page-break-after: avoid; }
            h1 { font-size: 1.9em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
            h2 { font-size: 1.5em; border-bottom: 1px solid #eee; padding-bottom: 0.15em; }
            h3 { font-size: 1.25em; }
            p, ul, ol, blockquote, table, pre { margin: 0 0 0.9em; }
            code, pre { font-family: "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: 0.9em; }
            code { background: #f3f3f3; padding: 0.1em 0.3em; border-radius: 3px; }
            pre { background: #f6f8fa; border: 1px solid #e1e4e8; border-radius: 4px; padding: 0.7em 0.9em;
                  white-space: pre-wrap; overflow-wrap: anywhere; page-break-inside: avoid; }
            pre code { background: none; padding: 0; }
            table { border-collapse: collapse; }
            th, td { border: 1px solid #c8c8c8; padding: 0.3em 0.6em; text-align: start; vertical-align: top; }
            th { background: #f0f0f0; }
            tr { page-break-inside: avoid; }
            blockquote { border-inline-start: 4px solid #ddd; padding: 0 1em; color: #555; }
            img { max-width: 100%; }
            a { color: #0b57d0; }
            """;

    public MarkdownToPdfConverter(Chromium chromium) {
        super(chromium);
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.MARKDOWN && to == ConvertTarget.PDF;
    }

    @Override
    protected String toHtml(byte[] bytes, String title) {
        String body = RENDERER.render(PARSER.parse(TextDecoding.decode(bytes, false)));
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + TextDecoding.escape(title) + "</title><style>"
                + STYLE + "</style></head><body dir=\"auto\">" + body + "</body></html>";
    }
}
