package dev.docapi.engines.ocrmypdf;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the order of OCRmyPDF's {@code -l} languages. OCRmyPDF 14 holds {@code -l eng+ara} in a Python set and calls
 * Tesseract with the set's order, which follows the process's random string hashing: the same scan was read with
 * {@code eng+ara} in one run and {@code ara+eng} in the next, and Tesseract's first language leads its page layout,
 * so one file gave two different text layers (a table's rows read as a table, then as paragraphs). Under a fixed
 * {@code PYTHONHASHSEED} the set's order is the same every run; the seed whose order is the one asked for is found
 * once per language list by OCRmyPDF's own argument parser, so a version that keeps the order takes the first seed.
 */
final class LanguageOrder {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LanguageOrder.class);
    /** Two languages take one of two orders; 32 seeds miss the wanted one with odds of 2^-32. */
    private static final int SEEDS = 32;
    private static final String PROBE = "import sys\nfrom ocrmypdf.cli import get_parser\n"
            + "print('+'.join(get_parser().parse_args(['-l', sys.argv[1], 'in.pdf', 'out.pdf']).languages))";
    private final ProcessRunner runner;
    private final Map<String, Map<String, String>> environments = new ConcurrentHashMap<>();

    LanguageOrder(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * The environment under which {@code ocrmypdf -l languages} hands Tesseract {@code languages} as written
     * ({@code PYTHONHASHSEED}); empty when no seed gives that order or OCRmyPDF's parser cannot be asked (logged:
     * OCR still runs, its order left to chance).
     */
    Map<String, String> environment(String languages) throws InterruptedException {
        Map<String, String> known = environments.get(languages);
        if (known != null) return known;
        Map<String, String> found = find(languages);
        environments.put(languages, found);
        return found;
    }

    private Map<String, String> find(String languages) throws InterruptedException {
        String python = interpreter();
        for (int seed = 0; seed < SEEDS; seed++) {
            Map<String, String> env = Map.of("PYTHONHASHSEED", String.valueOf(seed));
            try {
                ProcessRunner.Result r = runner.run(List.of(python, "-c", PROBE, languages), Duration.ofSeconds(30),
                        Sandbox.Access.of(null), env, ProcessRunner.Expect.success(0).orFail(EngineFailure.Kind.FAILED, "probe failed"));
                if (r.stdout().strip().equals(languages)) return env;
            } catch (EngineFailure e) {
                log.warn("OCRmyPDF's language order could not be fixed ({}): Tesseract may read {} in another order", e.getMessage(), languages);
                return Map.of();
            }
        }
        log.warn("no PYTHONHASHSEED under {} gives OCRmyPDF's languages in the order {}", SEEDS, languages);
        return Map.of();
    }

    /** The Python that runs {@code ocrmypdf}: its script's {@code #!} line, else {@code python3}. */
    private static String interpreter() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path script = Path.of(dir.isEmpty() ? "." : dir, "ocrmypdf");
            if (!Files.isRegularFile(script)) continue;
            try (var lines = Files.lines(script)) {
                String first = lines.findFirst().orElse("");
                if (first.startsWith("#!/") && !first.contains(" ")) return first.substring(2).strip();
            } catch (IOException | java.io.UncheckedIOException e) {
                // a binary or unreadable launcher: ask the PATH's Python
            }
            break;
        }
        return "python3";
    }
}
