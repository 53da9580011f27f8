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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Tesseract on an image file (PNG, JPEG, TIFF incl. multi-page, WebP), English and Arabic. Its plain-text output is
 * in logical order, so Arabic reads right-to-left correctly. One thread per process ({@code OMP_THREAD_LIMIT=1}).
 *
 * <p>Languages by script (issue 12): Tesseract reads an Arabic page far better with {@code ara} alone (CER 0.001-0.004
 * on Arabic paragraphs) than with {@code eng+ara} (0.035-0.046), so each page's script is detected first
 * ({@link #languages}) and the page is read with the language order that fits it.
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
     * The share of Latin letters below which an Arabic page is read with {@code ara} alone: {@code ara+eng} reads
     * 3-5 % of a purely Arabic paragraph as Latin letters (noise); a paragraph of English under one of Arabic, 22 %.
     */
    private static final double LATIN_SHARE_OF_MIXED = 0.10;
    private static final Pattern OSD_SCRIPT = Pattern.compile("(?m)^Script: (\\w+)");
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final Duration OSD_TIMEOUT = Duration.ofMinutes(2);
    private final ProcessRunner runner;

    public Tesseract(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * The text of {@code image} (UTF-8; pages of a multi-page TIFF separated by form feeds), read with the languages
     * of its script ({@link #languages}, from the first page of a multi-page TIFF).
     *
     * @param scratchDir a writable directory for Tesseract's output file
     * @throws EngineFailure {@code INVALID_INPUT} when Tesseract cannot read the image
     */
    public String text(Path image, Path scratchDir) throws EngineFailure, InterruptedException {
        Choice choice = choose(image, scratchDir);
        // A mixed Arabic page was already read with the languages it gets.
        return choice.languages().equals(MOSTLY_ARABIC) ? choice.mostlyArabicText() : text(image, scratchDir, choice.languages());
    }

    /**
     * The Tesseract language order that fits the script of {@code image} ({@link #LATIN}, {@link #ARABIC} or
     * {@link #MOSTLY_ARABIC}): Tesseract's orientation and script detection ({@code --psm 0}, about a second a
     * page) names the dominant script; a page it calls Arabic is read once with {@code ara+eng} to see whether it
     * also holds Latin words (at least {@value #LATIN_SHARE_OF_MIXED} of its letters). A page with too little text
     * for the detection, or one it cannot read, is {@link #LATIN}.
     *
     * @throws EngineFailure when Tesseract cannot run
     */
    public String languages(Path image, Path scratchDir) throws EngineFailure, InterruptedException {
        return choose(image, scratchDir).languages();
    }

    /** The languages for a page, and its text read with {@link #MOSTLY_ARABIC} when that was read to choose. */
    private record Choice(String languages, String mostlyArabicText) {
    }

    private Choice choose(Path image, Path scratchDir) throws EngineFailure, InterruptedException {
        ProcessRunner.Result osd;
        try {
            // a page the detection cannot read (too little text) exits non-zero: it is read as LATIN
            osd = runner.run(List.of("tesseract", image.toString(), "-", "--psm", "0"), OSD_TIMEOUT,
                    Sandbox.Access.of(scratchDir, image), Map.of("OMP_THREAD_LIMIT", "1"), Expect.ANY_EXIT);
        } catch (EngineFailure e) {
            if (e.kind() == EngineFailure.Kind.TIMEOUT) return new Choice(LATIN, null);
            throw e;
        }
        Matcher script = OSD_SCRIPT.matcher(osd.stdout());
        if (!osd.ok() || !script.find() || !script.group(1).equals("Arabic")) return new Choice(LATIN, null);
        String text = text(image, scratchDir, MOSTLY_ARABIC);
        long arabic = text.codePoints().filter(c -> Character.isLetter(c) && Character.UnicodeScript.of(c) == Character.UnicodeScript.ARABIC).count();
        long latin = text.codePoints().filter(c -> Character.isLetter(c) && Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN).count();
        return new Choice(latin < LATIN_SHARE_OF_MIXED * (arabic + latin) ? ARABIC : MOSTLY_ARABIC, text);
    }

    private String text(Path image, Path scratchDir, String languages) throws EngineFailure, InterruptedException {
        Path base = scratchDir.resolve("tesseract-out");
        Path txt = scratchDir.resolve("tesseract-out.txt");
        try {
            // Tesseract's stderr names the scratch files, not what is wrong with the image
            runner.run(List.of("tesseract", image.toString(), base.toString(), "-l", languages, "txt"), TIMEOUT,
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
