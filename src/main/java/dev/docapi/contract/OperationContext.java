package dev.docapi.contract;

import dev.docapi.accounts.Account;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What {@link dev.docapi.operations.Operation#run} works with: its inputs, its options (passwords included), a private work directory,
 * the output files it declares and a progress reporter. The work directory is removed after the run.
 *
 * @param <O> the operation's options record
 */
public final class OperationContext<O extends Record> {

    /** Receives progress while an operation runs; shown on the job as {@code progress: {done, total, unit}}. */
    @FunctionalInterface
    public interface ProgressListener {
        void progress(int done, int total, String unit);
    }

    private final Account account;
    private final String jobId;
    private final List<InputFile> inputs;
    private final Map<String, InputFile> optionFiles;
    private final O options;
    private final Path workDir;
    private final ProgressListener progress;
    private final List<Path> outputs = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private int aiOperations;

    /** @param optionFiles the files the options name by id ({@link dev.docapi.operations.OptionField#fileId}), by option name */
    public OperationContext(Account account, String jobId, List<InputFile> inputs, Map<String, InputFile> optionFiles, O options, Path workDir,
                            ProgressListener progress) {
        this.account = account;
        this.jobId = jobId;
        this.inputs = List.copyOf(inputs);
        this.optionFiles = Map.copyOf(optionFiles);
        this.options = options;
        this.workDir = workDir;
        this.progress = progress;
    }

    /**
     * Adds a sentence to the job's {@code output.note} (spec §2.4, free text), after the operation's own note: what
     * a helper deep in a run has to tell, e.g. the pages whose tables could not be detected. Null, or a sentence
     * already added (two readers of one file meeting the same unreadable page), adds nothing.
     */
    public void note(String sentence) {
        if (sentence != null && !notes.contains(sentence)) notes.add(sentence);
    }

    /** The sentences added with {@link #note}, in order ({@code OperationService} adds them to the note). */
    public List<String> notes() {
        return List.copyOf(notes);
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

    /** The file option {@code option} names ({@link dev.docapi.operations.OptionField#fileId}), or null when the request left it out. */
    public InputFile file(String option) {
        return optionFiles.get(option);
    }

    /** The options, defaults filled in. */
    public O options() {
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
