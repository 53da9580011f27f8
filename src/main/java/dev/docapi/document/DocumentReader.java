package dev.docapi.document;

import dev.docapi.contract.InputFile;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.engines.pdfbox.PdfForms;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.tabula.Tabula;
import dev.docapi.files.KeptOcr;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import dev.docapi.text.LogicalOrder;
import dev.docapi.text.OcrText;
import dev.docapi.text.TextLayer;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.springframework.stereotype.Component;

/**
 * Builds a PDF's {@link DocumentModel} (issue 36). When pages have no text layer (and show something: not an empty
 * page), the file is OCR'd, once per file (the kept OCR, {@link OcrText#withTextLayer}), and read from its OCR'd copy; a form's values are placed where their widgets stand ({@link FormValues}); ruled tables'
 * cells come from the pages' own rulings, found as Tabula's lattice mode finds them ({@link Lattice}; an area that
 * is a frame around the page or around running text is not a table),
 * their text and spans from the page's own glyphs and the cells' boxes ({@link RuledTable}, so no word of the area is lost);
 * the text is read as segments ({@link PageReader}), put in reading order ({@link Layout}: XY-cut with a column-flow
 * rule, tables found by alignment) and typed ({@link Structure}: headings, those the file names first ({@link NamedHeadings}), lists, captions, footnotes, running
 * headers and footers). Pictures are the images drawn on pages with a text layer ({@link Pictures}).
 */
@Component
public class DocumentReader {
    private final OcrText ocrText;
    private final PdfBox pdfBox;

    /** The kept model's variant in the kept-OCR table: a new model version is a new key, so it is built afresh. */
    private static final String VARIANT = "document-model/" + DocumentModel.VERSION;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final KeptOcr kept;

    private final TextLayer textLayer;

    public DocumentReader(OcrText ocrText, TextLayer textLayer, PdfBox pdfBox, KeptOcr kept) {
        this.textLayer = textLayer;
        this.kept = kept;
        this.ocrText = ocrText;
        this.pdfBox = pdfBox;
    }

    /** Receives progress: done out of total, in the unit named ("pages OCR'd", "pages"). */
    @FunctionalInterface
    public interface Progress {
        void progress(int done, int total, String unit);
    }

    /**
     * The model of {@code in} for an operation: pages without text OCR'd, progress reported to the job, and what could
     * not be read in its note.
     */
    public DocumentModel read(InputFile in, dev.docapi.contract.OperationContext<?> ctx) throws EngineFailure, InterruptedException {
        DocumentModel model = read(in, true, ctx.tempDir("document"), ctx::progress);
        model.notes().forEach(ctx::note);
        return model;
    }

    /**
     * The model of {@code in}, a PDF that opens without a password. With {@code ocr} it is built once per account and
     * bytes and kept with the file, as its OCR is ({@link KeptOcr}, under its own variant): the next operation on the
     * file reads it back. A model another job is building meanwhile is built again here, not waited for.
     *
     * @param ocr     whether pages without a text layer are OCR'd (else they have no elements, and nothing is kept)
     * @param workDir a writable job folder
     * @throws EngineFailure when the PDF cannot be read ({@code INVALID_INPUT}) or an engine fails
     */
    public DocumentModel read(InputFile in, boolean ocr, Path workDir, Progress progress) throws EngineFailure, InterruptedException {
        if (!ocr) return build(in, false, workDir, progress);
        KeptOcr.Key key;
        Optional<KeptOcr.Entry> entry;
        try {
            key = new KeptOcr.Key(in.file().accountId(), KeptOcr.sha256(in.path()), VARIANT);
            kept.link(in.file(), key);
            entry = kept.find(key);
            if (entry.isPresent() && entry.get().done()) {
                KeptOcr.Blobs blobs = kept.open(entry.get());
                if (blobs != null) return JSON.readValue(blobs.text().toFile(), DocumentModel.class);
            }
        } catch (IOException | JacksonException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the document model kept with the file could not be read", e);
        }
        // free when none is kept, or when the job building it died (its claim is past its time)
        boolean free = entry.isEmpty() || (!entry.get().done() && Instant.now().isAfter(entry.get().staleAt()));
        boolean claimed = free && kept.claim(key, entry, Instant.now().plus(Duration.ofHours(1)), in.file().expiresAt());
        boolean published = false;
        try {
            DocumentModel model = build(in, true, workDir, progress);
            if (claimed) {
                Path json = dir(workDir, "kept").resolve("model.json");
                JSON.writeValue(json.toFile(), model);
                kept.publish(key, null, json, List.of());
                published = true;
            }
            return model;
        } catch (IOException | JacksonException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the document model could not be kept with the file", e);
        } finally {
            if (claimed && !published) kept.release(key);
        }
    }

    /**
     * Reads the file as it is; when a page of it has no text (fewer than {@link Poppler#MIN_TEXT_CHARS} characters) yet
     * shows something ({@link PdfBox#blankPages}), reads it again from its OCR'd copy. A born-digital file is so read
     * once, with no engine started.
     */
    private DocumentModel build(InputFile in, boolean ocr, Path workDir, Progress progress) throws EngineFailure, InterruptedException {
        int pageCount;
        try {
            pageCount = pdfBox.inspect(in.path()).pages();
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "'" + in.file().name() + "' could not be read: " + e.getMessage(), e);
        }
        DocumentModel model = build(in, in.path(), Set.of(), pageCount, workDir, progress);
        if (!ocr) return model;
        List<Integer> empty = model.pages().stream().map(DocumentModel.Page::number)
                .filter(n -> !Poppler.hasText(model.pageText(n, true))).toList();
        if (PdfBox.blankPages(in.path(), empty).containsAll(empty)) return model;
        OcrText.WithTextLayer read = ocrText.withTextLayer(in, pageCount, dir(workDir, "ocr"), (done, total) -> progress.progress(done, total, "pages OCR'd"));
        return build(in, read.pdf(), Set.copyOf(read.ocrPages()), pageCount, workDir, progress);
    }

    /** The model of {@code pdf} (the file of {@code in}, or its OCR'd copy whose pages {@code ocrPages} were OCR'd). */
    private DocumentModel build(InputFile in, Path pdf, Set<Integer> ocrPages, int pageCount, Path workDir, Progress progress)
            throws EngineFailure, InterruptedException {
        List<String> notes = new ArrayList<>();
        try (PDDocument doc = pdfBox.open(pdf, null, dir(workDir, "open"))) {
            Tabula.Tables found = Lattice.tables(doc, ocrPages);
            if (found.note() != null) notes.add(found.note());
            return model(doc, tables(found.tables(), doc), ocrPages, notes, page -> progress.progress(page, pageCount, "pages"));
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "'" + in.file().name() + "' could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * The model of an open PDF with a text layer.
     *
     * @param ruled    the ruled tables found on it
     * @param ocrPages its pages (from 1) whose text layer came from OCR
     * @param pageDone receives each page's number when its text has been read
     */
    static DocumentModel model(PDDocument doc, List<Tabula.PdfTable> ruled, Set<Integer> ocrPages, List<String> notes,
                               java.util.function.IntConsumer pageDone) throws IOException {
        Map<Integer, List<Layout.Item>> formValues = formValues(doc, notes);
        // the rulings around a form's boxes are no table: its values read beside their labels
        ruled = ruled.stream().filter(t -> formValues.getOrDefault(t.page(), List.of()).stream().noneMatch(v -> holds(new DocumentModel.Box(t.left(), t.top(), t.width(), t.height()), v.box()))).toList();
        List<PageReader.Area> areas = ruled.stream().map(t -> new PageReader.Area(t.page(), t.left(), t.top(), t.width(), t.height(),
                new RuledTable(t.cells().stream().map(c -> new DocumentModel.Box(c.left(), c.top(), c.width(), c.height())).toList()))).toList();
        PageReader reader = new PageReader(areas, pageDone);
        reader.writeText(doc, Writer.nullWriter());
        ScanType.measure(doc, reader.pages(), ocrPages, reader.tableSizes());
        ImageBoxes.add(doc, reader.pages(), ocrPages);
        List<Pictures.Found> pictures = new ArrayList<>();
        int n = 0;
        for (PDPage page : doc.getPages()) {
            n++;
            pictures.add(ocrPages.contains(n) ? Pictures.Found.NONE : Pictures.of(page, false));
        }
        NamedHeadings named = NamedHeadings.of(doc);
        Structure.Body body = Structure.Body.of(reader.pages(), ocrPages, reader.tableSizes());
        List<Structure.LaidOut> laidOut = new ArrayList<>();
        for (PageReader.PageText page : reader.pages()) {
            List<Layout.Item> items = new ArrayList<>();
            for (PageReader.Segment s : page.segments()) items.add(Layout.Item.of(s));
            items.addAll(formValues.getOrDefault(page.number(), List.of()));
            Pictures.Found found = page.number() <= pictures.size() ? pictures.get(page.number() - 1) : Pictures.Found.NONE;
            List<DocumentModel.Box> pictureBoxes = found.pictures().stream().map(Pictures.Picture::box).toList();
            for (int i = 0; i < ruled.size(); i++) {
                Tabula.PdfTable t = ruled.get(i);
                if (t.page() != page.number()) continue;
                DocumentModel.Table table = areas.get(i).cells().hasCells() ? areas.get(i).cells().table(pictureBoxes) : table(t);
                if (table != null && table.columns() == 1 && columnsInside(reader.areaText(areas.get(i)))) table = null;
                if (table != null && framedProse(table)) table = null;
                if (table != null && cutsLines(reader.areaText(areas.get(i)), page.segments())) table = null;
                if (table != null && table.rightToLeft()) table = table.mirrored();
                if (table != null) items.add(new Layout.Item(new DocumentModel.Box(t.left(), t.top(), t.width(), t.height()), null, table));
                // an area that is no table (a box around text) reads as the text it holds
                else for (PageReader.Segment s : reader.areaText(areas.get(i))) items.add(Layout.Item.of(s));
            }
            List<Layout.Placed> first = new ArrayList<>();
            for (Pictures.Picture p : found.pictures()) {
                Layout.Item item = new Layout.Item(p.box(), null, p.number());
                // a picture behind most of the page (a background) would block every gutter, and an icon-sized one (a
                // decoration's dot, a bullet's image) would set a column of its own beside the lines it stands by: they go first
                // so is a strip of a background cut in bands across the page, with text over it
                boolean background = p.box().width() * p.box().height() > 0.4f * page.width() * page.height()
                        || (p.box().width() >= 0.9f * page.width() && page.segments().stream().anyMatch(s -> holds(p.box(), s.box())));
                boolean icon = p.box().width() < 3 * body.size() && p.box().height() < 3 * body.size();
                if (background || icon) first.add(new Layout.Placed(item, -1));
                else items.add(item);
            }
            List<Layout.Placed> placed = new ArrayList<>(first);
            placed.addAll(Layout.order(items, rightToLeft(page), body.size(), found.drawings(), found.panels()));
            withTheirTables(placed, first);
            laidOut.add(new Structure.LaidOut(page.number(), page.width(), page.height(), ocrPages.contains(page.number()), placed, found.drawings()));
        }
        List<DocumentModel.Page> pages = new ArrayList<>();
        for (DocumentModel.Page p : Structure.elements(laidOut, body, named)) {
            List<Links.Found> links = links(doc, p.number(), notes);
            pages.add(links.isEmpty() ? p : new DocumentModel.Page(p.number(), p.width(), p.height(), p.ocr(), Links.set(p.elements(), links)));
        }
        return new DocumentModel(DocumentModel.VERSION, pages, List.copyOf(notes));
    }

    /**
     * Moves each of {@code first} (pictures placed before the page's flow) that stands inside a table to just after that
     * table: a cell's icon read before its table would part the table from the one it goes on from on the page before.
     */
    private static void withTheirTables(List<Layout.Placed> placed, List<Layout.Placed> first) {
        List<Layout.Placed> byTop = first.stream().sorted(Comparator.comparing((Layout.Placed p) -> p.item().box().y()).reversed()).toList();
        for (Layout.Placed p : byTop) {
            Layout.Placed table = placed.stream().filter(t -> t.item().atom() instanceof DocumentModel.Table && holds(t.item().box(), p.item().box()))
                    .findFirst().orElse(null);
            if (table == null) continue;
            placed.remove(p);
            placed.add(placed.indexOf(table) + 1, p);
        }
    }

    /** The hyperlinks of page {@code number} ({@link Links}); none, and a note, when they cannot be read. */
    private static List<Links.Found> links(PDDocument doc, int number, List<String> notes) {
        try {
            return Links.of(doc.getPage(number - 1));
        } catch (IOException | RuntimeException e) {
            notes.add("The links of page " + number + " could not be read (" + e.getMessage() + ") and are left out.");
            return List.of();
        }
    }

    /**
     * Each page's text for the plain-text outputs ({@code extract-text}, pptx notes, the text {@code custom/} models
     * read), index 0 = page 1: a page with a text layer as the model reads it ({@link DocumentModel#pageText}: reading
     * order across columns, running headers kept), a page without one as its OCR recognised it (Tesseract's own text,
     * in logical order), and so a page the model finds no text on, or every page when PDFBox cannot parse the file
     * (pdftotext's text). The OCR and the model are each made once per file and kept.
     *
     * @param ocr whether pages without a text layer are OCR'd
     * @return the texts and the pages (from 1) OCR'd from a picture because they were damaged
     */
    public OcrText.Pages pageTexts(InputFile in, boolean ocr, Path workDir, OcrText.Progress progress) throws EngineFailure, InterruptedException {
        List<String> layer;
        List<Integer> repaired = List.of();
        if (ocr) {
            OcrText.Pages read = ocrText.pages(in, dir(workDir, "text"), progress);
            layer = read.texts();
            repaired = read.repaired();
        } else {
            layer = textLayer.pages(in.path(), dir(workDir, "text"));
        }
        DocumentModel model;
        try {
            model = read(in, ocr, workDir, (done, total, unit) -> { });
        } catch (EngineFailure e) {
            // a file PDFBox cannot parse even repaired still has the text pdftotext read from it
            if (e.kind() != EngineFailure.Kind.INVALID_INPUT) throw e;
            return new OcrText.Pages(layer, repaired);
        }
        List<String> texts = new ArrayList<>(layer);
        for (DocumentModel.Page page : model.pages()) {
            int i = page.number() - 1;
            if (i >= texts.size() || page.ocr() || repaired.contains(page.number())) continue;
            String text = model.pageText(page.number(), true);
            if (!text.isBlank()) texts.set(i, text);
        }
        return new OcrText.Pages(texts, repaired);
    }

    /** The PNG of every picture of the model's pages (by page, then picture number), read from {@code pdf}. */
    public List<List<byte[]>> pictures(Path pdf, Path workDir) throws EngineFailure, InterruptedException {
        List<List<byte[]>> out = new ArrayList<>();
        try (PDDocument doc = pdfBox.open(pdf, null, dir(workDir, "pictures"))) {
            for (PDPage page : doc.getPages()) out.add(Pictures.of(page, true).pictures().stream().map(Pictures.Picture::png).toList());
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the pictures could not be read: " + e.getMessage(), e);
        }
        return out;
    }

    private static Path dir(Path workDir, String name) {
        try {
            return Files.createDirectories(workDir.resolve("document-" + name));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Whether most of the page's letters are right-to-left (its columns are then read from the right). */
    private static boolean rightToLeft(PageReader.PageText page) {
        int rtl = 0, all = 0;
        for (PageReader.Segment s : page.segments()) {
            all += s.chars();
            if (LogicalOrder.hasRightToLeft(s.text())) rtl += s.chars();
        }
        return rtl * 2 > all;
    }

    /**
     * Whether a ruled area's text goes on a line of the page's text outside it, a space from its edge (within 0.6 em,
     * level with it): boxes drawn behind words (a caption's highlighted terms, "completion c" and "adversarial comment
     * σ") are no table, and their words read in their lines.
     */
    private static boolean cutsLines(List<PageReader.Segment> inside, List<PageReader.Segment> outside) {
        for (PageReader.Segment a : inside) {
            float space = 0.6f * a.size();
            for (PageReader.Segment s : outside) {
                boolean level = Math.min(a.bottom(), s.bottom()) - Math.max(a.top(), s.top()) > 0.5f * Math.min(a.height(), s.height());
                float before = a.x() - s.right(), after = s.x() - a.right();
                if (level && (before >= -1 && before <= space || after >= -1 && after <= space)) return true;
            }
        }
        return false;
    }

    /**
     * Whether the lines of a ruled area of one column stand in columns of their own: most of its lines (at least 2)
     * are two or more segments a gutter apart. Its rules are then only between rows (each row one box across the
     * table), and its text read by alignment ({@link TextTables}) gives the columns the rules do not.
     */
    private static boolean columnsInside(List<PageReader.Segment> text) {
        List<PageReader.Segment> byTop = new ArrayList<>(text);
        byTop.sort(java.util.Comparator.comparingDouble(PageReader.Segment::top));
        int lines = 0, split = 0;
        for (int i = 0; i < byTop.size(); ) {
            PageReader.Segment first = byTop.get(i);
            int j = i + 1;
            while (j < byTop.size() && byTop.get(j).top() < first.top() + first.height() / 2) j++;
            lines++;
            if (j - i >= 2) split++;
            i = j;
        }
        return split >= 2 && split * 2 > lines;
    }

    /**
     * Whether a ruled table is prose in a frame: fewer than half its grid's cells hold text, and those average 8 words
     * or more (a text box whose frame has rules inside it, as a sidebar drawn over a grid of decorations, made a table
     * of its lines in one column beside empty ones). {@link #tabular} asks the same of Tabula's reading of the area,
     * which can put the lines elsewhere.
     */
    private static boolean framedProse(DocumentModel.Table table) {
        List<String> cells = table.grid().stream().flatMap(List::stream).toList();
        List<String> filled = cells.stream().filter(c -> !c.isBlank()).toList();
        return filled.size() * 2 < cells.size() && filled.stream().mapToLong(DocumentReader::words).sum() >= 8L * filled.size();
    }

    /** Whether {@code area} holds the centre of {@code box}. */
    private static boolean holds(DocumentModel.Box area, DocumentModel.Box box) {
        float cx = box.x() + box.width() / 2, cy = box.y() + box.height() / 2;
        return cx >= area.x() && cx <= area.right() && cy >= area.y() && cy <= area.bottom();
    }

    /** The form's values as items by page ({@link FormValues}); none, and a note, when the form cannot be read. */
    private static Map<Integer, List<Layout.Item>> formValues(PDDocument doc, List<String> notes) {
        try {
            return FormValues.byPage(PdfForms.read(doc).fields(), doc);
        } catch (RuntimeException e) {
            notes.add("The form's field values could not be read (" + e.getMessage() + ") and are left out.");
            return Map.of();
        }
    }

    /**
     * The ruled areas Tabula found on {@code doc} that read as tables: those {@link #tabular}, and a table's header row
     * left alone at the foot of a page when its table goes on at the top of the next ({@link #headsNextPage}; a Word
     * table broken after its first row), so that Markdown and HTML join the two as one table with that header.
     */
    static List<Tabula.PdfTable> tables(List<Tabula.PdfTable> found, PDDocument doc) {
        List<Tabula.PdfTable> tabular = found.stream().filter(DocumentReader::tabular).toList();
        return found.stream().filter(t -> tabular.contains(t) || headsNextPage(t, tabular, doc)).toList();
    }

    /**
     * Whether {@code row}, one ruled row of at least 2 cells each with text, stands in the lower 40 % of its page and a
     * table of {@code tables} starts in the upper 40 % of the next with as many columns and the same column edges
     * (within 3 points): the head of a table a page break cut after its first row.
     */
    private static boolean headsNextPage(Tabula.PdfTable row, List<Tabula.PdfTable> tables, PDDocument doc) {
        if (row.rows().size() != 1 || row.rows().getFirst().size() < 2 || row.rows().getFirst().stream().anyMatch(String::isBlank)) return false;
        if (row.page() >= doc.getNumberOfPages()) return false;
        float height = doc.getPage(row.page() - 1).getCropBox().getHeight(), nextHeight = doc.getPage(row.page()).getCropBox().getHeight();
        if (row.top() + row.height() < 0.6f * height) return false;
        List<Float> edges = columnEdges(row);
        return tables.stream().anyMatch(t -> t.page() == row.page() + 1 && t.top() <= 0.4f * nextHeight
                && Math.abs(t.left() - row.left()) <= 3 && Math.abs(t.left() + t.width() - row.left() - row.width()) <= 3
                && sameEdges(columnEdges(t), edges));
    }

    /** The left edges of a ruled table's columns, in points from the page's left, in order (cells' lefts within 3 points are one). */
    private static List<Float> columnEdges(Tabula.PdfTable t) {
        List<Float> edges = new ArrayList<>();
        for (float x : t.cells().stream().map(Tabula.CellBox::left).sorted().toList())
            if (edges.isEmpty() || x - edges.getLast() > 3) edges.add(x);
        return edges;
    }

    private static boolean sameEdges(List<Float> a, List<Float> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (Math.abs(a.get(i) - b.get(i)) > 3) return false;
        return true;
    }

    /**
     * Whether a ruled area Tabula found reads as a table: at least 2 rows (one column is enough: {@link RuledTable}
     * keeps a column of boxes each with text of its own), at least half the cells
     * filled, and not a frame around running text (cells averaging more than 25 words: a box drawn around a page or
     * a text frame, whose text reads better as paragraphs; or one cell with most of the words, over 100: a frame around
     * the page with boxes inside it). Drawings (a figure's axes, form widgets' borders) also
     * have rulings; as tables their labels would be cut at the cell edges.
     */
    static boolean tabular(Tabula.PdfTable t) {
        int rows = t.rows().size(), cols = rows == 0 ? 0 : t.rows().getFirst().size();
        if (rows < 2 || cols < 1) return false;
        List<String> filled = t.rows().stream().flatMap(List::stream).filter(c -> !c.isBlank()).toList();
        if (filled.size() * 2 < rows * cols) return false;
        long words = filled.stream().mapToLong(DocumentReader::words).sum();
        // a box drawn around a whole page of text, with small boxes inside it (a form's frame), puts most of the page's
        // words into one cell
        long most = filled.stream().mapToLong(DocumentReader::words).max().orElse(0);
        if (most > 100 && most * 2 > words) return false;
        return words <= 25L * filled.size();
    }

    private static long words(String cell) {
        return cell.strip().split("\\s+").length;
    }

    /** A table given without its cells' boxes, as Tabula read its text (no spans). */
    private static DocumentModel.Table table(Tabula.PdfTable t) {
        List<List<DocumentModel.Cell>> rows = new ArrayList<>();
        for (List<String> r : t.rows()) rows.add(r.stream().map(c -> new DocumentModel.Cell(c.replaceAll("\\s+", " ").strip(), 1, 1)).toList());
        return new DocumentModel.Table(t.rows().getFirst().size(), true, rows);
    }
}
