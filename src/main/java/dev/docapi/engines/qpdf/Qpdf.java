package dev.docapi.engines.qpdf;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import dev.docapi.operations.OperationFailure;
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
 * forms and object streams, and recovers damaged files (exit code 3 = "succeeded with warnings" counts as success).
 * Passwords are passed in a 0600 argument file, never on the command line (where {@code ps} would show them).
 */
@Component
public class Qpdf {
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
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
     * @throws IOException when qpdf cannot read the file (or {@code password} does not open it); the message is
     *                     qpdf's own
     */
    public int pageCount(Path pdf, String password) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--show-npages", pdf.toString()));
        if (password != null) args.addFirst("--password=" + password);
        Path dir = runner.sandbox().newScratchDir("qpdf-");
        try {
            ProcessRunner.Result r = exec(args, dir, Duration.ofSeconds(60), List.of(pdf));
            if (r.exitCode() != 0 && r.exitCode() != 3) throw new IOException("qpdf cannot read it (exit " + r.exitCode() + "): " + r.stderr().strip());
            return Integer.parseInt(r.stdout().strip());
        } catch (NumberFormatException e) {
            throw new IOException("qpdf gave no page count", e);
        } finally {
            org.springframework.util.FileSystemUtils.deleteRecursively(dir);
        }
    }

    /** True when qpdf (with recovery) reads at least one page of {@code pdf}, opened with {@code password} if not null. */
    public boolean readsPages(Path pdf, String password) throws InterruptedException {
        try {
            return pageCount(pdf, password) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The object numbers of the streams whose data qpdf cannot decode ({@code qpdf --check} decodes every stream:
     * "error decoding stream data for object 5 0: LZWDecoder: bad code received"). Empty when none is damaged or
     * qpdf cannot read the file at all.
     */
    public java.util.Set<Long> undecodableStreams(Path pdf) throws OperationFailure, InterruptedException {
        Path dir = null;
        try {
            dir = runner.sandbox().newScratchDir("qpdf-");
            ProcessRunner.Result r = exec(List.of("--check", pdf.toString()), dir, TIMEOUT, List.of(pdf));
            java.util.Set<Long> objects = new java.util.TreeSet<>();
            java.util.regex.Matcher m = UNDECODABLE.matcher(r.stdout() + "\n" + r.stderr());
            while (m.find()) objects.add(Long.parseLong(m.group(1)));
            return objects;
        } catch (IOException e) {
            throw new OperationFailure(dev.docapi.api.ErrorCode.INTERNAL_ERROR, "qpdf could not run: " + e.getMessage(), e);
        } finally {
            if (dir != null) org.springframework.util.FileSystemUtils.deleteRecursively(dir.toFile());
        }
    }

    /** Concatenates whole documents in order into {@code out}. */
    public void merge(List<Path> inputs, Path out) throws OperationFailure, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--empty", "--pages"));
        for (Path p : inputs) args.add(p.toString());
        args.addAll(List.of("--", out.toString()));
        check(args, out.getParent(), inputs);
    }

    /** Writes the given pages of {@code in} (page numbers from 1, in this order, repeats allowed) to {@code out}. */
    public void selectPages(Path in, List<Integer> pages, Path out) throws OperationFailure, InterruptedException {
        check(List.of(in.toString(), "--pages", ".", pageSpec(pages), "--", out.toString()), out.getParent(), List.of(in));
    }

    /** Writes pages {@code from}-{@code to} (inclusive, from 1) of {@code in} to {@code out}. */
    public void selectRange(Path in, int from, int to, Path out) throws OperationFailure, InterruptedException {
        check(List.of(in.toString(), "--pages", ".", from + "-" + to, "--", out.toString()), out.getParent(), List.of(in));
    }

    /** Adds {@code angle} (90, 180, 270) to the rotation of the given pages, or of all pages when {@code pages} is empty. */
    public void rotate(Path in, int angle, List<Integer> pages, Path out) throws OperationFailure, InterruptedException {
        String spec = pages.isEmpty() ? "" : ":" + pageSpec(pages);
        check(List.of("--rotate=+" + angle + spec, in.toString(), out.toString()), out.getParent(), List.of(in));
    }

    /** Splits into files of {@code every} pages each; returns them in page order. */
    public List<Path> splitEvery(Path in, int every, Path dir) throws OperationFailure, InterruptedException, IOException {
        check(List.of("--split-pages=" + every, in.toString(), dir.resolve("part-%d.pdf").toString()), dir, List.of(in));
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
        }
    }

    /** Encrypts with AES-256 (R6): {@code userPassword} to open, {@code ownerPassword} for full rights. */
    public void encryptAes256(Path in, String userPassword, String ownerPassword, Path out) throws OperationFailure, InterruptedException {
        check(List.of(in.toString(), out.toString(), "--encrypt", userPassword, ownerPassword, "256", "--"), out.getParent(), List.of(in));
    }

    /** Removes encryption; {@code password} may be null for files that open without one. */
    public void decrypt(Path in, String password, Path out) throws OperationFailure, InterruptedException {
        List<String> args = new ArrayList<>();
        if (password != null) args.add("--password=" + password);
        args.addAll(List.of("--decrypt", in.toString(), out.toString()));
        check(args, out.getParent(), List.of(in));
    }

    /** Rewrites a damaged file as qpdf recovers it (xref rebuilt, streams kept as far as readable). */
    public void repair(Path in, Path out) throws OperationFailure, InterruptedException {
        check(List.of(in.toString(), out.toString()), out.getParent(), List.of(in));
    }

    /**
     * Lossless size reduction: object streams generated, every Flate stream recompressed at level 9, unreferenced
     * objects dropped. Images and text are byte-for-byte the same content (compress, DESIGN §2).
     */
    public void optimizeLossless(Path in, Path out) throws OperationFailure, InterruptedException {
        check(List.of("--object-streams=generate", "--compress-streams=y", "--recompress-flate", "--compression-level=9",
                in.toString(), out.toString()), out.getParent(), List.of(in));
    }

    /** {@code 1,3,5}: qpdf's page-range syntax for a list of page numbers. */
    static String pageSpec(List<Integer> pages) {
        return pages.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** Runs qpdf writing into {@code dir} (the sandbox's one writable folder) and reading {@code inputs}. */
    private void check(List<String> args, Path dir, List<Path> inputs) throws OperationFailure, InterruptedException {
        ProcessRunner.Result r;
        try {
            r = exec(args, dir, TIMEOUT, inputs);
        } catch (IOException e) {
            throw new OperationFailure(dev.docapi.api.ErrorCode.INTERNAL_ERROR, "qpdf could not run: " + e.getMessage(), e);
        }
        if (r.exitCode() != 0 && r.exitCode() != 3) {
            throw new OperationFailure("qpdf failed: " + lastLine(r.stderr()));
        }
    }

    private ProcessRunner.Result exec(List<String> args, Path dir, Duration timeout, List<Path> inputs) throws IOException, InterruptedException {
        Path argFile = Files.createTempFile(dir, "qpdf-", ".args", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(argFile, args);
            return runner.run(List.of("qpdf", "@" + argFile), timeout, Sandbox.Access.of(dir, inputs), java.util.Map.of());
        } finally {
            Files.deleteIfExists(argFile);
        }
    }

    private static String lastLine(String text) {
        String t = text.strip();
        int nl = t.lastIndexOf('\n');
        return nl >= 0 ? t.substring(nl + 1) : t;
    }
}
