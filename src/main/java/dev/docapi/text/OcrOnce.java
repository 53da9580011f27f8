package dev.docapi.text;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.ocrmypdf.Ocrmypdf;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.files.KeptOcr;
import dev.docapi.contract.InputFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;
import org.springframework.stereotype.Component;

/**
 * One OCR per file (issue 12 item 4): OCRmyPDF with pages that have text kept ({@link Ocrmypdf.PagesWithText#SKIP})
 * runs once for an account's bytes, and {@code ocr}, {@code extract-text}, the pdf → docx/xlsx/pptx converters and
 * the AI operations' inputs all take its PDF and text ({@link KeptOcr}). A job that needs an OCR another job is
 * running waits for it and reports that job's progress as its own.
 */
@Component
public class OcrOnce {
    private static final Duration POLL = Duration.ofMillis(500);
    /** The OCR pipeline's own part of the key: change it when what OCRmyPDF is asked to do changes. */
    private static final String PIPELINE = "skip-text;eng|ara by page script;rotate;deskew";
    private final Ocrmypdf ocrmypdf;
    private final KeptOcr kept;
    private final ProcessRunner runner;
    private volatile String variant;

    public OcrOnce(Ocrmypdf ocrmypdf, KeptOcr kept, ProcessRunner runner) {
        this.ocrmypdf = ocrmypdf;
        this.kept = kept;
        this.runner = runner;
    }

    /**
     * An OCR of a PDF: the OCR'd PDF (to read only; it may be the kept blob itself), each page's recognised text
     * (index 0 = page 1; null for a page OCRmyPDF skipped because it has text), and the pages (from 1) OCR'd from a
     * picture because they were damaged.
     */
    public record Result(Path pdf, List<String> texts, List<Integer> repaired) {
    }

    /**
     * The OCR of {@code in}'s bytes: kept from an earlier operation of the account, or run now (and kept).
     *
     * @param pages      the PDF's page count (sets OCRmyPDF's timeout and how the text is split)
     * @param workDir    a writable job folder
     * @param pagesOcred receives the pages OCR'd so far, also while waiting for another job's OCR of the same bytes
     * @throws EngineFailure as {@link Ocrmypdf#ocr}
     */
    public Result ocr(InputFile in, int pages, Path workDir, IntConsumer pagesOcred) throws EngineFailure, InterruptedException {
        try {
            KeptOcr.Key key = new KeptOcr.Key(in.file().accountId(), KeptOcr.sha256(in.path()), variant());
            kept.link(in.file(), key);
            int reported = -1;
            while (true) {
                Optional<KeptOcr.Entry> entry = kept.find(key);
                if (entry.isPresent() && entry.get().done()) {
                    KeptOcr.Blobs blobs = kept.open(entry.get());
                    // Gone between the lookup and now: the file is being deleted; OCR for this job alone.
                    if (blobs == null) return run(in, pages, workDir, pagesOcred, null);
                    pagesOcred.accept(pages);
                    return new Result(blobs.pdf(), Ocrmypdf.sidecarPages(blobs.text(), pages), entry.get().repaired());
                }
                boolean free = entry.isEmpty() || Instant.now().isAfter(entry.get().staleAt());
                if (free && kept.claim(key, entry, Instant.now().plus(timeout(pages)), in.file().expiresAt())) {
                    return run(in, pages, workDir, pagesOcred, key);
                }
                if (entry.isPresent() && entry.get().pagesDone() != reported) {
                    reported = entry.get().pagesDone();
                    pagesOcred.accept(reported);
                }
                Thread.sleep(POLL);
            }
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the OCR kept with the file could not be read or stored", e);
        }
    }

    /** OCRs {@code in} in this job; with a claimed {@code key}, keeps the result (or releases the claim on failure). */
    private Result run(InputFile in, int pages, Path workDir, IntConsumer pagesOcred, KeptOcr.Key key)
            throws EngineFailure, InterruptedException, IOException {
        boolean published = false;
        try {
            Path dir = Files.createTempDirectory(workDir, "ocr-");
            Path pdf = dir.resolve("ocr.pdf");
            Path sidecar = dir.resolve("sidecar.txt");
            IntConsumer progress = key == null ? pagesOcred : n -> {
                pagesOcred.accept(n);
                kept.progress(key, n);
            };
            List<Integer> repaired = ocrmypdf.ocr(in.path(), pdf, sidecar, Ocrmypdf.PagesWithText.SKIP, pages, progress);
            if (key != null) {
                kept.publish(key, pdf, sidecar, repaired);
                published = true;
            }
            return new Result(pdf, Ocrmypdf.sidecarPages(sidecar, pages), repaired);
        } finally {
            if (key != null && !published) kept.release(key);
        }
    }

    /** OCRmyPDF's own timeout for {@code pages} pages, and a minute: a claim older than that lost its job. */
    private static Duration timeout(int pages) {
        return (pages > 0 ? Duration.ofMinutes(3).plusSeconds(90L * pages) : Duration.ofMinutes(30)).plusMinutes(1);
    }

    /** {@link #PIPELINE} and the versions of OCRmyPDF and Tesseract on this node (a new version may read differently). */
    private String variant() throws InterruptedException {
        String v = variant;
        if (v == null) {
            v = PIPELINE + ";ocrmypdf " + version("ocrmypdf") + ";" + version("tesseract");
            if (v.length() > 200) v = v.substring(0, 200);
            variant = v;
        }
        return v;
    }

    private String version(String tool) throws InterruptedException {
        try {
            ProcessRunner.Result r = runner.run(List.of(tool, "--version"), Duration.ofSeconds(30), ProcessRunner.Expect.ANY_EXIT);
            String out = (r.stdout() + "\n" + r.stderr()).strip();
            return out.isEmpty() ? "unknown" : out.lines().findFirst().orElse("unknown").strip();
        } catch (EngineFailure e) {
            return "unknown";
        }
    }
}
