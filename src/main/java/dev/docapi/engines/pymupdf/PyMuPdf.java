package dev.docapi.engines.pymupdf;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * True redaction with PyMuPDF (Debian's {@code python3-fitz}, MuPDF 1.21; issue 27), run as the script
 * {@code pymupdf/redact.py} in the sandbox like every engine. {@link #read} lists every place a PDF holds text;
 * the caller decides what to redact and {@link #apply} removes it: the glyphs under each box are taken out of the
 * content streams and the image pixels under it blanked (MuPDF's {@code apply_redactions}), then a box is filled.
 * Coordinates are PDF points from the page's top-left as seen (after {@code /Rotate}, within the CropBox). The
 * document's metadata, bookmarks and embedded files are read and removed here too.
 */
@Component
public class PyMuPdf {
    private static final JsonMapper JSON = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    private static final String SCRIPT = "redact.py";
    /** The script's exit codes beyond 0: 2 the PDF cannot be opened, 3 PyMuPDF is not installed. */
    private static final Expect SUCCESS = Expect.success(0).orFail(r -> switch (r.exitCode()) {
        case 2 -> new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the PDF could not be read for redaction (it is damaged or not a PDF)");
        case 3 -> new EngineFailure(EngineFailure.Kind.ENGINE_MISSING, "PyMuPDF (python3-fitz), which redaction needs, is not installed on this server");
        default -> new EngineFailure(EngineFailure.Kind.FAILED, "redaction failed on this file (PyMuPDF exit " + r.exitCode() + ")");
    });
    private final ProcessRunner runner;

    public PyMuPdf(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * Where a PDF holds text.
     *
     * @param pages         per page, from page 1
     * @param metadata      the Info dictionary's non-empty entries, by PyMuPDF's key (title, author, subject, keywords,
     *                      creator, producer, creationDate, modDate)
     * @param xmp           the XMP metadata ("" when none)
     * @param bookmarks     the outline's titles, in order (an index is a bookmark for {@link Plan#bookmarks})
     * @param embeddedFiles the embedded files: name, and their file name, description and (UTF-8 files up to 1 MiB) content
     */
    public record Document(List<Page> pages, Map<String, String> metadata, String xmp, List<String> bookmarks, List<Named> embeddedFiles) {
    }

    /**
     * One page: its size as seen, its characters in reading order (lines end with {@code \n}, blocks with a second one)
     * and each character's box ({@code boxes[4i..4i+3]} = x0, y0, x1, y1 of {@code text.charAt(i)}; all zero for the
     * line and block ends). Its annotations are PDFBox's to redact ({@code engines/pdfbox/AnnotationRedactor}).
     */
    public record Page(double width, double height, String text, double[] boxes) {
    }

    /** An embedded file by its name in the document's name tree, with the text it holds. */
    public record Named(String name, String text) {
    }

    /**
     * What to redact.
     *
     * @param fill          the colour of the boxes drawn over what was removed: red, green, blue from 0 to 1
     * @param pages         the pages with something to redact
     * @param metadata      Info keys to empty
     * @param xmp           whether to remove the XMP metadata
     * @param bookmarks     indexes into {@link Document#bookmarks} to remove
     * @param embeddedFiles names of embedded files to remove
     */
    public record Plan(double[] fill, List<PagePlan> pages, List<String> metadata, boolean xmp, List<Integer> bookmarks, List<String> embeddedFiles) {
    }

    /** What to redact on one page (from 1): boxes as {@code [x0, y0, x1, y1]} as seen. */
    public record PagePlan(int page, List<double[]> boxes) {
    }

    /**
     * Reads where {@code pdf} holds text.
     *
     * @param workDir a writable job folder
     * @param pages   the page count (sets the timeout)
     * @throws EngineFailure {@code INVALID_INPUT} when MuPDF cannot open it, {@code ENGINE_MISSING} without PyMuPDF,
     *                        else {@code FAILED}, {@code TIMEOUT} or {@code BOUND_EXCEEDED}
     */
    public Document read(Path pdf, Path workDir, int pages) throws EngineFailure, InterruptedException {
        Path dir = scratch(workDir);
        Path out = dir.resolve("document.json");
        run(List.of("read", pdf.toString(), out.toString()), dir, pdf, pages);
        try {
            return JSON.readValue(out.toFile(), Document.class);
        } catch (JacksonException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "PyMuPDF's reading of the PDF could not be parsed", e);
        }
    }

    /**
     * Redacts {@code pdf} as {@code plan} says into {@code out}, written without the objects that held what was removed.
     *
     * @throws EngineFailure as {@link #read}
     */
    public void apply(Path pdf, Plan plan, Path out, Path workDir, int pages) throws EngineFailure, InterruptedException {
        Path dir = scratch(workDir);
        Path planFile = dir.resolve("plan.json");
        Path part = dir.resolve("redacted.pdf");
        try {
            JSON.writeValue(planFile.toFile(), plan);
            run(List.of("apply", pdf.toString(), planFile.toString(), part.toString()), dir, pdf, pages);
            Files.move(part, out, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | JacksonException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the redacted PDF could not be written: " + e.getMessage(), e);
        }
    }

    private void run(List<String> args, Path dir, Path pdf, int pages) throws EngineFailure, InterruptedException {
        Path script = dir.resolve(SCRIPT);
        // -I: isolated, so no PYTHON* variable or user site-packages of the host changes what runs
        List<String> command = new java.util.ArrayList<>(List.of("python3", "-I", script.toString()));
        command.addAll(args);
        Duration timeout = Duration.ofMinutes(2).plusSeconds(2L * Math.max(pages, 1));
        runner.run(command, timeout, Sandbox.Access.of(dir, pdf), Map.of(), SUCCESS);
    }

    /** A fresh folder of {@code workDir} holding the script. */
    private static Path scratch(Path workDir) throws EngineFailure {
        try (InputStream in = PyMuPdf.class.getResourceAsStream("/pymupdf/" + SCRIPT)) {
            if (in == null) throw new EngineFailure(EngineFailure.Kind.ENGINE_MISSING, "the redaction script is missing from this build");
            Path dir = Files.createTempDirectory(workDir, "pymupdf-");
            Files.copy(in, dir.resolve(SCRIPT));
            return dir;
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "PyMuPDF could not be prepared: " + e.getMessage(), e);
        }
    }
}
