package dev.docapi.operations;

import dev.docapi.accounts.Account;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What {@link Operation#run} works with: its inputs, its options (passwords included), a private work directory,
 * the output files it declares and a progress reporter. The work directory is removed after the run.
 */
public final class OperationContext {

    /** Receives progress while an operation runs; shown on the job as {@code progress: {done, total, unit}}. */
    @FunctionalInterface
    public interface ProgressListener {
        void progress(int done, int total, String unit);
    }

    private final Account account;
    private final String jobId;
    private final List<InputFile> inputs;
    private final Options options;
    private final Path workDir;
    private final ProgressListener progress;
    private final List<Path> outputs = new ArrayList<>();
    private int aiOperations;

    public OperationContext(Account account, String jobId, List<InputFile> inputs, Options options, Path workDir,
                            ProgressListener progress) {
        this.account = account;
        this.jobId = jobId;
        this.inputs = List.copyOf(inputs);
        this.options = options;
        this.workDir = workDir;
        this.progress = progress;
    }

    public Account account() {
        return account;
    }

    public String jobId() {
        return jobId;
    }

    public List<InputFile> inputs() {
        return inputs;
    }

    /** The first (for one-file operations, the only) input. */
    public InputFile input() {
        return inputs.getFirst();
    }

    public Options options() {
        return options;
    }

    /**
     * A path for an output file named {@code fileName} (the name clients see). Outputs are stored in the order they
     * were declared; a declared path that does not exist after the run is ignored.
     */
    public Path output(String fileName) {
        Path dir = workDir.resolve("out-" + outputs.size());
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path p = dir.resolve(safeName(fileName));
        outputs.add(p);
        return p;
    }

    /** A named output beside the input: {@code <input name>-<suffix>.<extension>}, e.g. {@code report-rotated.pdf}. */
    public Path output(String suffix, String extension) {
        return output(input().file().baseName() + "-" + suffix + "." + extension);
    }

    /** A fresh scratch directory inside the work directory. */
    public Path tempDir(String name) {
        try {
            return Files.createDirectories(workDir.resolve("tmp-" + name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Path> outputs() {
        return Collections.unmodifiableList(outputs);
    }

    /** Records that this run used one AI operation on the service's own model (spec §8). */
    public void useAiOperation() {
        aiOperations++;
    }

    public int aiOperations() {
        return aiOperations;
    }

    public void progress(int done, int total, String unit) {
        progress.progress(done, total, unit);
    }

    private static String safeName(String name) {
        String cleaned = name.replaceAll("[/\\\\\\x00-\\x1f]", "_").strip();
        if (cleaned.isEmpty() || cleaned.equals(".") || cleaned.equals("..")) cleaned = "output";
        return cleaned.length() > 200 ? cleaned.substring(cleaned.length() - 200) : cleaned;
    }
}
