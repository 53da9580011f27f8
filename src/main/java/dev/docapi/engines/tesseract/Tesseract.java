package dev.docapi.engines.tesseract;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Tesseract on an image file (PNG, JPEG, TIFF incl. multi-page, WebP), English and Arabic. Its plain-text output is
 * in logical order, so Arabic reads right-to-left correctly. One thread per process ({@code OMP_THREAD_LIMIT=1}).
 *
 * <p>Languages by script (issue 12): Tesseract reads an Arabic page far better with {@code ara} alone (CER 0.001-0.004
 * on Arabic paragraphs) than with {@code eng+ara} (0.035-0.046), so a page read as mostly Arabic is read again with
 * the language order that fits it ({@link #languagesFor}).
 */
@Component
public class Tesseract {
    /** Latin (or unknown) pages: English first, Arabic kept for the Arabic words such a page may hold. */
    public static final String LATIN = "eng+ara";
    /** Arabic pages with (next to) no Latin words. */
    public static final String ARABIC = "ara";
    /** Arabic pages with Latin words too: the dominant script first. */
    public static final String MOSTLY_ARABIC = "ara+eng";
    /**
     * The share of Latin letters below which an Arabic page is read with {@code ara} alone: {@code eng+ara} reads
     * 3 % of the corpus's purely Arabic paragraph as Latin letters (noise); a paragraph of English under one of
     * Arabic, over 22 %.
     */
    private static final double LATIN_SHARE_OF_MIXED = 0.10;
    /** Below this many letters a read says too little about its script: the page keeps {@link #LATIN}. */
    private static final int FEWEST_LETTERS = 20;
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private final ProcessRunner runner;

    public Tesseract(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * The text of {@code image} (UTF-8; pages of a multi-page TIFF separated by form feeds): read with
     * {@link #LATIN}, then read again with the languages of its script when that read is mostly Arabic
     * ({@link #languagesFor}).
     *
     * @param scratchDir a writable directory for Tesseract's output file
     * @throws EngineFailure {@code INVALID_INPUT} when Tesseract cannot read the image
     */
    public String text(Path image, Path scratchDir) throws EngineFailure, InterruptedException {
        String first = text(image, scratchDir, LATIN);
        String languages = languagesFor(first);
        return languages.equals(LATIN) ? first : text(image, scratchDir, languages);
    }

    /**
     * The Tesseract language order that fits a page, from its first read with {@link #LATIN} (issue 25: this
     * replaced Tesseract's orientation and script detection, {@code --psm 0}, which cost 1.5-3.5 s a page before any
     * page was read): a page whose letters are mostly Arabic is {@link #ARABIC} when under
     * {@value #LATIN_SHARE_OF_MIXED} of them are Latin, else {@link #MOSTLY_ARABIC}; any other page, and one with
     * fewer than {@value #FEWEST_LETTERS} letters, keeps {@link #LATIN} and its first read.
     */
    public static String languagesFor(String firstRead) {
        long arabic = firstRead.codePoints().filter(c -> Character.isLetter(c) && Character.UnicodeScript.of(c) == Character.UnicodeScript.ARABIC).count();
        long latin = firstRead.codePoints().filter(c -> Character.isLetter(c) && Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN).count();
        if (arabic + latin < FEWEST_LETTERS || arabic <= latin) return LATIN;
        return latin < LATIN_SHARE_OF_MIXED * (arabic + latin) ? ARABIC : MOSTLY_ARABIC;
    }

    /**
     * How well {@code image} reads as it lies: the mean confidence (0-100) of the characters Tesseract reads in level
     * words, each word weighted by its length, over all the characters it reads ({@code --psm 3}, {@link #LATIN},
     * its TSV output); 0 when it reads nothing. A page at its right turn scores about 90 (Docling's one-line OCR test
     * page 93; a Redbook page 90); the same page upside down 25-35, where Tesseract reads mirrored letters with low
     * confidence; on its side under 5, where it reads each line as a column of upright words, taller than wide.
     *
     * @param scratchDir a writable directory for Tesseract's output file
     * @throws EngineFailure {@code INVALID_INPUT} when Tesseract cannot read the image
     */
    public double uprightScore(Path image, Path scratchDir) throws EngineFailure, InterruptedException {
        String tsv = run(image, scratchDir, LATIN, List.of("--psm", "3", "tsv"), "tsv");
        double level = 0;
        long characters = 0;
        for (String line : tsv.split("\n")) {
            // level page block paragraph line word left top width height confidence text; a word row is level 5
            String[] f = line.split("\t");
            if (f.length < 12 || !f[0].equals("5")) continue;
            String word = f[11].strip();
            double confidence = Double.parseDouble(f[10]);
            if (word.isEmpty() || confidence < 0) continue;
            characters += word.length();
            boolean wide = Integer.parseInt(f[8]) > Integer.parseInt(f[9]);
            if (wide || word.length() < 2) level += confidence * word.length();
        }
        return characters == 0 ? 0 : level / characters;
    }

    private String text(Path image, Path scratchDir, String languages) throws EngineFailure, InterruptedException {
        return run(image, scratchDir, languages, List.of("txt"), "txt");
    }

    /** One Tesseract read of {@code image} with {@code options} (ending in its output config), as UTF-8 text. */
    private String run(Path image, Path scratchDir, String languages, List<String> options, String extension)
            throws EngineFailure, InterruptedException {
        Path base = scratchDir.resolve("tesseract-out");
        Path txt = scratchDir.resolve("tesseract-out." + extension);
        List<String> command = new java.util.ArrayList<>(List.of("tesseract", image.toString(), base.toString(), "-l", languages));
        command.addAll(options);
        try {
            // Tesseract's stderr names the scratch files, not what is wrong with the image
            runner.run(command, TIMEOUT,
                    Sandbox.Access.of(scratchDir, image), Map.of("OMP_THREAD_LIMIT", "1"), Expect.success(0).orFail(r -> unreadable()));
            if (!Files.exists(txt)) throw unreadable();
            return new String(Files.readAllBytes(txt), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "Tesseract could not run: " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(txt);
            } catch (IOException ignored) {
                // scratch space, removed with the work directory
            }
        }
    }

    private static EngineFailure unreadable() {
        return new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the image could not be read for OCR");
    }
}
