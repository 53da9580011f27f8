package dev.docapi.operations.compress;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.ghostscript.Ghostscript;
import dev.docapi.engines.ghostscript.Ghostscript.ImageSettings;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.operations.OperationFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Chooses how to compress a PDF (DESIGN §2 "compress"): lossless first, then a ladder of image resolution × JPEG
 * quality, every rung made from the original (never a compressed result compressed again). The chosen candidate is
 * never larger than the input: when nothing is smaller, the input itself is the answer.
 */
@Component
public class Compressor {
    /** 1 MB = 10^6 bytes: a target in MB is met under either reading of "MB". */
    public static final long MB = 1_000_000L;

    /**
     * Rungs from best quality to smallest. Bilevel (fax-like) images keep at least 200 dpi: below that, scanned
     * text becomes unreadable, and CCITT G4 makes them small anyway.
     */
    static final List<ImageSettings> LADDER = List.of(
            new ImageSettings(300, 0.15, 600, 90),
            new ImageSettings(225, 0.25, 450, 85),
            new ImageSettings(150, 0.40, 300, 75),
            new ImageSettings(150, 0.76, 300, 50),
            new ImageSettings(120, 0.90, 240, 45),
            new ImageSettings(96, 1.30, 200, 30),
            new ImageSettings(72, 1.80, 200, 20),
            new ImageSettings(50, 2.40, 200, 10));

    /** Receives {@code (done, total)} after each attempt. */
    @FunctionalInterface
    public interface Steps {
        void step(int done, int total);
    }

    /**
     * What was chosen. {@code file} is the input itself when {@code unchanged}; {@code how} says the settings in
     * words; {@code rung} is the ladder rung used (null for lossless, a preset or unchanged).
     */
    public record Outcome(Path file, long before, long after, String how, boolean unchanged, ImageSettings rung) {
    }

    private final Qpdf qpdf;
    private final Ghostscript gs;
    private final ContentCheck check;

    public Compressor(Qpdf qpdf, Ghostscript gs, ContentCheck check) {
        this.check = check;
        this.qpdf = qpdf;
        this.gs = gs;
    }

    /** The number of steps {@link #toTarget} takes at most: lossless, a binary search of the ladder, one refinement. */
    public static int maxTargetSteps() {
        return 2 + (32 - Integer.numberOfLeadingZeros(LADDER.size()));
    }

    /** Half-way between two rungs: resolution, JPEG QFactor and bilevel resolution averaged. */
    static ImageSettings between(ImageSettings better, ImageSettings smaller) {
        return new ImageSettings((better.dpi() + smaller.dpi()) / 2, (better.qFactor() + smaller.qFactor()) / 2,
                (better.monoDpi() + smaller.monoDpi()) / 2, (better.approxJpegQuality() + smaller.approxJpegQuality()) / 2);
    }

    /**
     * Compresses with a Ghostscript preset and also rewrites losslessly; returns the smaller of the two when it is
     * smaller than the input (a lossless rewrite that is smaller than the preset's result is better on both counts),
     * else the input.
     */
    public Outcome withLevel(Path in, String level, Path scratch, Steps steps) throws OperationFailure, InterruptedException, IOException {
        long before = Files.size(in);
        ContentCheck.Content original = check.read(in);
        Path preset = scratch.resolve("preset-" + level + ".pdf");
        long presetSize = Long.MAX_VALUE;
        String presetResult;
        try {
            gs.pdfSettings(in, level, preset);
            String lost = lost(original, preset);
            if (lost == null) {
                presetSize = Files.size(preset);
                presetResult = "gave " + mb(presetSize);
            } else {
                presetResult = "was refused: it lost " + lost;
            }
        } catch (EngineFailure e) {
            // A file Ghostscript cannot rewrite may still shrink losslessly; its failure is not the end.
            presetResult = "could not be applied to this file";
        }
        steps.step(1, 2);
        Path lossless = lossless(in, scratch, original);
        long losslessSize = lossless == null ? Long.MAX_VALUE : Files.size(lossless);
        steps.step(2, 2);
        if (presetSize < before && presetSize <= losslessSize) {
            return new Outcome(preset, before, presetSize, "Ghostscript preset '" + level + "'", false, null);
        }
        if (losslessSize < before) {
            return new Outcome(lossless, before, losslessSize,
                    "lossless rewrite, no image changed (the '" + level + "' preset " + presetResult + ")", false, null);
        }
        if (lossless == null) throw damaged();
        return new Outcome(in, before, before, "none: neither the '" + level + "' preset nor a lossless rewrite made it smaller"
                + (presetResult.startsWith("was refused") ? " (the preset " + presetResult + ")" : ""), true, null);
    }

    /**
     * Finds the best quality that fits under {@code targetBytes}: lossless when that fits, else the first ladder rung
     * (by binary search over the ladder, sizes falling down it) that fits, then one try half-way towards the rung
     * above it. When none fits, the smallest result reached.
     */
    public Outcome toTarget(Path in, long targetBytes, Path scratch, Steps steps) throws OperationFailure, EngineFailure, InterruptedException, IOException {
        long before = Files.size(in);
        int total = maxTargetSteps();
        int done = 0;
        List<Candidate> tried = new ArrayList<>();
        ContentCheck.Content original = check.read(in);
        Path lossless = lossless(in, scratch, original);
        steps.step(++done, total);
        if (lossless != null) tried.add(new Candidate(lossless, Files.size(lossless), null));
        long losslessSize = lossless == null ? Long.MAX_VALUE : Files.size(lossless);
        if (Math.min(before, losslessSize) <= targetBytes) {
            // Already fits at full quality: the smaller of the input and its lossless rewrite.
            if (losslessSize < before) return new Outcome(lossless, before, losslessSize, "lossless rewrite (no image changed)", false, null);
            return new Outcome(in, before, before, "none: the input already fits and a lossless rewrite was not smaller", true, null);
        }
        Candidate best = null;
        int bestIndex = -1;
        String refused = null;
        int lo = 0;
        int hi = LADDER.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            ImageSettings rung = LADDER.get(mid);
            Path p = scratch.resolve("rung-" + mid + ".pdf");
            try {
                gs.resample(in, rung, p);
            } catch (EngineFailure e) {
                if (tried.isEmpty()) throw e; // nothing to fall back on: neither engine could rewrite it
                break; // Ghostscript cannot rewrite this file: the lossless rewrite is the best there is
            }
            refused = lost(original, p);
            // what one rung loses (forms, annotations, text, pages) every rung loses: images are all that differ
            if (refused != null) break;
            Candidate c = new Candidate(p, Files.size(p), rung);
            tried.add(c);
            steps.step(++done, total);
            if (c.size <= targetBytes) {
                best = c;
                bestIndex = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        if (best != null && best.rung != null && bestIndex > 0) {
            // The ladder is coarse (one rung can halve the size): one more try between the rung that fits and the
            // one above it often lands closer to the target at better quality.
            ImageSettings between = between(LADDER.get(bestIndex - 1), LADDER.get(bestIndex));
            Path p = scratch.resolve("rung-between.pdf");
            try {
                gs.resample(in, between, p);
                Candidate c = new Candidate(p, Files.size(p), between);
                if (c.size <= targetBytes && c.size > best.size && lost(original, p) == null) best = c;
            } catch (EngineFailure e) {
                // keep the rung that fits
            }
            steps.step(++done, total);
        }
        if (best == null) {
            best = tried.stream().min((a, b) -> Long.compare(a.size, b.size)).orElse(null);
        }
        steps.step(total, total);
        String why = refused == null ? "" : " (Ghostscript's results were refused: they lost " + refused + ")";
        if (best == null || best.size >= before) {
            if (lossless == null) throw damaged();
            return new Outcome(in, before, before, "none: no setting made it smaller" + why, true, null);
        }
        return new Outcome(best.path, before, best.size, best.rung == null ? "lossless rewrite (no image changed)" + why
                : "Ghostscript, images at most " + best.rung, false, best.rung);
    }

    /**
     * qpdf could not rewrite the input and no Ghostscript result kept its content: returning the input as it is would
     * hand back a damaged file, so the operation fails and the repair chain ({@code PdfRepair}) gets its turn.
     */
    private static OperationFailure damaged() {
        return new OperationFailure("the PDF is damaged and could not be compressed without losing content");
    }

    /** What {@code candidate} lost of {@code original} (see {@link ContentCheck}); a file PDFBox cannot read trusts no rewrite but qpdf's. */
    private String lost(ContentCheck.Content original, Path candidate) throws InterruptedException {
        if (original == null) return "the check (the original could not be read to compare)";
        return check.lost(original, check.read(candidate));
    }

    private Path lossless(Path in, Path scratch, ContentCheck.Content original) throws InterruptedException {
        Path out = scratch.resolve("lossless.pdf");
        try {
            qpdf.optimizeLossless(in, out);
            if (!Files.exists(out)) return null;
            // qpdf keeps every object; the check still guards against a damaged input that qpdf "recovered" short
            return original == null || lost(original, out) == null ? out : null;
        } catch (EngineFailure e) {
            return null; // Ghostscript may still manage; qpdf's failure is not the client's
        }
    }

    /** {@code 1.14 MB} (10^6 bytes), three decimals below 0.1 MB. */
    public static String mb(long bytes) {
        double v = bytes / (double) MB;
        return String.format(java.util.Locale.ROOT, v < 0.1 ? "%.3f MB" : "%.2f MB", v);
    }

    private record Candidate(Path path, long size, ImageSettings rung) {
    }
}
