package dev.docapi.engines.pdfbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationText;
import org.junit.jupiter.api.Test;

/** Which pages show nothing OCR could read beyond their text layer ({@link PdfBox#blankPages}). */
class BlankPagesTest {

    @Test
    void onlyPagesThatPaintNothingButTextWithUnicodeAreBlank() throws Exception {
        Path pdf = Files.createTempDirectory("blank").resolve("pages.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage empty = page(doc);
            try (PDPageContentStream cs = new PDPageContentStream(doc, empty)) {
                cs.saveGraphicsState();
                cs.restoreGraphicsState();
            }
            PDPage numbered = page(doc);
            try (PDPageContentStream cs = new PDPageContentStream(doc, numbered)) {
                cs.beginText();
                cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 10);
                cs.newLineAtOffset(300, 40);
                cs.showText("12");
                cs.endText();
            }
            PDPage filled = page(doc);
            try (PDPageContentStream cs = new PDPageContentStream(doc, filled)) {
                cs.setNonStrokingColor(1f, 1f, 1f);
                cs.addRect(0, 0, 612, 792);
                cs.fill();
            }
            PDPage picture = page(doc);
            try (PDPageContentStream cs = new PDPageContentStream(doc, picture)) {
                cs.drawImage(LosslessFactory.createFromImage(doc, new BufferedImage(40, 40, BufferedImage.TYPE_BYTE_GRAY)), 72, 600, 200, 200);
            }
            PDPage linked = page(doc);
            PDAnnotationLink link = new PDAnnotationLink();
            link.setRectangle(new PDRectangle(72, 700, 100, 20));
            linked.getAnnotations().add(link);
            PDPage noted = page(doc);
            PDAnnotationText note = new PDAnnotationText();
            note.setRectangle(new PDRectangle(72, 700, 20, 20));
            noted.getAnnotations().add(note);
            doc.save(pdf.toFile());
        }
        assertThat(PdfBox.blankPages(pdf, List.of(1, 2, 3, 4, 5, 6, 7))).containsExactly(1, 2, 5);
        assertThat(PdfBox.blankPages(pdf, List.of(3, 4))).isEmpty();
        assertThat(PdfBox.blankPages(pdf.resolveSibling("missing.pdf"), List.of(1))).isEmpty();
    }

    private static PDPage page(PDDocument doc) {
        PDPage page = new PDPage(PDRectangle.LETTER);
        doc.addPage(page);
        return page;
    }
}
