package dev.docapi.engines.poppler;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import org.springframework.util.FileSystemUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.stereotype.Component;

/**
 * Poppler's {@code pdftotext} (the text layer, in reading order, Arabic in logical order) and {@code pdftoppm}
 * (page images). Pages count from 1. Text is UTF-8; pages are read in raw content order off (poppler's default
 * reading-order mode), which keeps columns apart.
 */
@Component
public class Poppler {
    /** Text of a page with fewer non-blank characters than this counts as "no text layer". */
    public static final int MIN_TEXT_CHARS = 3;
    private static final Duration TEXT_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration RENDER_TIMEOUT = Duration.ofMinutes(10);
    private final ProcessRunner runner;

    public Poppler(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * The text layer of every page, in page order (index 0 = page 1); a page without text gives "".
     *
     * @throws EngineFailure when poppler cannot read the file
     */
    public List<String> pageTexts(Path pdf) throws EngineFailure, InterruptedException {
        String all = pdftotext(pdf, 0);
        // pdftotext ends every page with a form feed, so N pages give N+1 parts, the last one empty.
        List<String> pages = new ArrayList<>(Arrays.asList(all.split("\f", -1)));
        if (!pages.isEmpty() && pages.getLast().isBlank()) pages.removeLast();
        return pages;
    }

    /**
     * The text layer of one page (from 1).
     *
     * @throws EngineFailure when poppler cannot read the file
     */
    public String text(Path pdf, int page) throws EngineFailure, InterruptedException {
        return pdftotext(pdf, page).replace("\f", "");
    }

    /** The whole text layer, pages separated by form feeds ({@code \f}). */
    public String text(Path pdf) throws EngineFailure, InterruptedException {
        return pdftotext(pdf, 0);
    }

    /** Page numbers (from 1) whose text layer is empty (fewer than {@link #MIN_TEXT_CHARS} non-blank characters). */
    public List<Integer> pagesWithoutText(Path pdf) throws EngineFailure, InterruptedException {
        List<String> pages = pageTexts(pdf);
        List<Integer> empty = new ArrayList<>();
        for (int i = 0; i < pages.size(); i++) {
            if (!hasText(pages.get(i))) empty.add(i + 1);
        }
        return empty;
    }

    /** True when {@code text} has at least {@link #MIN_TEXT_CHARS} non-blank characters. */
    public static boolean hasText(String text) {
        return text.codePoints().filter(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c)).count() >= MIN_TEXT_CHARS;
    }

    /**
     * Renders pages {@code first}-{@code last} (from 1, inclusive) at {@code dpi} into {@code dir} and returns the
     * image files in page order.
     *
     * @param format {@code png}, {@code jpeg}, or {@code pgm} (grey, uncompressed: for a picture only an engine reads,
     *               six times faster to write than a PNG at 300 dpi)
     * @throws EngineFailure when poppler cannot render the file
     */
    public List<Path> render(Path pdf, int first, int last, int dpi, String format, Path dir) throws EngineFailure, InterruptedException {
        return render(pdf, first, last, List.of("-r", String.valueOf(dpi)), format, dir);
    }

    /**
     * Renders page {@code page} (from 1) grey ({@code pgm}) into {@code dir}, its longer side {@code longestSide}
     * pixels whatever the page's size (a scan's page may be 30 inches wide), and returns the image file, or null when
     * poppler wrote none.
     *
     * @throws EngineFailure when poppler cannot render the file
     */
    public Path renderFitted(Path pdf, int page, int longestSide, Path dir) throws EngineFailure, InterruptedException {
        List<Path> images = render(pdf, page, page, List.of("-scale-to", String.valueOf(longestSide)), "pgm", dir);
        return images.isEmpty() ? null : images.getFirst();
    }

    private List<Path> render(Path pdf, int first, int last, List<String> size, String format, Path dir) throws EngineFailure, InterruptedException {
        String flag = switch (format) {
            case "png", "jpeg" -> "-" + format;
            case "pgm" -> "-gray";
            default -> throw new IllegalArgumentException("format must be png, jpeg or pgm");
        };
        List<String> cmd = new ArrayList<>(List.of("pdftoppm", flag));
        cmd.addAll(size);
        cmd.addAll(List.of("-f", String.valueOf(first), "-l", String.valueOf(last), pdf.toString(), dir.resolve("page").toString()));
        runner.run(cmd, RENDER_TIMEOUT, Sandbox.Access.of(dir, pdf), java.util.Map.of(),
                Expect.success(0).orFail(EngineFailure.Kind.FAILED, "the pages could not be rendered"));
        try (Stream<Path> files = Files.list(dir)) {
            // pdftoppm names files page-1.png or page-01.png (zero-padded to the page count's width): sort by number.
            return files.filter(p -> p.getFileName().toString().startsWith("page-"))
                    .sorted((a, b) -> Integer.compare(pageNumber(a), pageNumber(b))).toList();
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "rendered pages could not be listed", e);
        }
    }

    /** Runs pdftotext into a temp file (the runner keeps only the last 64 KiB of stdout; a book has more). */
    private String pdftotext(Path pdf, int page) throws EngineFailure, InterruptedException {
        Path dir = null;
        try {
            dir = runner.sandbox().newScratchDir("pdftotext-");
            Path out = dir.resolve("text.txt");
            List<String> cmd = new ArrayList<>(List.of("pdftotext", "-enc", "UTF-8"));
            if (page > 0) cmd.addAll(List.of("-f", String.valueOf(page), "-l", String.valueOf(page)));
            cmd.addAll(List.of(pdf.toString(), out.toString()));
            runner.run(cmd, TEXT_TIMEOUT, Sandbox.Access.of(dir, pdf), java.util.Map.of(),
                    Expect.success(0).orFail(EngineFailure.Kind.INVALID_INPUT, "the text layer could not be read"));
            return new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "pdftotext output could not be read", e);
        } finally {
            if (dir != null) FileSystemUtils.deleteRecursively(dir.toFile());
        }
    }

    private static int pageNumber(Path p) {
        String n = p.getFileName().toString().replaceAll("^page-0*(\\d+)\\..*$", "$1");
        try {
            return Integer.parseInt(n);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }
}
