package dev.docapi.operations.convert.frompdf;

import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.operations.convert.Converter;
import dev.docapi.document.DocumentReader;
import java.awt.Dimension;
import java.awt.geom.Rectangle2D;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.poi.sl.usermodel.PictureData;
import org.apache.poi.sl.usermodel.Placeholder;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFNotes;
import org.apache.poi.xslf.usermodel.XSLFPictureData;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFTextShape;
import org.springframework.stereotype.Component;

/**
 * pdf → pptx (spec §4.4): one slide per page, the slide sized to the first page (in points; PowerPoint has one size
 * per presentation), each page rendered at {@value #DPI} dpi as a full-slide picture — exact look, whatever the
 * page holds — and the page's text in the slide's notes so the presentation stays searchable: as the document model
 * reads it ({@link DocumentReader#pageTexts}), a scan's from its OCR, both kept with the file.
 */
@Component
public class PdfToPptxConverter implements Converter {
    static final int DPI = 150;
    private final Poppler poppler;
    private final PdfBox pdfBox;
    private final DocumentReader documents;

    public PdfToPptxConverter(Poppler poppler, PdfBox pdfBox, DocumentReader documents) {
        this.poppler = poppler;
        this.pdfBox = pdfBox;
        this.documents = documents;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.PDF && to == ConvertTarget.PPTX;
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        List<Dimension> sizes = new ArrayList<>();
        try (PDDocument doc = pdfBox.open(in.path(), null, ctx.tempDir("pptx-open"))) {
            for (PDPage page : doc.getPages()) {
                PDRectangle box = page.getCropBox();
                boolean turned = page.getRotation() % 180 != 0;
                float w = turned ? box.getHeight() : box.getWidth();
                float h = turned ? box.getWidth() : box.getHeight();
                sizes.add(new Dimension(Math.max(1, Math.round(w)), Math.max(1, Math.round(h))));
            }
        }
        int pages = sizes.size();
        List<String> texts = documents.pageTexts(in, true, ctx.tempDir("text"), (done, total) -> ctx.progress(done, total, "pages OCR'd")).texts();
        Path part = out.resolveSibling(out.getFileName() + ".part");
        try (XMLSlideShow ppt = new XMLSlideShow()) {
            Dimension slideSize = sizes.isEmpty() ? new Dimension(720, 540) : sizes.getFirst();
            ppt.setPageSize(slideSize);
            for (int p = 1; p <= pages; p++) {
                Path dir = ctx.tempDir("slide-" + p);
                Path png = poppler.render(in.path(), p, p, DPI, "png", dir).getFirst();
                XSLFPictureData data = ppt.addPicture(Files.readAllBytes(png), PictureData.PictureType.PNG);
                Files.delete(png);
                XSLFSlide slide = ppt.createSlide();
                // A page of another shape than the slide is fitted inside it, centred, keeping its aspect.
                Dimension page = sizes.get(p - 1);
                double scale = Math.min(slideSize.getWidth() / page.getWidth(), slideSize.getHeight() / page.getHeight());
                double w = page.getWidth() * scale, h = page.getHeight() * scale;
                slide.createPicture(data).setAnchor(new Rectangle2D.Double((slideSize.getWidth() - w) / 2, (slideSize.getHeight() - h) / 2, w, h));
                String text = p - 1 < texts.size() ? texts.get(p - 1).strip() : "";
                if (!text.isEmpty()) notes(ppt.getNotesSlide(slide), clean(text));
                ctx.progress(p, pages, "pages");
            }
            try (OutputStream os = Files.newOutputStream(part)) {
                ppt.write(os);
            }
        }
        Files.move(part, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return out;
    }

    private static void notes(XSLFNotes notes, String text) {
        for (XSLFTextShape shape : notes.getPlaceholders()) {
            if (shape.getTextType() == Placeholder.BODY) {
                shape.setText(text);
                return;
            }
        }
    }

    /** XML 1.0 cannot hold most control characters; pdftotext can emit them from odd fonts. */
    static String clean(String s) {
        return s.replaceAll("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]", "");
    }
}
