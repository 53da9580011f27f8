package dev.docapi.engines.tabula;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ChildJvm;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Table detection with Tabula (shaded: its PDFBox 2 is relocated to {@code dev.docapi.shaded.pdfbox2} so it does not
 * clash with our PDFBox 3). Lattice mode (ruled tables) first; stream mode (columns inferred from whitespace) only on
 * pages where lattice finds nothing, and only when asked — stream mode finds a "table" in almost any text page.
 *
 * <p>Tabula runs in a child JVM ({@link TabulaMain}) in the engine sandbox, not in the service: a hostile page (a huge
 * {@code cm} scale sends its line clipping into an endless loop) would hold a worker thread forever, and a thread
 * cannot be stopped. A page that is not done within the page timeout ({@code DOCAPI_TABULA_PAGE_TIMEOUT},
 * default 60 s) or that makes the child hit a sandbox bound is reported as unread and detection goes on from the next
 * page in a new child; after {@value #MAX_STOPPED} such pages the rest are reported as not examined, so one document
 * costs at most that many page timeouts.
 */
@Component
public class Tabula {
    private static final Logger log = LoggerFactory.getLogger(Tabula.class);
    /** Pages stopped (timeout or bound) after which the rest of a document is not examined. */
    static final int MAX_STOPPED = 3;
    /** The child's heap: Tabula holds one page's text and rulings at a time. */
    private static final int HEAP_MB = 512;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ProcessRunner runner;
    private final ChildJvm jvm;
    private final Duration pageTimeout;

    /**
     * @param pageTimeout how long the child may work on one page (from opening the PDF to the first page, then from
     *                    page to page) before it is stopped ({@code DOCAPI_TABULA_PAGE_TIMEOUT})
     */
    public Tabula(ProcessRunner runner, @Value("${docapi.tabula.page-timeout:60s}") Duration pageTimeout) {
        this.runner = runner;
        this.pageTimeout = pageTimeout;
        this.jvm = new ChildJvm(runner);
    }

    /**
     * A table found on a page.
     *
     * @param page   page number, from 1
     * @param top    top edge in PDF points from the page's top (Tabula's coordinates, same as PDFBox's
     *               {@code TextPosition.getYDirAdj})
     * @param left   left edge in points
     * @param width  width in points
     * @param height height in points
     * @param rows   the cells' text, row by row (rows padded to the same length)
     * @param lattice true when found by its rulings, false when inferred from whitespace
     * @param cells   a lattice table's drawn cells, each once (a merged cell is one box over several rows or columns),
     *                in Tabula's row order; empty for a stream table
     */
    public record PdfTable(int page, float top, float left, float width, float height, List<List<String>> rows, boolean lattice,
                           List<CellBox> cells) {
        /** A table without its cells' boxes (its text only, as Tabula read it). */
        public PdfTable(int page, float top, float left, float width, float height, List<List<String>> rows, boolean lattice) {
            this(page, top, left, width, height, rows, lattice, List.of());
        }

        /** True when {@code (x, y)} (points, top-left origin) lies inside the table, with a 1 pt margin. */
        public boolean contains(float x, float y) {
            return x >= left - 1 && x <= left + width + 1 && y >= top - 1 && y <= top + height + 1;
        }
    }

    /** A ruled cell's box: top and left edges in points from the page's top-left (as {@link PdfTable}'s), its size. */
    public record CellBox(float top, float left, float width, float height) {
    }

    /**
     * What Tabula found in a document.
     *
     * @param tables      the tables of every page, in page order, each page's in Tabula's order (top to bottom)
     * @param unreadPages the pages Tabula could not read, in page order: their tables are missing from {@code tables}
     */
    public record Tables(List<PdfTable> tables, List<UnreadPage> unreadPages) {
        /**
         * The sentence for a job's {@code output.note} naming the unread pages and why ("Tables could not be detected
         * on page 2 (its content stream could not be read)."), or null when every page was read.
         */
        public String note() {
            if (unreadPages.isEmpty()) return null;
            String pages = unreadPages.stream().map(u -> u.page() + " (" + u.reason() + ")").collect(Collectors.joining("; "));
            return "Tables could not be detected on page" + (unreadPages.size() == 1 ? " " : "s ") + pages + ".";
        }
    }

    /** A page (from 1) Tabula could not read, and why, in words for the job's note. */
    public record UnreadPage(int page, String reason) {
    }

    /**
     * The tables of every page.
     *
     * @param streamFallback also try stream mode on pages where lattice mode finds no table; stream tables with fewer
     *                       than 2 rows or 2 columns are dropped
     * @throws EngineFailure as {@link #tables(Path, boolean, IntConsumer)}
     */
    public Tables tables(Path pdf, boolean streamFallback) throws EngineFailure, InterruptedException {
        return tables(pdf, streamFallback, null);
    }

    /**
     * As {@link #tables(Path, boolean)}, reporting each page done (its number, from 1) to {@code pageDone} (may be
     * null) as the child finishes it. A page Tabula fails on (a content stream it cannot decode, runtime exceptions on
     * odd geometry, a page timeout or a sandbox bound) is an {@link UnreadPage}; the others keep their tables.
     *
     * @throws EngineFailure {@code INVALID_INPUT} when the table detector cannot open the PDF at all; {@code FAILED}
     *                       when the child JVM cannot start or exits in an unexpected way
     */
    public Tables tables(Path pdf, boolean streamFallback, IntConsumer pageDone) throws EngineFailure, InterruptedException {
        try {
            return tablesOrIoFailure(pdf, streamFallback, pageDone);
        } catch (IOException e) {
            // the service's own files (the child's class path, its output) failed: not the document's fault
            log.warn("Tabula could not run: {}", e.toString());
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the table detector could not run on this node", e);
        }
    }

    private Tables tablesOrIoFailure(Path pdf, boolean streamFallback, IntConsumer pageDone)
            throws IOException, EngineFailure, InterruptedException {
        jvm.train(TabulaMain.class, HEAP_MB, Tabula::trainingInput);
        List<PdfTable> tables = new ArrayList<>();
        List<UnreadPage> unread = new ArrayList<>();
        Path dir = runner.sandbox().newScratchDir("tabula-");
        try {
            int first = 1, pageCount = -1, stopped = 0;
            while (pageCount < 0 || first <= pageCount) {
                Path out = dir.resolve("pages-" + first + ".jsonl");
                Child child = new Child(out);
                String why = child.run(pdf, first, streamFallback, dir, pageDone);
                for (JsonNode line : child.lines) {
                    if (line.has("pages")) {
                        pageCount = line.get("pages").asInt();
                        continue;
                    }
                    TabulaMain.PageResult r = JSON.treeToValue(line, TabulaMain.PageResult.class);
                    tables.addAll(r.tables());
                    if (r.unread() != null) unread.add(new UnreadPage(r.page(), r.unread()));
                }
                if (why == null) break;
                int page = child.lastPage + 1;
                log.info("Tabula stopped on page {} of {}: {}", page, pdf.getFileName(), why);
                if (pageCount < 0) pageCount = page; // stopped before the page count: the first page alone is reported
                unread.add(new UnreadPage(page, why));
                if (pageDone != null) pageDone.accept(page);
                if (++stopped == MAX_STOPPED && page < pageCount) {
                    unread.add(new UnreadPage(page + 1, "not examined, nor any page after it: " + MAX_STOPPED
                            + " pages ran past the table detector's limits"));
                    break;
                }
                first = page + 1;
            }
        } finally {
            FileSystemUtils.deleteRecursively(dir);
        }
        return new Tables(tables, unread);
    }

    /** One child JVM run from one page on, read back line by line as it writes. */
    private final class Child {
        private final Path out;
        private final List<JsonNode> lines = new ArrayList<>();
        private long read;
        private int lastPage;

        Child(Path out) {
            this.out = out;
        }

        /**
         * Runs the child until it is done or a page takes longer than the page timeout.
         *
         * @return null when every page from {@code first} on was done; else why the page after {@link #lastPage} was
         *         stopped, in words for the note
         */
        String run(Path pdf, int first, boolean streamFallback, Path dir, IntConsumer pageDone)
                throws IOException, EngineFailure, InterruptedException {
            lastPage = first - 1;
            List<String> command = jvm.command(TabulaMain.class, HEAP_MB,
                    List.of(pdf.toString(), out.toString(), Integer.toString(first), streamFallback ? "stream" : "lattice"));
            List<Path> readable = new ArrayList<>(jvm.readable());
            readable.add(pdf);
            Sandbox.Access access = Sandbox.Access.of(dir, readable);
            // the stall watchdog below is the real bound; this one only keeps a wedged watchdog from running forever
            Duration hard = Duration.ofHours(2);
            FutureTask<ProcessRunner.Result> task = new FutureTask<>(() ->
                    runner.run(command, hard, access, java.util.Map.of(), runner.sandbox().defaults(), Expect.ANY_EXIT));
            Thread.ofVirtual().name("tabula-child").start(task);
            long progressAt = System.nanoTime();
            try {
                while (true) {
                    try {
                        ProcessRunner.Result r = task.get(200, TimeUnit.MILLISECONDS);
                        readNew(pageDone);
                        if (r.exitCode() == 2) {
                            // PDFBox's own words stay in the log (issue 40: no library text reaches a client)
                            log.info("Tabula could not open {}: {}", pdf.getFileName(), r.lastLine());
                            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the table detector could not open the PDF (its structure is damaged)");
                        }
                        if (!r.ok()) {
                            log.warn("Tabula's child JVM failed on {} (exit {}): {}", pdf.getFileName(), r.exitCode(), r.lastLine());
                            throw new EngineFailure(EngineFailure.Kind.FAILED, "the table detector failed (exit " + r.exitCode() + "); the service's log has its words");
                        }
                        return null;
                    } catch (TimeoutException e) {
                        // no output yet: the child waits for its turn (ProcessRunner's limit per tool) or starts
                        if (!Files.exists(out) || readNew(pageDone)) progressAt = System.nanoTime();
                        if (System.nanoTime() - progressAt > pageTimeout.toNanos()) {
                            task.cancel(true);
                            return "the table detector did not finish it within " + pageTimeout.toSeconds() + " s";
                        }
                    }
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof EngineFailure f && f.kind() == EngineFailure.Kind.BOUND_EXCEEDED) {
                    readNew(pageDone);
                    log.info("Tabula's child JVM hit a bound: {}", f.getMessage());
                    return "the table detector was stopped by the memory, CPU time or output bound of one engine run";
                }
                if (e.getCause() instanceof EngineFailure f) throw f;
                if (e.getCause() instanceof IOException io) throw io;
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                task.cancel(true);
                throw e;
            }
        }

        /** Reads the complete lines the child has added since the last call; true when there were any. */
        private boolean readNew(IntConsumer pageDone) throws IOException {
            if (!Files.exists(out)) return false;
            byte[] all = Files.readAllBytes(out);
            int end = all.length;
            while (end > read && all[end - 1] != '\n') end--;
            if (end <= read) return false;
            String text = new String(all, (int) read, (int) (end - read), StandardCharsets.UTF_8);
            read = end;
            for (String l : text.split("\n")) {
                if (l.isBlank()) continue;
                JsonNode node = JSON.readTree(l);
                lines.add(node);
                if (node.has("page")) {
                    lastPage = node.get("page").asInt();
                    if (pageDone != null) pageDone.accept(lastPage);
                }
            }
            return true;
        }
    }

    /**
     * The child's training (its class-data archive, {@link ChildJvm#train}): a page the service draws itself, a ruled
     * 3 × 3 table with a word in each cell, read with the stream fallback so that both of Tabula's methods load.
     */
    private static List<String> trainingInput(Path dir) {
        Path pdf = dir.resolve("table.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                for (int i = 0; i <= 3; i++) {
                    cs.moveTo(100, 700 - 30 * i);
                    cs.lineTo(400, 700 - 30 * i);
                    cs.moveTo(100 + 100 * i, 700);
                    cs.lineTo(100 + 100 * i, 610);
                }
                cs.stroke();
                PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
                for (int row = 0; row < 3; row++) {
                    for (int col = 0; col < 3; col++) {
                        cs.beginText();
                        cs.setFont(font, 10);
                        cs.newLineAtOffset(110 + 100 * col, 680 - 30 * row);
                        cs.showText("cell " + (row + 1) + "." + (col + 1));
                        cs.endText();
                    }
                }
            }
            doc.save(pdf.toFile());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return List.of(pdf.toString(), dir.resolve("tables.jsonl").toString(), "1", "stream");
    }
}
