package dev.docapi.engines.ocrmypdf;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.pdfbox.DamagedPages;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.engines.tesseract.Tesseract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.springframework.stereotype.Component;

/**
 * OCRmyPDF (Tesseract underneath) in English and Arabic, each page in the language order of its script: every page
 * is read first with {@code eng+ara}, as a raw {@code ocrmypdf -l eng+ara} would; the pages that read as mostly
 * Arabic are read again with {@code ara} or {@code ara+eng} ({@link Tesseract#languagesFor}; OCRmyPDF takes one order
 * a run, so with {@code --pages}) and take the first read's place. Adds an invisible text layer beneath the page images
 * (sandwich renderer) and writes the recognised text as a sidecar file in logical order (DESIGN §2: Arabic read
 * back from the PDF by PDFBox comes out reversed; the sidecar does not). Tesseract is given the languages in the
 * order asked, every run ({@link LanguageOrder}).
 *
 * <p>Threads: at most {@code cores / 2} (min 1) OCRmyPDF processes at once, each with {@code --jobs cores} page
 * workers and one Tesseract thread per worker ({@code OMP_THREAD_LIMIT=1}; Tesseract's own threading only adds
 * contention when pages run in parallel).
 */
@Component
public class Ocrmypdf {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Ocrmypdf.class);
    private static final Pattern PAGE_DONE = Pattern.compile("\\d{6}_ocr_tess\\.pdf|\\d{6}_ocr_tess\\.txt");
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** Success is exit 0; any other exit code fails as OCRmyPDF's documented codes say ({@link #failure}). */
    private static final Expect SUCCESS = Expect.success(0).orFail(Ocrmypdf::failure);
    private final ProcessRunner runner;
    private final Qpdf qpdf;
    private final DamagedPages damagedPages;
    private final LanguageOrder languageOrder;
    private final PageTurns pageTurns;

    /** What to do with pages that already have a text layer. */
    public enum PagesWithText {
        /** Keep them as they are, OCR only the others ({@code --skip-text}). DESIGN §4. */
        SKIP,
        /** Rasterise and OCR every page ({@code --force-ocr}): for reading text only; the output loses its vector text. */
        FORCE
    }

    public Ocrmypdf(ProcessRunner runner, Qpdf qpdf, DamagedPages damagedPages, Poppler poppler, Tesseract tesseract) {
        this.runner = runner;
        this.qpdf = qpdf;
        this.damagedPages = damagedPages;
        this.languageOrder = new LanguageOrder(runner);
        this.pageTurns = new PageTurns(qpdf, poppler, tesseract);
        runner.setLimit("ocrmypdf", Math.max(1, CORES / 2));
    }

    /**
     * OCRs {@code in} with pages that have text kept, skewed pages straightened and rotated pages turned upright
     * (OCRmyPDF's {@code --rotate-pages}, and a page whose orientation it was unsure of when it reads clearly better
     * turned: {@link PageTurns}).
     *
     * @param out     the PDF to write, or null for none (only the sidecar, faster)
     * @param sidecar where the recognised text goes (UTF-8, pages separated by form feeds; a skipped page reads
     *                {@code [OCR skipped on page(s) N]})
     * @param pages   the page count (sets the timeout: 3 min + 90 s per page), or 0 when unknown (30 min)
     * @param pagesOcred receives the number of pages OCR'd so far while it runs (may be null)
     * @return the pages (from 1) that were damaged and were OCR'd from a picture of them (issue 16: when OCRmyPDF
     *         fails on a file with streams no reader can decode, e.g. exit 4 "LZWDecoder: bad code", the pages that
     *         use them are rasterised and the run is repeated once); usually empty
     * @throws EngineFailure {@code INVALID_INPUT} when the PDF cannot be read, {@code PASSWORD_NEEDED} when it is
     *                        encrypted, {@code ENGINE_MISSING} when an OCR dependency is missing, else {@code FAILED},
     *                        {@code TIMEOUT} or {@code BOUND_EXCEEDED}
     */
    public List<Integer> ocr(Path in, Path out, Path sidecar, PagesWithText mode, int pages, IntConsumer pagesOcred)
            throws EngineFailure, InterruptedException {
        Path workDir = sidecar.toAbsolutePath().getParent();
        Path tmp = null;
        Path part = out == null ? null : out.resolveSibling(out.getFileName() + ".part");
        try {
            tmp = Files.createTempDirectory(workDir, "ocrmypdf-tmp-");
            Duration timeout = pages > 0 ? Duration.ofMinutes(3).plusSeconds(90L * pages) : Duration.ofMinutes(30);
            // Every page first with English before Arabic, as a raw `ocrmypdf -l eng+ara` would: most documents
            // are done then. A page that read as mostly Arabic is read again, alone, in its own language order.
            Path latin = part == null ? null : tmp.resolve("latin.pdf");
            Path latinSidecar = tmp.resolve("sidecar-latin.txt");
            Run first = run(in, latin, latinSidecar, mode, new LanguageGroup(Tesseract.LATIN, null), timeout, workDir, tmp, pagesOcred);
            List<Integer> rasterised = new ArrayList<>(first.rasterised());
            int pageCount = pages > 0 ? pages : Files.readString(latinSidecar, StandardCharsets.UTF_8).split("\f", -1).length;
            List<String> read = sidecarPages(latinSidecar, pageCount);
            // a page read better turned is read again turned, and so is every later read of it
            Map<Integer, Integer> turns = first.rasterised().isEmpty() ? pageTurns.better(in, PageTurns.unsure(first.log()), read, tmp) : Map.of();
            Path source = turns.isEmpty() ? in : pageTurns.turn(in, turns, Files.createTempDirectory(tmp, "turned-"));
            List<LanguageGroup> again = new ArrayList<>();
            if (turns.isEmpty()) {
                again.addAll(readAgain(read));
            } else {
                log.info("ocrmypdf: page(s) {} read again turned", turns.keySet());
                again.add(new LanguageGroup(Tesseract.LATIN, List.copyOf(turns.keySet())));
            }
            Path result = latin;
            for (int g = 0; g < again.size(); g++) {
                LanguageGroup group = again.get(g);
                Path groupOut = part == null ? null : tmp.resolve("group-" + g + ".pdf");
                Path groupSidecar = tmp.resolve("sidecar-" + g + ".txt");
                rasterised.addAll(run(source, groupOut, groupSidecar, mode, group, timeout, workDir, tmp, null).rasterised());
                List<String> reread = sidecarPages(groupSidecar, pageCount);
                for (int p : group.pages()) read.set(p - 1, reread.get(p - 1));
                if (groupOut != null) {
                    Path merged = tmp.resolve("merged-" + g + ".pdf");
                    qpdf.replacePages(result, groupOut, new java.util.HashSet<>(group.pages()), pageCount, merged);
                    result = merged;
                }
                // once the turned pages are read upright: the pages whose script calls for other languages
                if (g == 0 && !turns.isEmpty()) again.addAll(readAgain(read));
            }
            if (again.isEmpty()) {
                Files.move(latinSidecar, sidecar, StandardCopyOption.REPLACE_EXISTING);
            } else {
                List<String> pagesText = new ArrayList<>();
                for (int i = 0; i < pageCount; i++) pagesText.add(read.get(i) == null ? "[OCR skipped on page(s) " + (i + 1) + "]" : read.get(i));
                Files.writeString(sidecar, String.join("\f", pagesText), StandardCharsets.UTF_8);
            }
            if (part != null) {
                Files.move(result, part, StandardCopyOption.REPLACE_EXISTING);
                Files.move(part, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return rasterised.stream().distinct().sorted().toList();
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "OCRmyPDF could not run: " + e.getMessage(), e);
        } finally {
            deleteQuietly(part);
            deleteTree(tmp);
        }
    }

    /**
     * The pages (from 1) read with one Tesseract language order other than {@link Tesseract#LATIN}; OCRmyPDF runs
     * them with {@code --pages}. {@code pages} null means every page (the first read).
     */
    record LanguageGroup(String languages, List<Integer> pages) {
    }

    /**
     * The pages to read again, grouped by the language order their first read calls for ({@link Tesseract#languagesFor},
     * issue 12); none for a document without Arabic pages. Pages OCRmyPDF skipped (null: they have a text layer) stay.
     */
    static List<LanguageGroup> readAgain(List<String> firstRead) {
        Map<String, List<Integer>> byLanguages = new LinkedHashMap<>();
        for (int p = 1; p <= firstRead.size(); p++) {
            String text = firstRead.get(p - 1);
            if (text == null) continue;
            String languages = Tesseract.languagesFor(text);
            if (!languages.equals(Tesseract.LATIN)) byLanguages.computeIfAbsent(languages, k -> new ArrayList<>()).add(p);
        }
        return byLanguages.entrySet().stream().map(e -> new LanguageGroup(e.getKey(), e.getValue())).toList();
    }

    /**
     * What one OCRmyPDF run did: the pages it OCR'd from a picture of them because they were damaged, and its log
     * (the end the runner keeps).
     */
    private record Run(List<Integer> rasterised, String log) {
    }

    /** One OCRmyPDF run of one language group, with the retries for encrypted and damaged input. */
    private Run run(Path in, Path part, Path sidecar, PagesWithText mode, LanguageGroup group, Duration timeout,
            Path workDir, Path tmp, IntConsumer pagesOcred) throws EngineFailure, InterruptedException, IOException {
        Path runTmp = Files.createTempDirectory(tmp, "run-");
        Map<String, String> env = new HashMap<>(languageOrder.environment(group.languages()));
        env.put("OMP_THREAD_LIMIT", "1");
        env.put("TMPDIR", runTmp.toString());
        Thread watcher = pagesOcred == null ? null : watch(runTmp, pagesOcred);
        try {
            Path source = in;
            Attempt attempt = attempt(command(source, part, sidecar, mode, group), timeout, access(workDir, part, source), env);
            if (attempt.failed() != null && attempt.failed().kind() == EngineFailure.Kind.PASSWORD_NEEDED) {
                // Encrypted but opening without a password (owner restrictions only, or an empty user password):
                // the service accepts such files, OCRmyPDF does not. Decrypt a copy and OCR that.
                source = runTmp.resolve("decrypted.pdf");
                qpdf.decrypt(in, null, source);
                attempt = attempt(command(source, part, sidecar, mode, group), timeout, access(workDir, part, source), env);
            }
            EngineFailure failed = attempt.failed();
            if (failed == null) return new Run(List.of(), attempt.done().stderr());
            // a damaged stream makes OCRmyPDF exit 2, 4 or another code; a timeout, a bound or a password is not
            // helped by pictures of the pages
            if (failed.kind() != EngineFailure.Kind.INVALID_INPUT && failed.kind() != EngineFailure.Kind.FAILED) throw failed;
            DamagedPages.Rebuilt rebuilt = rasteriseDamaged(source, runTmp, failed);
            if (rebuilt == null) throw failed;
            log.info("ocrmypdf failed ({}); retrying with page(s) {} rasterised", failed.getMessage(), rebuilt.pages());
            ProcessRunner.Result done = runner.run(command(rebuilt.pdf(), part, sidecar, mode, group), timeout, access(workDir, part, rebuilt.pdf()), env, SUCCESS);
            return new Run(rebuilt.pages(), done.stderr());
        } finally {
            if (watcher != null) watcher.interrupt();
        }
    }

    /** One OCRmyPDF run's result when it succeeded, else its failure (to retry on, or to throw). */
    private record Attempt(ProcessRunner.Result done, EngineFailure failed) {
    }

    private Attempt attempt(List<String> command, Duration timeout, Sandbox.Access access, Map<String, String> env)
            throws InterruptedException {
        try {
            return new Attempt(runner.run(command, timeout, access, env, SUCCESS), null);
        } catch (EngineFailure e) {
            return new Attempt(null, e);
        }
    }

    /**
     * {@code source} with its damaged pages rasterised, in a folder of {@code tmp}, or null when no page is
     * damaged or the repair itself fails (then OCRmyPDF's own failure is the one reported).
     */
    private DamagedPages.Rebuilt rasteriseDamaged(Path source, Path tmp, EngineFailure failed) throws IOException, InterruptedException {
        try {
            return damagedPages.rasterise(source, Files.createDirectories(tmp.resolve("damaged-pages")));
        } catch (EngineFailure e) {
            log.info("ocrmypdf failed ({}); its damaged pages could not be rasterised: {}", failed.getMessage(), e.getMessage());
            return null;
        }
    }

    /** The sandbox of one run: it writes the sidecar's folder and the output's, which share a job folder. */
    private static Sandbox.Access access(Path sidecarDir, Path part, Path in) {
        Path writable = sidecarDir;
        if (part != null) {
            Path outDir = part.toAbsolutePath().getParent();
            while (!outDir.startsWith(writable)) writable = writable.getParent();
        }
        return Sandbox.Access.of(writable, in);
    }

    private static List<String> command(Path in, Path part, Path sidecar, PagesWithText mode, LanguageGroup group) {
        List<String> cmd = new ArrayList<>(List.of("ocrmypdf", "-l", group.languages(), "--output-type", part == null ? "none" : "pdf",
                "--pdf-renderer", "sandwich", "--sidecar", sidecar.toString(), "--jobs", String.valueOf(CORES),
                "--rotate-pages", "--deskew", mode == PagesWithText.SKIP ? "--skip-text" : "--force-ocr"));
        if (group.pages() != null) {
            cmd.add("--pages");
            cmd.add(group.pages().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")));
        }
        cmd.add(in.toString());
        cmd.add(part == null ? "-" : part.toString());
        return cmd;
    }

    /** The sidecar's text per page (index 0 = page 1); a page OCRmyPDF skipped gives null. */
    public static List<String> sidecarPages(Path sidecar, int pages) throws IOException {
        String all = new String(Files.readAllBytes(sidecar), StandardCharsets.UTF_8);
        String[] parts = all.split("\f", -1);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < pages; i++) {
            String t = i < parts.length ? parts[i] : "";
            out.add(t.strip().matches("\\[OCR skipped on page\\(s\\) [0-9, -]+\\]") ? null : t);
        }
        return out;
    }

    /**
     * Counts pages whose Tesseract output exists in OCRmyPDF's temp folder (it writes {@code 000003_ocr_tess.pdf}
     * when page 3 is done): progress without a TTY progress bar to parse.
     */
    private static Thread watch(Path tmp, IntConsumer pagesOcred) {
        return Thread.ofVirtual().start(() -> {
            long last = -1;
            while (!Thread.currentThread().isInterrupted()) {
                try (Stream<Path> walk = Files.walk(tmp, 3)) {
                    long done = walk.map(p -> p.getFileName().toString()).filter(n -> PAGE_DONE.matcher(n).matches())
                            .map(n -> n.substring(0, 6)).distinct().count();
                    if (done != last) {
                        last = done;
                        pagesOcred.accept((int) done);
                    }
                } catch (IOException | java.io.UncheckedIOException ignored) {
                    // files come and go while OCRmyPDF works; try again
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /**
     * A failure in the user's terms. OCRmyPDF's own stderr (Python tracebacks, temp paths) is logged, never shown:
     * the exit code says enough (OCRmyPDF's documented exit codes: 2 bad input, 3 missing dependency, 4 invalid
     * output, 8 encrypted).
     */
    private static EngineFailure failure(ProcessRunner.Result r) {
        return switch (r.exitCode()) {
            case 2 -> new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the PDF could not be read for OCR (it is damaged or not a PDF)");
            case 8 -> new EngineFailure(EngineFailure.Kind.PASSWORD_NEEDED, "the PDF is encrypted; unlock it first");
            case 3 -> new EngineFailure(EngineFailure.Kind.ENGINE_MISSING, "an OCR component is missing on this server");
            case 4 -> new EngineFailure(EngineFailure.Kind.FAILED, "OCR produced an invalid PDF from this file (a page may be damaged)");
            default -> new EngineFailure(EngineFailure.Kind.FAILED, "OCR failed on this file (OCRmyPDF exit " + r.exitCode() + ")");
        };
    }

    private static void deleteQuietly(Path p) {
        if (p == null) return;
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // inside the job's work directory, removed with it
        }
    }

    static void deleteTree(Path dir) {
        if (dir == null) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // already gone
        }
    }

    /**
     * The note for pages OCR'd from a picture because they were damaged (the result of {@code ocr}), or null when
     * there were none: "Repaired: page 2 used a damaged stream and was OCR'd from a picture of it."
     */
    public static String repairedNote(List<Integer> pages) {
        if (pages.isEmpty()) return null;
        String list = pages.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "));
        return pages.size() == 1
                ? "Repaired: page " + list + " used a damaged stream and was OCR'd from a picture of it."
                : "Repaired: pages " + list + " used damaged streams and were OCR'd from pictures of them.";
    }
}
