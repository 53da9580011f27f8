package dev.docapi.operations.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType0Font;
import org.junit.jupiter.api.Test;

class PdfWordsTest {

    /** The words {@link PdfWords} reads from a page on which {@code lines} are drawn, glyph after glyph left to right. */
    private static List<String> wordsOf(String... lines) throws IOException {
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage();
            doc.addPage(page);
            PDType0Font font = PDType0Font.load(doc, new File("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.beginText();
                cs.setFont(font, 14);
                cs.newLineAtOffset(50, 700);
                for (String line : lines) {
                    cs.showText(line);
                    cs.newLineAtOffset(0, -40);
                }
                cs.endText();
            }
            return PdfWords.of(doc, p -> { }).stream().map(PdfWords.Word::text).toList();
        }
    }

    private static String drawn(String rightToLeft) {
        return new StringBuilder(rightToLeft).reverse().toString();
    }

    @Test
    void arabicDrawnInVisualOrderIsComparedInLogicalOrder() throws Exception {
        // "مرحبا بالعالم" as most writers draw it: glyphs left to right, so each word last letter first
        assertThat(wordsOf(drawn("مرحبا بالعالم"))).containsExactly("مرحبا", "بالعالم");
    }

    @Test
    void aMixedLineIsReadInItsParagraphsDirectionWithEachRunInItsOwn() throws Exception {
        // an English line with two Arabic words, and an Arabic line with a Latin run, both drawn as on the page
        assertThat(wordsOf("The word " + drawn("سلام عليكم") + " means peace", drawn("لنا") + " hello world " + drawn("قال")))
                .containsExactly("The", "word", "سلام", "عليكم", "means", "peace", "قال", "hello", "world", "لنا");
    }
}
