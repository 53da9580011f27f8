package dev.docapi.engines.qpdf;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * The qpdf CLI: lossless page selection, merge, split, rotation, encryption and repair. qpdf keeps links, outlines,
 * forms and object streams, and recovers damaged files (exit code 3 = "succeeded with warnings" counts as success:
 * {@link #SUCCESS}).
 * Passwords are passed in a 0600 argument file, never on the command line (where {@code ps} would show them).
 */
@Component
public class Qpdf {
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    /** qpdf's exit codes: 0 success, 3 success with warnings (a damaged file recovered); 2 is an error. */
    private static final Expect SUCCESS = Expect.success(0, 3).orFail(EngineFailure.Kind.FAILED, "qpdf failed");
    /** How {@code qpdf --check} names a stream it cannot decode. */
    private static final java.util.regex.Pattern UNDECODABLE =
            java.util.regex.Pattern.compile("error decoding stream data for object (\\d+) \\d+");
    private final ProcessRunner runner;

    public Qpdf(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * The page count, read with qpdf's recovery (exit 3, warnings, still counts).
     *
     * @throws EngineFailure {@code INVALID_INPUT} when qpdf cannot read the file (or {@code password} does not open
     *                        it), with qpdf's own last line
     */
    public int pageCount(Path pdf, String password) throws EngineFailure, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--show-npages", pdf.toString()));
        if (password != null) args.addFirst("--password=" + password);
        Path dir = scratchDir();
        try {
            ProcessRunner.Result r = exec(args, dir, Duration.ofSeconds(60), List.of(pdf),
                    Expect.success(0, 3).orFail(EngineFailure.Kind.INVALID_INPUT, "qpdf cannot read it"));
            return Integer.parseInt(r.stdout().strip());
        } catch (NumberFormatException e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "qpdf gave no page count", e);
        } finally {
            org.springframework.util.FileSystemUtils.deleteRecursively(dir.toFile());
        }
    }

    /** True when qpdf (with recovery) reads at least one page of {@code pdf}, opened with {@code password} if not null. */
    public boolean readsPages(Path pdf, String password) throws InterruptedException {
        try {
            return pageCount(pdf, password) > 0;
        } catch (EngineFailure e) {
            return false;
        }
    }

    /**
     * The object numbers of the streams whose data qpdf cannot decode ({@code qpdf --check} decodes every stream:
     * "error decoding stream data for object 5 0: LZWDecoder: bad code received"). Empty when none is damaged or
     * qpdf cannot read the file at all.
     */
    public java.util.Set<Long> undecodableStreams(Path pdf) throws EngineFailure, InterruptedException {
        Path dir = scratchDir();
        try {
            // --check exits 2 when it finds errors: the report is the answer, whatever the exit code
            ProcessRunner.Result r = exec(List.of("--check", pdf.toString()), dir, TIMEOUT, List.of(pdf), Expect.ANY_EXIT);
            java.util.Set<Long> objects = new java.util.TreeSet<>();
            java.util.regex.Matcher m = UNDECODABLE.matcher(r.stdout() + "\n" + r.stderr());
            while (m.find()) objects.add(Long.parseLong(m.group(1)));
            return objects;
        } finally {
            org.springframework.util.FileSystemUtils.deleteRecursively(dir.toFile());
        }
    }

    /** Concatenates whole documents in order into {@code out}. */
    public void merge(List<Path> inputs, Path out) throws EngineFailure, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--empty", "--pages"));
        for (Path p : inputs) args.add(p.toString());
        args.addAll(List.of("--", out.toString()));
        check(args, out.getParent(), inputs);
    }

    /** Writes the given pages of {@code in} (page numbers from 1, in this order, repeats allowed) to {@code out}. */
    public void selectPages(Path in, List<Integer> pages, Path out) throws EngineFailure, InterruptedException {
        check(List.of(in.toString(), "--pages", ".", pageSpec(pages), "--", out.toString()), out.getParent(), List.of(in));
    }

    /**
     * Writes {@code base} (its document-level parts kept) with the pages in {@code replaced} (from 1) taken from
     * {@code from} instead, at the same places; {@code from} has at least as many pages as the highest of them.
     */
    public void replacePages(Path base, Path from, java.util.Set<Integer> replaced, int pageCount, Path out) throws EngineFailure, InterruptedException {
        List<String> args = new ArrayList<>(List.of(base.toString(), "--pages"));
        int start = 1;
        while (start <= pageCount) {
            boolean fromOther = replaced.contains(start);
            int end = start;
            while (end < pageCount && replaced.contains(end + 1) == fromOther) end++;
            args.addAll(List.of(fromOther ? from.toString() : base.toString(), start == end ? String.valueOf(start) : start + "-" + end));
            start = end + 1;
        }
        args.addAll(List.of("--", out.toString()));
        check(args, out.getParent(), List.of(base, from));
    }

    /** Writes pages {@code from}-{@code to} (inclusive, from 1) of {@code in} to {@code out}. */
    public void selectRange(Path in, int from, int to, Path out) throws EngineFailure, InterruptedException {
        check(List.of(in.toString(), "--pages", ".", from + "-" + to, "--", out.toString()), out.getParent(), List.of(in));
    }

    /** Adds {@code angle} (90, 180, 270) to the rotation of the given pages, or of all pages when {@code pages} is empty. */
    public void rotate(Path in, int angle, List<Integer> pages, Path out) throws EngineFailure, InterruptedException {
        String spec = pages.isEmpty() ? "" : ":" + pageSpec(pages);
        check(List.of("--rotate=+" + angle + spec, in.toString(), out.toString()), out.getParent(), List.of(in));
    }

    /** Splits into files of {@code every} pages each; returns them in page order. */
    public List<Path> splitEvery(Path in, int every, Path dir) throws EngineFailure, InterruptedException, IOException {
        check(List.of("--split-pages=" + every, in.toString(), dir.resolve("part-%d.pdf").toString()), dir, List.of(in));
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
        }
    }

    /** Encrypts with AES-256 (R6): {@code userPassword} to open, {@code ownerPassword} for full rights. */
    public void encryptAes256(Path in, String userPassword, String ownerPassword, Path out) throws EngineFailure, InterruptedException {
        check(List.of(in.toString(), out.toString(), "--encrypt", userPassword, ownerPassword, "256", "--"), out.getParent(), List.of(in));
    }

    /** Removes encryption; {@code password} may be null for files that open without one. */
    public void decrypt(Path in, String password, Path out) throws EngineFailure, InterruptedException {
        List<String> args = new ArrayList<>();
        if (password != null) args.add("--password=" + password);
        args.addAll(List.of("--decrypt", in.toString(), out.toString()));
        check(args, out.getParent(), List.of(in));
    }

    /** Rewrites a damaged file as qpdf recovers it (xref rebuilt, streams kept as far as readable). */
    public void repair(Path in, Path out) throws EngineFailure, InterruptedException {
        check(List.of(in.toString(), out.toString()), out.getParent(), List.of(in));
    }

    /**
     * Lossless size reduction: object streams generated, every Flate stream recompressed at level 9, unreferenced
     * objects dropped. Images and text are byte-for-byte the same content (compress, DESIGN §2).
     */
    public void optimizeLossless(Path in, Path out) throws EngineFailure, InterruptedException {
        check(List.of("--object-streams=generate", "--compress-streams=y", "--recompress-flate", "--compression-level=9",
                in.toString(), out.toString()), out.getParent(), List.of(in));
    }

    /**
     * The file rewritten uncompressed for reading (QDF: every object on its own, no object streams, every stream
     * decoded that qpdf can decode), as redact's verification reads it (issue 35).
     */
    public void qdf(Path in, Path out) throws EngineFailure, InterruptedException {
        check(List.of("--qdf", "--object-streams=disable", "--decode-level=all", in.toString(), out.toString()), out.getParent(), List.of(in));
    }

    /** {@code 1,3,5}: qpdf's page-range syntax for a list of page numbers. */
    static String pageSpec(List<Integer> pages) {
        return pages.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** Runs qpdf writing into {@code dir} (the sandbox's one writable folder) and reading {@code inputs}. */
    private void check(List<String> args, Path dir, List<Path> inputs) throws EngineFailure, InterruptedException {
        exec(args, dir, TIMEOUT, inputs, SUCCESS);
    }

    private ProcessRunner.Result exec(List<String> args, Path dir, Duration timeout, List<Path> inputs, Expect expect)
            throws EngineFailure, InterruptedException {
        Path argFile = null;
        try {
            argFile = Files.createTempFile(dir, "qpdf-", ".args", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(argFile, args);
            return runner.run(List.of("qpdf", "@" + argFile), timeout, Sandbox.Access.of(dir, inputs), java.util.Map.of(), expect);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "qpdf could not run: " + e.getMessage(), e);
        } finally {
            if (argFile != null) org.springframework.util.FileSystemUtils.deleteRecursively(argFile.toFile());
        }
    }

    private Path scratchDir() throws EngineFailure {
        try {
            return runner.sandbox().newScratchDir("qpdf-");
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "qpdf could not run: " + e.getMessage(), e);
        }
    }
}
