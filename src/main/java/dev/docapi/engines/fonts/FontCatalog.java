package dev.docapi.engines.fonts;

import dev.docapi.engines.process.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.fontbox.ttf.CmapLookup;
import org.apache.fontbox.ttf.TTFParser;
import org.apache.fontbox.ttf.TrueTypeFont;
import org.apache.pdfbox.io.RandomAccessReadBufferedFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Finds installed TrueType fonts (glyph outlines, which PDFBox can embed as subsets) that draw a given character.
 * DejaVu Sans (fonts-dejavu-core: Latin, Greek, Cyrillic, Arabic presentation forms) is tried first; for any other
 * character fontconfig is asked ({@code fc-list :charset=<hex>:fontformat=TrueType}) and the first {@code .ttf} whose
 * cmap really maps it wins. Answers are cached per character for the life of the service.
 */
@Component
public class FontCatalog {
    private static final Logger log = LoggerFactory.getLogger(FontCatalog.class);
    private static final Duration FC_TIMEOUT = Duration.ofSeconds(20);

    private final ProcessRunner processes;
    private final Map<Integer, Optional<Path>> byCodePoint = new ConcurrentHashMap<>();
    private final Map<Path, Optional<CmapLookup>> cmaps = new ConcurrentHashMap<>();
    private volatile Optional<Path> primary;

    public FontCatalog(ProcessRunner processes) {
        this.processes = processes;
    }

    /**
     * The font file that draws {@code codePoint}: the primary font when it can, else the first installed TrueType
     * font that can.
     *
     * @return empty when no installed TrueType font has a glyph for it
     */
    public Optional<Path> fontFor(int codePoint) throws InterruptedException {
        Optional<Path> main = primary();
        if (main.isPresent() && covers(main.get(), codePoint)) return main;
        Optional<Path> known = byCodePoint.get(codePoint);
        if (known != null) return known;
        Optional<Path> found = Optional.empty();
        for (String file : fcList(":charset=" + Integer.toHexString(codePoint) + ":fontformat=TrueType")) {
            Path p = Path.of(file);
            if (file.endsWith(".ttf") && covers(p, codePoint)) {
                found = Optional.of(p);
                break;
            }
        }
        byCodePoint.put(codePoint, found);
        return found;
    }

    /** DejaVu Sans as fontconfig resolves it, if installed as a TrueType file. */
    public Optional<Path> primary() throws InterruptedException {
        Optional<Path> p = primary;
        if (p == null) {
            List<String> files = fcMatch("DejaVu Sans");
            p = files.stream().filter(f -> f.endsWith(".ttf")).map(Path::of).filter(Files::isReadable).findFirst();
            primary = p;
        }
        return p;
    }

    private boolean covers(Path font, int codePoint) {
        return cmaps.computeIfAbsent(font, FontCatalog::cmapOf).map(c -> c.getGlyphId(codePoint) > 0).orElse(false);
    }

    private static Optional<CmapLookup> cmapOf(Path font) {
        try (TrueTypeFont ttf = new TTFParser().parse(new RandomAccessReadBufferedFile(font.toFile()))) {
            // The lookup keeps its own tables in memory, so the file can be closed.
            return Optional.ofNullable(ttf.getUnicodeCmapLookup(false));
        } catch (IOException | RuntimeException e) {
            log.debug("font {} has no usable Unicode cmap: {}", font, e.toString());
            return Optional.empty();
        }
    }

    private List<String> fcMatch(String pattern) throws InterruptedException {
        return lines(List.of("fc-match", "-f", "%{file}\n", pattern));
    }

    private List<String> fcList(String pattern) throws InterruptedException {
        return lines(List.of("fc-list", pattern, "file"));
    }

    private List<String> lines(List<String> command) throws InterruptedException {
        try {
            ProcessRunner.Result r = processes.run(command, FC_TIMEOUT);
            if (!r.ok()) return List.of();
            // fc-list prints "path: " per font; fc-match prints the bare path.
            return r.stdout().lines().map(l -> l.strip().replaceFirst(":$", "").strip()).filter(l -> !l.isEmpty()).sorted().toList();
        } catch (IOException e) {
            log.warn("fontconfig is not available: {}", e.toString());
            return List.of();
        }
    }
}
