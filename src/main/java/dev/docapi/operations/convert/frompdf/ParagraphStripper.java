package dev.docapi.operations.convert.frompdf;

import dev.docapi.engines.tabula.Tabula;
import dev.docapi.text.LineStripper;
import dev.docapi.text.LogicalOrder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.text.TextPosition;

/**
 * Reads a PDF's text as blocks for a flowing document: paragraphs (PDFBox's own paragraph detection, in content
 * order, which keeps columns apart in the PDFs that LaTeX, Word and LibreOffice write) with their lines, each line's
 * text in logical order ({@link LogicalOrder}, so Arabic reads right whether the PDF drew it in visual order or, as
 * Tesseract's text layer does, in logical order), its dominant font size and boldness; and placeholders for the
 * tables found by Tabula, at the point where the text first reaches them. Text inside a table's area is left out of
 * the paragraphs (the table carries it).
 */
final class ParagraphStripper extends LineStripper {

    /** A line of text: its characters' dominant size (points) and whether most of them are bold. */
    record Line(String text, float size, boolean bold) {
    }

    /** A block of the flowing document. */
    sealed interface Block permits Paragraph, TableRef, PageBreak, Image {
    }

    record Paragraph(List<Line> lines) implements Block {
    }

    record TableRef(Tabula.PdfTable table) implements Block {
    }

    record PageBreak() implements Block {
    }

    /** A picture of the page: PNG bytes and its size in pixels. */
    record Image(byte[] png, int width, int height) implements Block {
    }

    /** Images smaller than this many pixels a side are rules, bullets or dots, not pictures. */
    private static final int MIN_IMAGE_SIDE = 48;
    private static final int MAX_IMAGES_PER_PAGE = 20;
    /** Pictures are held in memory until the document is written: beyond this many PNG bytes, later ones are left out. */
    private static final long MAX_IMAGE_BYTES = 150L << 20;
    private long imageBytes;
    private java.util.function.IntConsumer pageDone = page -> { };

    private final List<Tabula.PdfTable> tables;
    private final List<Block> blocks = new ArrayList<>();
    private List<Tabula.PdfTable> pageTables = List.of();
    private final List<Tabula.PdfTable> placed = new ArrayList<>();
    private List<Line> paragraph = new ArrayList<>();
    private float pageDir;
    private final java.util.Map<Float, Integer> documentSizes = new java.util.HashMap<>();

    private final java.util.Set<Integer> pagesWithoutImages;
    private final boolean withImages;

    /**
     * @param tables             the tables to place (their text is left out of the paragraphs)
     * @param pagesWithoutImages pages (from 1) whose images are not carried over: OCR'd scans, whose only image is
     *                           the page itself
     * @param withImages         false to leave every page's images out
     */
    ParagraphStripper(List<Tabula.PdfTable> tables, java.util.Set<Integer> pagesWithoutImages, boolean withImages) throws IOException {
        this.tables = tables;
        this.pagesWithoutImages = pagesWithoutImages;
        this.withImages = withImages;
        setShouldSeparateByBeads(true);
    }

    /** Receives each page's number (from 1) when its text has been read. */
    void onPageDone(java.util.function.IntConsumer pageDone) {
        this.pageDone = pageDone;
    }

    List<Block> blocks() {
        return blocks;
    }

    /** The font size most characters of the document have: the body size. */
    float bodySize() {
        return documentSizes.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).map(java.util.Map.Entry::getKey).orElse(10f);
    }

    @Override
    protected void startPage(org.apache.pdfbox.pdmodel.PDPage page) throws IOException {
        int number = getCurrentPageNo();
        if (number > getStartPage() && !blocks.isEmpty()) blocks.add(new PageBreak());
        pageTables = tables.stream().filter(t -> t.page() == number).toList();
        super.startPage(page);
    }

    @Override
    protected void endPage(org.apache.pdfbox.pdmodel.PDPage page) throws IOException {
        endParagraph();
        // Tables whose area no text reached (e.g. text drawn in an order we did not follow) go after the page's text.
        for (Tabula.PdfTable t : pageTables) {
            if (!placed.contains(t)) {
                placed.add(t);
                blocks.add(new TableRef(t));
            }
        }
        if (withImages && !pagesWithoutImages.contains(getCurrentPageNo())) images(page);
        pageDone.accept(getCurrentPageNo());
        super.endPage(page);
    }

    /**
     * The page's own image XObjects, after its text (their exact place in the flow is not worked out). An image that
     * cannot be decoded is skipped: the text matters more than a picture.
     */
    private void images(org.apache.pdfbox.pdmodel.PDPage page) {
        var resources = page.getResources();
        if (resources == null) return;
        int n = 0;
        for (org.apache.pdfbox.cos.COSName name : resources.getXObjectNames()) {
            if (n >= MAX_IMAGES_PER_PAGE) return;
            try {
                if (!(resources.getXObject(name) instanceof org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject img)) continue;
                if (img.getWidth() < MIN_IMAGE_SIDE || img.getHeight() < MIN_IMAGE_SIDE || img.isStencil()) continue;
                java.awt.image.BufferedImage bi = img.getImage();
                java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
                if (bi == null || !javax.imageio.ImageIO.write(bi, "png", png)) continue;
                if (imageBytes + png.size() > MAX_IMAGE_BYTES) return;
                imageBytes += png.size();
                blocks.add(new Image(png.toByteArray(), bi.getWidth(), bi.getHeight()));
                n++;
            } catch (IOException | RuntimeException e) {
                // an image PDFBox cannot decode is left out
            }
        }
    }

    @Override
    protected void writeParagraphStart() throws IOException {
        super.writeParagraphStart();
        endParagraph();
    }

    @Override
    protected void writeParagraphEnd() throws IOException {
        super.writeParagraphEnd();
        endParagraph();
    }

    /** A line: its glyphs outside tables and running the page's way, in logical order ({@link LogicalOrder}). */
    @Override
    protected void line(List<List<TextPosition>> words) {
        List<List<LogicalOrder.Glyph>> kept = new ArrayList<>();
        java.util.Map<Float, Integer> sizes = new java.util.HashMap<>();
        int bold = 0, chars = 0;
        for (List<TextPosition> word : words) {
            List<TextPosition> keptWord = new ArrayList<>();
            for (TextPosition p : word) {
                if (p.getDir() != pageDir) continue;
                Tabula.PdfTable t = tableAt(p);
                if (t == null) {
                    keptWord.add(p);
                } else if (!placed.contains(t)) {
                    endParagraph(kept, sizes, bold, chars);
                    kept = new ArrayList<>();
                    sizes.clear();
                    bold = 0;
                    chars = 0;
                    placed.add(t);
                    blocks.add(new TableRef(t));
                }
            }
            for (TextPosition p : keptWord) {
                float size = Math.round(size(p) * 2) / 2f;
                sizes.merge(size, 1, Integer::sum);
                documentSizes.merge(size, 1, Integer::sum);
                if (bold(p)) bold++;
                chars++;
            }
            if (!keptWord.isEmpty()) kept.add(LogicalOrder.glyphs(keptWord));
        }
        addLine(kept, sizes, bold, chars);
    }

    /** Adds what was read of a line before a table starts, and ends the paragraph: the table comes next. */
    private void endParagraph(List<List<LogicalOrder.Glyph>> words, java.util.Map<Float, Integer> sizes, int bold, int chars) {
        addLine(words, sizes, bold, chars);
        endParagraph();
    }

    /**
     * The glyph's vertical size in points. Not {@code getFontSizeInPt}: that follows the horizontal scale too, which
     * pdfTeX's font expansion (microtype) changes from line to line in justified text.
     */
    private static float size(TextPosition p) {
        // the text rendering matrix already holds the Tf size, the text matrix and the CTM: its y scale is the size
        float sy = Math.abs(p.getTextMatrix().getScalingFactorY());
        return sy > 0 ? sy : p.getFontSizeInPt();
    }

    /**
     * Notes the page's main text direction first: text running another way (a rotated margin stamp such as arXiv's
     * identifier, a sideways label) would otherwise break the flow into one-letter "lines"; it is left out.
     */
    @Override
    protected void writePage() throws IOException {
        java.util.Map<Float, Integer> dirs = new java.util.HashMap<>();
        for (List<TextPosition> article : getCharactersByArticle()) for (TextPosition p : article) dirs.merge(p.getDir(), 1, Integer::sum);
        pageDir = dirs.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).map(java.util.Map.Entry::getKey).orElse(0f);
        super.writePage();
    }

    private Tabula.PdfTable tableAt(TextPosition p) {
        if (pageTables.isEmpty()) return null;
        float x = p.getXDirAdj() + p.getWidthDirAdj() / 2, y = p.getYDirAdj() - p.getHeightDir() / 2;
        for (Tabula.PdfTable t : pageTables) if (t.contains(x, y)) return t;
        return null;
    }

    private static boolean bold(TextPosition p) {
        PDFont font = p.getFont();
        if (font == null) return false;
        String name = font.getName() == null ? "" : font.getName().toLowerCase(Locale.ROOT);
        if (name.contains("bold") || name.contains("black") || name.contains("heavy") || name.contains("medi") || name.contains("demi") || name.contains("semibold") || name.matches(".*(cmbx|-bd|_bd|,b).*")) return true;
        var d = font.getFontDescriptor();
        return d != null && (d.isForceBold() || d.getFontWeight() >= 600);
    }

    private void addLine(List<List<LogicalOrder.Glyph>> words, java.util.Map<Float, Integer> sizes, int bold, int chars) {
        String text = LogicalOrder.line(words).strip();
        if (text.isEmpty()) return;
        float size = sizes.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).map(java.util.Map.Entry::getKey).orElse(0f);
        paragraph.add(new Line(text, size, bold * 2 > chars));
    }

    private void endParagraph() {
        if (!paragraph.isEmpty()) blocks.add(new Paragraph(paragraph));
        paragraph = new ArrayList<>();
    }
}
