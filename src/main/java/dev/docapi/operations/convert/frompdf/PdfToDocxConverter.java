package dev.docapi.operations.convert.frompdf;

import dev.docapi.core.ErrorCode;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.engines.tabula.Tabula;
import dev.docapi.core.FileKind;
import dev.docapi.operations.InputFile;
import dev.docapi.operations.OperationContext;
import dev.docapi.operations.OperationFailure;
import dev.docapi.operations.convert.Converter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
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
 * pdf → docx (spec §4.4): flowing, editable text — one Word paragraph per PDF paragraph (its lines joined, line-end
 * hyphens removed), not one text box per line. Paragraphs set clearly larger than the body text become Heading 1 /
 * Heading 2 (real Word heading styles, so they show in the navigation pane); each PDF page starts a new Word page;
 * ruled tables (Tabula lattice) become real Word tables where the text reaches them. Scans are OCR'd first.
 * A page's images follow its text (OCR'd scans excepted: their image is the page). Not carried over: columns, fonts,
 * exact positions.
 */
@Component
public class PdfToDocxConverter implements Converter {
    /** A paragraph at least this much larger than the body text is a Heading 1. */
    static final float H1_RATIO = 1.3f;
    /** At least this much larger (or bold and a little larger) is a Heading 2. */
    static final float H2_RATIO = 1.15f;
    private static final int HEADING_MAX_CHARS = 200;
    private final PdfSource source;
    private final Tabula tabula;
    private final PdfBox pdfBox;

    public PdfToDocxConverter(PdfSource source, Tabula tabula, PdfBox pdfBox) {
        this.source = source;
        this.tabula = tabula;
        this.pdfBox = pdfBox;
    }

    @Override
    public boolean accepts(FileKind from, String extension, String to) {
        return from == FileKind.PDF && to.equals("docx");
    }

    @Override
    public void convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        int pages = source.pages(in);
        PdfSource.Prepared prepared = source.withText(in, pages, ctx);
        Path pdf = prepared.pdf();
        Tabula.Tables found;
        try {
            found = tabula.tables(pdf, false);
        } catch (IOException e) {
            throw new OperationFailure(ErrorCode.INVALID_FILE, "'" + in.file().name() + "': " + e.getMessage(), e);
        }
        List<Tabula.PdfTable> tables = found.tables();
        ctx.note(found.note());
        ParagraphStripper stripper = new ParagraphStripper(tables, prepared.ocrPages());
        stripper.onPageDone(page -> ctx.progress(page, pages, "pages"));
        try (PDDocument doc = pdfBox.open(pdf, null, ctx.tempDir("docx-open"))) {
            stripper.writeText(doc, Writer.nullWriter());
        }
        float body = stripper.bodySize();
        Path part = out.resolveSibling(out.getFileName() + ".part");
        try (XWPFDocument docx = new XWPFDocument()) {
            headingStyles(docx);
            boolean pageBreak = false;
            for (Item item : items(stripper.blocks(), body)) {
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
    }

    /** A paragraph (its lines and heading style or null) or a table, and whether a new page starts before it. */
    private record Item(List<ParagraphStripper.Line> lines, String style, Tabula.PdfTable table, ParagraphStripper.Image image, boolean pageBreak) {
    }

    /**
     * The document's paragraphs and tables in order. PDFBox starts a new paragraph at many line starts in justified
     * multi-column text (a line that reaches less far, a superscript); two body paragraphs in a row on one page with
     * the same size and weight are joined again when the first does not end a sentence.
     */
    private static List<Item> items(List<ParagraphStripper.Block> blocks, float body) {
        List<Item> out = new ArrayList<>();
        boolean pageBreak = false;
        for (ParagraphStripper.Block b : blocks) {
            switch (b) {
                case ParagraphStripper.PageBreak ignored -> pageBreak = true;
                case ParagraphStripper.TableRef t -> {
                    out.add(new Item(null, null, t.table(), null, pageBreak));
                    pageBreak = false;
                }
                case ParagraphStripper.Image i -> {
                    out.add(new Item(null, null, null, i, pageBreak));
                    pageBreak = false;
                }
                case ParagraphStripper.Paragraph p -> {
                    for (List<ParagraphStripper.Line> group : byStyle(p.lines())) {
                        String style = style(group, body);
                        Item prev = out.isEmpty() ? null : out.getLast();
                        if (!pageBreak && prev != null && prev.lines() != null && prev.style() == null && style == null
                                && (continues(lastFull(prev.lines()), group.getFirst()) || fragment(group.getFirst(), lastFull(prev.lines())))) {
                            List<ParagraphStripper.Line> joined = new ArrayList<>(prev.lines());
                            joined.addAll(group);
                            out.set(out.size() - 1, new Item(joined, null, null, null, prev.pageBreak()));
                        } else {
                            out.add(new Item(group, style, null, null, pageBreak));
                        }
                        pageBreak = false;
                    }
                }
            }
        }
        return out;
    }

    /** The last line that is not a fragment (the first line when all are). */
    private static ParagraphStripper.Line lastFull(List<ParagraphStripper.Line> lines) {
        for (int i = lines.size() - 1; i > 0; i--) {
            if (!fragment(lines.get(i), lines.get(i - 1))) return lines.get(i);
        }
        return lines.getFirst();
    }

    /** True when {@code next} continues the sentence {@code last} leaves open, in the same size and weight. */
    private static boolean continues(ParagraphStripper.Line last, ParagraphStripper.Line next) {
        if (last.bold() != next.bold() || !sameSize(last.size(), next.size())) return false;
        String t = last.text().strip();
        char end = t.isEmpty() ? '.' : t.charAt(t.length() - 1);
        return ".?!:".indexOf(end) < 0;
    }

    private static boolean sameSize(float a, float b) {
        return Math.abs(a - b) <= Math.max(0.6f, 0.06f * Math.max(a, b));
    }

    /** Heading1, Heading2 or null (body) for a group of lines, by its size relative to the body text and weight. */
    private static String style(List<ParagraphStripper.Line> lines, float body) {
        ParagraphStripper.Line first = lines.getFirst();
        float size = first.size();
        int chars = lines.stream().mapToInt(l -> l.text().length() + 1).sum();
        if (chars > HEADING_MAX_CHARS || size <= 0) return null;
        if (size >= body * H1_RATIO) return "Heading1";
        // a short all-bold paragraph at least body size ("Abstract", "1 Introduction" in many journal styles)
        boolean allBold = lines.stream().allMatch(ParagraphStripper.Line::bold);
        if (size >= body * H2_RATIO || (allBold && size >= body * 0.98f && chars <= 80)) return "Heading2";
        return null;
    }

    /** Splits a PDF paragraph where the style changes (a heading line directly followed by body lines). */
    private static List<List<ParagraphStripper.Line>> byStyle(List<ParagraphStripper.Line> lines) {
        List<List<ParagraphStripper.Line>> out = new ArrayList<>();
        List<ParagraphStripper.Line> cur = new ArrayList<>();
        ParagraphStripper.Line ref = null; // the last line of the group that is not a sub/superscript fragment
        for (ParagraphStripper.Line l : lines) {
            if (ref != null && fragment(l, ref)) {
                cur.add(l);
                continue;
            }
            if (ref != null && (ref.bold() != l.bold() || !sameSize(ref.size(), l.size()))) {
                out.add(cur);
                cur = new ArrayList<>();
            }
            cur.add(l);
            ref = l;
        }
        if (!cur.isEmpty()) out.add(cur);
        return out;
    }

    /** A few smaller characters on a "line" of their own: an index or exponent PDFBox saw as a line (e.g. "(i)"). */
    private static boolean fragment(ParagraphStripper.Line l, ParagraphStripper.Line ref) {
        return l.text().strip().length() <= 5 && l.size() < ref.size() * 0.9f;
    }

    private static void write(XWPFParagraph para, List<ParagraphStripper.Line> lines, String style) {
        String text = join(lines);
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

    /** Joins lines with spaces; a line ending in letter + hyphen before a lower-case letter is rejoined without it. */
    static String join(List<ParagraphStripper.Line> lines) {
        StringBuilder sb = new StringBuilder();
        for (ParagraphStripper.Line l : lines) {
            String t = l.text();
            if (sb.isEmpty()) {
                sb.append(t);
                continue;
            }
            int n = sb.length();
            boolean hyphen = n >= 2 && sb.charAt(n - 1) == '-' && Character.isLetter(sb.charAt(n - 2)) && !t.isEmpty();
            if (hyphen && Character.isLowerCase(t.charAt(0))) {
                sb.setLength(n - 1);
                sb.append(t);
            } else if (hyphen) {
                sb.append(t); // "Lucene-" + "BM25": a compound, keep the hyphen
            } else {
                sb.append(' ').append(t);
            }
        }
        return sb.toString();
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
