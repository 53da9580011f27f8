package dev.docapi.engines.tabula;

import dev.docapi.engines.tabula.Tabula.PdfTable;
import dev.docapi.shaded.pdfbox2.pdmodel.PDDocument;
import dev.docapi.shaded.tabula.ObjectExtractor;
import dev.docapi.shaded.tabula.Page;
import dev.docapi.shaded.tabula.RectangularTextContainer;
import dev.docapi.shaded.tabula.Table;
import dev.docapi.shaded.tabula.extractors.BasicExtractionAlgorithm;
import dev.docapi.shaded.tabula.extractors.SpreadsheetExtractionAlgorithm;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;

/**
 * The child JVM {@link Tabula} runs in its sandbox: {@code TabulaMain <pdf> <out.jsonl> <first page> <lattice|stream>}
 * reads the pages of {@code pdf} from {@code first page} (from 1) on and appends one JSON line per page to
 * {@code out.jsonl} as soon as the page is done: first {@code {"pages":N}}, then a {@link PageResult} for each page.
 * Exit 0 when every page was done, 2 when the PDF cannot be opened (the reason on stderr's last line).
 */
public final class TabulaMain {

    /**
     * One page's outcome.
     *
     * @param page   page number, from 1
     * @param tables its tables (Tabula's order, top to bottom)
     * @param unread why Tabula could not read it, in words for the job's note; null when it was read
     */
    record PageResult(int page, List<PdfTable> tables, String unread) {
    }

    /** The first line of the output: how many pages the document has. */
    record Header(int pages) {
    }

    private TabulaMain() {
    }

    public static void main(String[] args) throws IOException {
        Path pdf = Path.of(args[0]);
        Path out = Path.of(args[1]);
        useFontCache(out.toAbsolutePath().getParent());
        int first = Integer.parseInt(args[2]);
        boolean streamFallback = args[3].equals("stream");
        JsonMapper json = JsonMapper.builder().build();
        // the output exists from the start: the parent's page timeout counts from here, so opening the PDF is bounded too
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            PDDocument doc;
            try {
                doc = PDDocument.load(pdf.toFile());
            } catch (IOException e) {
                System.err.println(e.getMessage());
                System.exit(2);
                return;
            }
            try (doc; ObjectExtractor extractor = new ObjectExtractor(doc)) {
                pages(doc, extractor, first, streamFallback, json, w);
            }
        }
    }

    /**
     * PDFBox's font cache: without it every document whose fonts PDFBox looks up rescans the system fonts (1.3 s).
     * PDFBox uses a cache folder only where it may write, and a job's child has a read-only home (the one its
     * training filled, ChildJvm#train): the cache is copied into the child's own folder and used from there. The
     * training's home is writable, so the training fills it.
     */
    private static void useFontCache(Path ownFolder) throws IOException {
        Path home = Path.of(System.getProperty("user.home"));
        if (Files.isWritable(home)) return;
        Path cache = home.resolve(".pdfbox.cache");
        if (Files.isReadable(cache)) Files.copy(cache, ownFolder.resolve(".pdfbox.cache"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.setProperty("pdfbox.fontcache", ownFolder.toString());
    }

    /**
     * Writes the page count, then each page's {@link PageResult} from {@code first} on, flushed as it is done.
     */
    private static void pages(PDDocument doc, ObjectExtractor extractor, int first, boolean streamFallback,
                              JsonMapper json, Writer w) throws IOException {
        w.write(json.writeValueAsString(new Header(doc.getNumberOfPages())) + "\n");
        w.flush();
        SpreadsheetExtractionAlgorithm lattice = new SpreadsheetExtractionAlgorithm();
        BasicExtractionAlgorithm stream = new BasicExtractionAlgorithm();
        for (int p = first; p <= doc.getNumberOfPages(); p++) {
            PageResult r;
            try {
                // Tabula's page iterator swallows the IOException of a content stream it cannot decode: null
                Page page = extractor.extract(p);
                if (page == null) {
                    r = new PageResult(p, List.of(), "its content stream could not be read");
                } else if (page.hasText()) {
                    List<PdfTable> found = convert(p, lattice.extract(page), true);
                    if (found.isEmpty() && streamFallback) found = convert(p, stream.extract(page), false);
                    r = new PageResult(p, found, null);
                } else {
                    r = new PageResult(p, List.of(), null);
                }
            } catch (RuntimeException | StackOverflowError e) {
                r = new PageResult(p, List.of(), "the table detector failed: " + reason(e));
            } catch (OutOfMemoryError e) {
                // the page's objects are garbage now: the next page starts with the whole heap again
                r = new PageResult(p, List.of(), "the table detector needs more than its " + (Runtime.getRuntime().maxMemory() >> 20) + " MB of memory");
            }
            w.write(json.writeValueAsString(r) + "\n");
            w.flush();
        }
    }

    /** An exception's message, on one line and short (the class name when it has none, e.g. a NullPointerException). */
    private static String reason(Throwable e) {
        String m = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage().strip();
        m = m.lines().findFirst().orElse(m);
        return m.length() > 200 ? m.substring(0, 200) + "..." : m;
    }

    /**
     * True when a stream-mode "table" is running text cut into columns (a two-column page): long cells, or most rows
     * with a single filled cell.
     */
    static boolean prose(List<List<String>> rows) {
        int cells = 0, chars = 0, multi = 0;
        for (List<String> r : rows) {
            int filled = 0;
            for (String c : r) {
                if (c.isEmpty()) continue;
                filled++;
                cells++;
                chars += c.length();
            }
            if (filled >= 2) multi++;
        }
        return cells == 0 || chars / cells > 40 || multi * 2 < rows.size();
    }

    /** Tabula's tables as ours: their cells' text, row by row (the document model finds its ruled tables itself, {@code document/Lattice}). */
    private static List<PdfTable> convert(int number, List<Table> tables, boolean lattice) {
        List<PdfTable> out = new ArrayList<>();
        for (Table t : tables) {
            List<List<String>> rows = new ArrayList<>();
            int cols = 0;
            for (List<RectangularTextContainer> row : t.getRows()) {
                List<String> cells = new ArrayList<>();
                for (RectangularTextContainer c : row) {
                    cells.add(c.getText().replace('\r', ' ').strip());
                }
                // trailing empty cells carry nothing
                while (!cells.isEmpty() && cells.getLast().isEmpty()) cells.removeLast();
                if (cells.stream().allMatch(String::isEmpty)) continue;
                cols = Math.max(cols, cells.size());
                rows.add(cells);
            }
            for (List<String> r : rows) while (r.size() < cols) r.add("");
            if (rows.isEmpty() || cols == 0) continue;
            if (!lattice && (rows.size() < 2 || cols < 2 || prose(rows))) continue;
            if (lattice && rows.size() * cols < 2) continue;
            out.add(new PdfTable(number, t.getTop(), t.getLeft(), (float) t.getWidth(), (float) t.getHeight(), rows, lattice));
        }
        return out;
    }
}
