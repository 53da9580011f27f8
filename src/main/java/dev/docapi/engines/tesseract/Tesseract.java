package dev.docapi.engines.tesseract;

import dev.docapi.api.ErrorCode;
import dev.docapi.engines.ocrmypdf.Ocrmypdf;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import dev.docapi.operations.OperationFailure;
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
 */
@Component
public class Tesseract {
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private final ProcessRunner runner;

    public Tesseract(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * The text of {@code image} (UTF-8; pages of a multi-page TIFF separated by form feeds).
     *
     * @param scratchDir a writable directory for Tesseract's output file
     * @throws OperationFailure {@code invalid_file} when Tesseract cannot read the image
     */
    public String text(Path image, Path scratchDir) throws OperationFailure, InterruptedException {
        Path base = scratchDir.resolve("tesseract-out");
        Path txt = scratchDir.resolve("tesseract-out.txt");
        try {
            ProcessRunner.Result r = runner.run(List.of("tesseract", image.toString(), base.toString(), "-l", Ocrmypdf.LANGUAGES, "txt"),
                    TIMEOUT, Sandbox.Access.of(scratchDir, image), Map.of("OMP_THREAD_LIMIT", "1"));
            if (!r.ok() || !Files.exists(txt)) {
                throw new OperationFailure(ErrorCode.INVALID_FILE, "the image could not be read for OCR", null);
            }
            return new String(Files.readAllBytes(txt), StandardCharsets.UTF_8);
        } catch (ProcessRunner.TimeoutException e) {
            throw new OperationFailure(ErrorCode.INTERNAL_ERROR, "OCR took too long and was stopped", e);
        } catch (IOException e) {
            throw new OperationFailure(ErrorCode.INTERNAL_ERROR, "Tesseract could not run: " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(txt);
            } catch (IOException ignored) {
                // scratch space, removed with the work directory
            }
        }
    }
}
