package dev.docapi.operations.convert.frompdf;

import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.core.FileKind;
import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentReader;
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
 * pdf → docx (spec §4.4): flowing, editable text from the {@link DocumentModel} — one Word paragraph per PDF paragraph
 * (its lines joined, line-end hyphens removed), in reading order, not one text box per line. The title and headings
 * become Heading 1 to Heading 6 (real Word heading styles, so they show in the navigation pane; the title is Heading 1,
 * a section "1" Heading 2); list items become paragraphs with their marker, indented by their level; each PDF page
 * starts a new Word page; tables (ruled, or found by the alignment of their text) become real Word tables; pictures
 * stand where the model places them (OCR'd scans have none: their image is the page); code listings keep their lines
 * in Courier New; the text's links (web and mail addresses) are hyperlinks. Running headers, footers and
 * page numbers are kept as small paragraphs where they stand. Scans are OCR'd first. Not carried over: columns, fonts,
 * exact positions.
 */
@Component
public class PdfToDocxConverter implements Converter {
    private static final int HEADING_LEVELS = 6;
    private final DocumentReader reader;

    public PdfToDocxConverter(DocumentReader reader) {
        this.reader = reader;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.PDF && to == ConvertTarget.DOCX;
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        DocumentModel model = reader.read(in, ctx);
        List<List<byte[]>> pictures = reader.pictures(in.path(), ctx.tempDir("pictures"));
        Path part = out.resolveSibling(out.getFileName() + ".part");
        try (XWPFDocument docx = new XWPFDocument()) {
            headingStyles(docx);
            // the last paragraph written and its element: a form field and its label on one row make one paragraph
            XWPFParagraph last = null;
            DocumentModel.Element previous = null;
            for (DocumentModel.Page page : model.pages()) {
                boolean pageBreak = page.number() > 1;
                for (DocumentModel.Element e : page.elements()) {
                    String joint = previous == null || e.text().isBlank() ? null : DocumentModel.joint(previous, e);
                    previous = e;
                    if (joint != null && last != null) {
                        last.createRun().setText(PdfToPptxConverter.clean(joint + DocumentModel.flowed(e.text())));
                        continue;
                    }
                    last = null;
                    if (e.type() == DocumentModel.Type.TABLE) {
                        if (pageBreak) docx.createParagraph().setPageBreak(true);
                        table(docx, e.table(), e.links());
                    } else if (e.type() == DocumentModel.Type.PICTURE) {
                        List<byte[]> onPage = page.number() <= pictures.size() ? pictures.get(page.number() - 1) : List.of();
                        byte[] png = e.picture() <= onPage.size() ? onPage.get(e.picture() - 1) : null;
                        if (png == null) continue;
                        XWPFParagraph para = docx.createParagraph();
                        if (pageBreak) para.setPageBreak(true);
                        picture(para, png);
                    } else {
                        if (e.text().isBlank()) continue;
                        XWPFParagraph para = docx.createParagraph();
                        if (pageBreak) para.setPageBreak(true);
                        write(para, e);
                        last = para;
                    }
                    pageBreak = false;
                }
                if (pageBreak) docx.createParagraph().setPageBreak(true);
            }
            try (OutputStream os = Files.newOutputStream(part)) {
                docx.write(os);
            }
        }
        Files.move(part, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return out;
    }

    private static void write(XWPFParagraph para, DocumentModel.Element e) {
        if (e.type() == DocumentModel.Type.CODE) {
            code(para, e);
            return;
        }
        String text = DocumentModel.flowed(e.text());
        Integer heading = switch (e.type()) {
            case TITLE -> 1;
            case HEADING -> Math.min(HEADING_LEVELS, (e.level() == null ? 1 : e.level()) + 1);
            default -> null;
        };
        if (heading != null) para.setStyle("Heading" + heading);
        // a paragraph whose first strong character is right-to-left (Arabic, Hebrew) is a right-to-left paragraph
        if (com.ibm.icu.text.Bidi.getBaseDirection(text) == com.ibm.icu.text.Bidi.RTL) {
            (para.getCTP().isSetPPr() ? para.getCTP().getPPr() : para.getCTP().addNewPPr()).addNewBidi();
        }
        if (e.type() == DocumentModel.Type.LIST_ITEM) {
            para.setIndentationLeft(360 * (e.level() == null ? 1 : e.level()));
            if (e.marker() != null) text = e.marker() + " " + text;
        }
        for (XWPFRun run : runs(para, DocumentModel.Link.pieces(PdfToPptxConverter.clean(text), e.links()))) {
            if (heading != null) {
                run.setBold(true);
                run.setFontSize(heading == 1 ? 16 : heading == 2 ? 14 : 12);
            } else {
                if (e.bold()) run.setBold(true);
                float size = e.type().furniture() ? Math.min(e.fontSize(), 8) : e.fontSize();
                if (size > 0) run.setFontSize(Math.max(6, Math.min(28, Math.round(size))));
            }
        }
    }

    /** The pieces of a text as runs of {@code para}: a linked piece a hyperlink run, shown as Word shows one (blue, underlined). */
    private static List<XWPFRun> runs(XWPFParagraph para, List<DocumentModel.Link.Piece> pieces) {
        List<XWPFRun> runs = new java.util.ArrayList<>();
        for (DocumentModel.Link.Piece piece : pieces) {
            XWPFRun run = piece.link() == null ? para.createRun() : para.createHyperlinkRun(piece.link().uri());
            run.setText(piece.text());
            if (piece.link() != null) {
                run.setUnderline(org.apache.poi.xwpf.usermodel.UnderlinePatterns.SINGLE);
                run.setColor("0563C1");
            }
            runs.add(run);
        }
        return runs;
    }

    /** A code listing: its lines in a monospaced font, a line break between them (leading spaces kept). */
    private static void code(XWPFParagraph para, DocumentModel.Element e) {
        XWPFRun run = para.createRun();
        run.setFontFamily("Courier New");
        if (e.fontSize() > 0) run.setFontSize(Math.max(6, Math.min(28, Math.round(e.fontSize()))));
        String[] lines = PdfToPptxConverter.clean(e.text()).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) run.addBreak();
            run.setText(lines[i]);
        }
    }

    /** A table as a Word table, the links of its cells ({@code links}, in reading order) as hyperlinks. */
    private static void table(XWPFDocument docx, DocumentModel.Table t, List<DocumentModel.Link> links) {
        List<DocumentModel.Link> left = links == null ? new java.util.ArrayList<>() : new java.util.ArrayList<>(links);
        List<List<String>> grid = t.grid();
        int rows = grid.size(), cols = t.columns();
        if (rows == 0 || cols == 0) return;
        XWPFTable table = docx.createTable(rows, cols);
        // a right-to-left table's rows come in reading order (DocumentModel.Table): Word lays its first cell on the right
        if (t.rightToLeft()) {
            (table.getCTTbl().getTblPr() != null ? table.getCTTbl().getTblPr() : table.getCTTbl().addNewTblPr()).addNewBidiVisual();
        }
        for (int r = 0; r < rows; r++) {
            XWPFTableRow row = table.getRow(r);
            for (int c = 0; c < cols; c++) {
                String v = grid.get(r).get(c);
                runs(row.getCell(c).getParagraphs().getFirst(), DocumentModel.Link.take(PdfToPptxConverter.clean(v), left));
            }
        }
        docx.createParagraph();
    }

    /** The picture at 150 dpi, at most the text width (6.5 in) wide, keeping its aspect. */
    private static void picture(XWPFParagraph para, byte[] png) throws IOException {
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(png));
        if (image == null) return;
        double w = image.getWidth() * 72.0 / 150, h = image.getHeight() * 72.0 / 150;
        double scale = Math.min(1, 468 / w);
        try (var is = new java.io.ByteArrayInputStream(png)) {
            para.createRun().addPicture(is, org.apache.poi.xwpf.usermodel.Document.PICTURE_TYPE_PNG, "image.png",
                    org.apache.poi.util.Units.toEMU(w * scale), org.apache.poi.util.Units.toEMU(h * scale));
        } catch (org.apache.poi.openxml4j.exceptions.InvalidFormatException e) {
            throw new IOException(e);
        }
    }

    /** Word's built-in heading styles are not in a blank POI document: define Heading 1 to 6 (outline levels 0-5). */
    private static void headingStyles(XWPFDocument docx) {
        XWPFStyles styles = docx.createStyles();
        for (int level = 1; level <= HEADING_LEVELS; level++) {
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
