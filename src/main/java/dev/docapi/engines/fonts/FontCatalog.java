package dev.docapi.engines.fonts;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.fontbox.ttf.CmapLookup;
import org.apache.fontbox.ttf.OpenTypeFont;
import org.apache.fontbox.ttf.TTFParser;
import org.apache.fontbox.ttf.TrueTypeCollection;
import org.apache.fontbox.ttf.TrueTypeFont;
import org.apache.pdfbox.io.RandomAccessReadBufferedFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Finds installed fonts with TrueType (glyf) outlines, which PDFBox can embed as subsets, that draw a given character.
 * DejaVu Sans (fonts-dejavu-core: Latin, Greek, Cyrillic, Arabic presentation forms) is tried first; for any other
 * character fontconfig is asked ({@code fc-list :charset=<hex>:fontformat=TrueType}) and the first face, of a
 * {@code .ttf} or of a {@code .ttc} collection (e.g. WenQuanYi Zen Hei for CJK), whose cmap really maps it wins.
 * CFF-outline fonts (Noto CJK) are skipped: PDFBox cannot subset them. Answers are cached per character.
 */
@Component
public class FontCatalog {
    private static final Logger log = LoggerFactory.getLogger(FontCatalog.class);
    private static final Duration FC_TIMEOUT = Duration.ofSeconds(20);

    /**
     * One font face: a {@code .ttf} file ({@code name} null) or the face called {@code name} (its PostScript name)
     * in a {@code .ttc} collection.
     */
    public record FontFace(Path file, String name) {
    }

    private final ProcessRunner processes;
    private final Map<Integer, Optional<FontFace>> byCodePoint = new ConcurrentHashMap<>();
    private final Map<Path, List<Face>> facesByFile = new ConcurrentHashMap<>();
    private volatile Optional<FontFace> primary;

    private record Face(FontFace face, CmapLookup cmap) {
        boolean covers(int codePoint) {
            return cmap.getGlyphId(codePoint) > 0;
        }
    }

    public FontCatalog(ProcessRunner processes) {
        this.processes = processes;
    }

    /**
     * The face that draws {@code codePoint}: the primary font when it can, else the first installed TrueType face
     * that can.
     *
     * @return empty when no installed TrueType face has a glyph for it
     */
    public Optional<FontFace> fontFor(int codePoint) throws InterruptedException {
        Optional<FontFace> main = primary();
        if (main.isPresent() && covers(main.get(), codePoint)) return main;
        Optional<FontFace> known = byCodePoint.get(codePoint);
        if (known != null) return known;
        Optional<FontFace> found = Optional.empty();
        search:
        for (String file : fcList(":charset=" + Integer.toHexString(codePoint) + ":fontformat=TrueType")) {
            if (!file.endsWith(".ttf") && !file.endsWith(".ttc")) continue;
            for (Face f : faces(Path.of(file))) {
                if (f.covers(codePoint)) {
                    found = Optional.of(f.face());
                    break search;
                }
            }
        }
        byCodePoint.put(codePoint, found);
        return found;
    }

    /** DejaVu Sans as fontconfig resolves it, if installed as a TrueType file. */
    public Optional<FontFace> primary() throws InterruptedException {
        Optional<FontFace> p = primary;
        if (p == null) {
            p = fcMatch("DejaVu Sans").stream().filter(f -> f.endsWith(".ttf")).map(Path::of).filter(Files::isReadable)
                    .map(f -> new FontFace(f, null)).findFirst();
            primary = p;
        }
        return p;
    }

    private boolean covers(FontFace face, int codePoint) {
        return faces(face.file()).stream().anyMatch(f -> f.face().equals(face) && f.covers(codePoint));
    }

    private List<Face> faces(Path file) {
        return facesByFile.computeIfAbsent(file, FontCatalog::readFaces);
    }

    /** The TrueType-outline faces of a file with their Unicode cmaps (kept in memory; the file is closed). */
    private static List<Face> readFaces(Path file) {
        List<Face> out = new ArrayList<>();
        try {
            if (file.toString().endsWith(".ttc")) {
                try (TrueTypeCollection c = new TrueTypeCollection(file.toFile())) {
                    c.processAllFonts(ttf -> addFace(out, new FontFace(file, ttf.getName()), ttf));
                }
            } else {
                try (TrueTypeFont ttf = new TTFParser().parse(new RandomAccessReadBufferedFile(file.toFile()))) {
                    addFace(out, new FontFace(file, null), ttf);
                }
            }
        } catch (IOException | RuntimeException e) {
            log.debug("font file {} is not usable: {}", file, e.toString());
        }
        return out;
    }

    private static void addFace(List<Face> out, FontFace face, TrueTypeFont ttf) throws IOException {
        if (ttf instanceof OpenTypeFont otf && otf.isPostScript()) return; // CFF: cannot be subset
        CmapLookup cmap = ttf.getUnicodeCmapLookup(false);
        if (cmap != null) out.add(new Face(face, cmap));
    }

    private List<String> fcMatch(String pattern) throws InterruptedException {
        return lines(List.of("fc-match", "-f", "%{file}\n", pattern));
    }

    private List<String> fcList(String pattern) throws InterruptedException {
        return lines(List.of("fc-list", pattern, "file"));
    }

    private List<String> lines(List<String> command) throws InterruptedException {
        try {
            ProcessRunner.Result r = processes.run(command, FC_TIMEOUT, ProcessRunner.Expect.success(0));
            // fc-list prints "path: " per font; fc-match prints the bare path. Sorted for a stable choice.
            return r.stdout().lines().map(l -> l.strip().replaceFirst(":$", "").strip()).filter(l -> !l.isEmpty()).sorted().toList();
        } catch (EngineFailure e) {
            log.warn("fontconfig is not available: {}", e.getMessage());
            return List.of();
        }
    }
}
