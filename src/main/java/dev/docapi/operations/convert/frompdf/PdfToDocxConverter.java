package dev.docapi.operations.convert.frompdf;

import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.engines.tabula.Tabula;
import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.operations.convert.Converter;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFRun;
import org.apache.poi.xwpf.usermodel.XWPFStyle;
import org.apache.poi.xwpf.usermodel.XWPFStyles;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.CTStyle;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.STStyleType;
import org.springframework.stereotype.Component;

/**
 * pdf → docx (spec §4.4): flowing, editable text ({@link FlowReader}) — one Word paragraph per PDF paragraph (its
 * lines joined, line-end hyphens removed), not one text box per line. Headings become Heading 1 / Heading 2 (real
 * Word heading styles, so they show in the navigation pane); each PDF page starts a new Word page;
 * ruled tables (Tabula lattice) become real Word tables where the text reaches them. Scans are OCR'd first.
 * A page's images follow its text (OCR'd scans excepted: their image is the page). Not carried over: columns, fonts,
 * exact positions.
 */
@Component
public class PdfToDocxConverter implements Converter {
    private final FlowReader reader;

    public PdfToDocxConverter(FlowReader reader) {
        this.reader = reader;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.PDF && to == ConvertTarget.DOCX;
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        List<FlowReader.Item> items = reader.read(in, ctx, true);
        Path part = out.resolveSibling(out.getFileName() + ".part");
        try (XWPFDocument docx = new XWPFDocument()) {
            headingStyles(docx);
            for (FlowReader.Item item : items) {
                if (item.table() != null) {
                    if (item.pageBreak()) docx.createParagraph().setPageBreak(true);
                    table(docx, item.table());
                } else if (item.image() != null) {
                    XWPFParagraph para = docx.createParagraph();
                    if (item.pageBreak()) para.setPageBreak(true);
                    picture(para, item.image());
                } else {
                    XWPFParagraph para = docx.createParagraph();
                    if (item.pageBreak()) para.setPageBreak(true);
                    write(para, item.lines(), item.style());
                }
            }
            try (OutputStream os = Files.newOutputStream(part)) {
                docx.write(os);
            }
        }
        Files.move(part, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return out;
    }

    private static void write(XWPFParagraph para, List<ParagraphStripper.Line> lines, String style) {
        String text = FlowReader.join(lines);
        ParagraphStripper.Line first = lines.getFirst();
        if (style != null) para.setStyle(style);
        // a paragraph whose first strong character is right-to-left (Arabic, Hebrew) is a right-to-left paragraph
        if (com.ibm.icu.text.Bidi.getBaseDirection(text) == com.ibm.icu.text.Bidi.RTL) {
            (para.getCTP().isSetPPr() ? para.getCTP().getPPr() : para.getCTP().addNewPPr()).addNewBidi();
        }
        XWPFRun run = para.createRun();
        run.setText(PdfToPptxConverter.clean(text));
        if (style != null) {
            run.setBold(true);
            run.setFontSize(style.equals("Heading1") ? 16 : 13);
        } else {
            if (first.bold()) run.setBold(true);
            if (first.size() > 0) run.setFontSize(Math.max(6, Math.min(28, Math.round(first.size()))));
        }
    }

    private static void table(XWPFDocument docx, Tabula.PdfTable t) {
        int rows = t.rows().size(), cols = t.rows().getFirst().size();
        XWPFTable table = docx.createTable(rows, cols);
        for (int r = 0; r < rows; r++) {
            XWPFTableRow row = table.getRow(r);
            for (int c = 0; c < cols; c++) {
                String v = t.rows().get(r).get(c);
                row.getCell(c).getParagraphs().getFirst().createRun().setText(PdfToPptxConverter.clean(v));
            }
        }
        docx.createParagraph();
    }

    /** The picture at 150 dpi, at most the text width (6.5 in) wide, keeping its aspect. */
    private static void picture(XWPFParagraph para, ParagraphStripper.Image image) throws IOException {
        double w = image.width() * 72.0 / 150, h = image.height() * 72.0 / 150;
        double scale = Math.min(1, 468 / w);
        try (var is = new java.io.ByteArrayInputStream(image.png())) {
            para.createRun().addPicture(is, org.apache.poi.xwpf.usermodel.Document.PICTURE_TYPE_PNG, "image.png",
                    org.apache.poi.util.Units.toEMU(w * scale), org.apache.poi.util.Units.toEMU(h * scale));
        } catch (org.apache.poi.openxml4j.exceptions.InvalidFormatException e) {
            throw new IOException(e);
        }
    }

    /** Word's built-in heading styles are not in a blank POI document: define Heading 1 and 2 (outline levels 0, 1). */
    private static void headingStyles(XWPFDocument docx) {
        XWPFStyles styles = docx.createStyles();
        for (int level = 1; level <= 2; level++) {
            CTStyle ct = CTStyle.Factory.newInstance();
            ct.setStyleId("Heading" + level);
            ct.setType(STStyleType.PARAGRAPH);
            ct.addNewName().setVal("heading " + level);
            ct.addNewBasedOn().setVal("Normal");
            ct.addNewNext().setVal("Normal");
            ct.addNewQFormat();
            ct.addNewPPr().addNewOutlineLvl().setVal(BigInteger.valueOf(level - 1));
            ct.getPPr().addNewKeepNext();
            ct.addNewRPr().addNewB();
            styles.addStyle(new XWPFStyle(ct, styles));
        }
    }
}
