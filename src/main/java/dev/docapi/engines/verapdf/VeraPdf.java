package dev.docapi.engines.verapdf;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ChildJvm;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.springframework.stereotype.Component;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * PDF/A validation with veraPDF (the validation-model library, its own parser and the PDF Association's rule
 * profiles; issue 27). veraPDF runs in a child JVM ({@link VeraPdfMain}) in the engine sandbox, not in the service: its
 * parser reads a hostile file, and a run past its timeout or memory bound is stopped like any engine's. A child starts
 * in about a second and validates a few pages in one or two more.
 */
@Component
public class VeraPdf {
    /** The level validated when none is asked for and the file claims none. */
    public static final String DEFAULT_LEVEL = "2b";
    /** veraPDF keeps the object model of the whole file in memory. */
    private static final int HEAP_MB = 1024;
    private static final Duration BASE_TIMEOUT = Duration.ofMinutes(2);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ProcessRunner runner;
    private final ChildJvm jvm;

    public VeraPdf(ProcessRunner runner) {
        this.runner = runner;
        this.jvm = new ChildJvm(runner);
    }

    /**
     * One rule of the profile the file breaks.
     *
     * @param rule          the rule's id in veraPDF's profile: the standard's clause and veraPDF's test number, e.g.
     *                      {@code 6.2.11.4.1-1}
     * @param specification the standard, e.g. {@code ISO 19005-2:2011}
     * @param description   what the rule requires, in the profile's words (may be null)
     * @param checks        how many objects of the file break it
     */
    public record FailedRule(String rule, String specification, String description, int checks) {
    }

    /**
     * veraPDF's verdict on a file.
     *
     * @param compliant   true when the file conforms to {@code level}
     * @param level       the level validated: {@code 1b}, {@code 2b}, {@code 2u}, {@code 3b} …
     * @param declared    the level the file's XMP metadata claims, or null when it claims none (or it is unreadable)
     * @param failedRules the rules it breaks, by clause (at most 50), empty when compliant or unreadable
     * @param unreadable  why veraPDF could not read the file at all, in words ("it is encrypted, which PDF/A
     *                    forbids"), or null when it read it; such a file is not compliant
     */
    public record Verdict(boolean compliant, String level, String declared, List<FailedRule> failedRules, String unreadable) {
        /**
         * The failed rules for a person: "6.2.11.4.1-1 (The font programs for all fonts used for rendering within a
         * conforming file shall be embedded…); 6.6.2.1-1 (…)", each description cut to 160 characters.
         */
        public String summary() {
            return failedRules.stream().map(r -> r.rule() + (r.description() == null ? "" : " (" + cut(r.description().strip()) + ")"))
                    .collect(Collectors.joining("; "));
        }

        private static String cut(String s) {
            return s.length() <= 160 ? s : s.substring(0, 157) + "...";
        }
    }

    /**
     * Validates {@code pdf} against {@code level}, or against the
     * level the file claims when {@code level} is null ({@value #DEFAULT_LEVEL} when it claims none). A file veraPDF
     * cannot parse (damaged beyond its parser's recovery, encrypted) is not PDF/A: its verdict is not compliant, with
     * the reason in {@link Verdict#unreadable}.
     *
     * @throws EngineFailure {@code BOUND_EXCEEDED} when the file needs more memory than veraPDF is given, else
     *                       {@code FAILED} or {@code TIMEOUT}; the message names no class or stack frame
     */
    public Verdict validate(Path pdf, PdfaLevel level) throws EngineFailure, InterruptedException {
        jvm.train(VeraPdfMain.class, HEAP_MB, VeraPdf::trainingInput);
        Path dir = null;
        try {
            dir = runner.sandbox().newScratchDir("verapdf-");
            Path out = dir.resolve("verdict.json");
            List<String> command = jvm.command(VeraPdfMain.class, HEAP_MB, List.of(pdf.toString(), level == null ? "declared" : level.id(), out.toString()));
            List<Path> readable = new ArrayList<>(jvm.readable());
            readable.add(pdf);
            Duration timeout = BASE_TIMEOUT.plusSeconds(Files.size(pdf) / 10_000_000 * 60);
            ProcessRunner.Result r = runner.run(command, timeout, Sandbox.Access.of(dir, readable), Map.of(),
                    Expect.success(0, VeraPdfMain.EXIT_UNREADABLE, VeraPdfMain.EXIT_ENCRYPTED).orFail(run -> run.exitCode() == VeraPdfMain.EXIT_MEMORY
                            ? new EngineFailure(EngineFailure.Kind.BOUND_EXCEEDED, "veraPDF needs more than " + HEAP_MB + " MB of memory for this file")
                            // the child's last line is a Java stack frame here (it crashed): logged by the runner, not shown
                            : new EngineFailure(EngineFailure.Kind.FAILED, "veraPDF stopped unexpectedly (exit " + run.exitCode() + ")")));
            if (r.exitCode() == VeraPdfMain.EXIT_ENCRYPTED) return unreadable(level, "it is encrypted, which PDF/A forbids");
            if (r.exitCode() == VeraPdfMain.EXIT_UNREADABLE) return unreadable(level, "veraPDF cannot parse it: " + r.lastLine());
            if (!Files.isRegularFile(out)) throw new EngineFailure(EngineFailure.Kind.FAILED, "veraPDF gave no verdict");
            return JSON.readValue(out.toFile(), Verdict.class);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "veraPDF could not run: " + e.getMessage(), e);
        } finally {
            if (dir != null) FileSystemUtils.deleteRecursively(dir.toFile());
        }
    }

    private static Verdict unreadable(PdfaLevel level, String reason) {
        return new Verdict(false, level == null ? DEFAULT_LEVEL : level.id(), null, List.of(), reason);
    }

    /** The child's training ({@link ChildJvm#train}): a blank page the service makes itself, validated as 2b. */
    private static List<String> trainingInput(Path dir) {
        Path pdf = dir.resolve("blank.pdf");
        try (PDDocument doc = new PDDocument()) {
            doc.addPage(new PDPage());
            doc.save(pdf.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.of(pdf.toString(), DEFAULT_LEVEL, dir.resolve("verdict.json").toString());
    }
}
