package dev.docapi.operations.compress;

import dev.docapi.engines.pdfbox.PdfSignatures;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.ghostscript.Ghostscript;
import dev.docapi.engines.ghostscript.Ghostscript.ImageSettings;
import dev.docapi.engines.pdfbox.ImageShrinker;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.contract.OperationFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Chooses how to compress a PDF (DESIGN §2 "compress", issue 25): by its images first — downsampled and re-encoded
 * in place by {@link ImageShrinker}, everything else kept as it was — with Ghostscript's preset and a lossless qpdf
 * rewrite as the other candidates; the smallest that keeps the content ({@link ContentCheck}) wins. A target size
 * climbs down a ladder of image resolution × JPEG quality, every rung made from the original (never a compressed
 * result compressed again). The chosen candidate is never larger than the input: when nothing is smaller, the input
 * itself is the answer, as it is for a signed PDF (a rewrite would invalidate its signature) and for a readable file
 * no engine could rewrite.
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

    /**
     * The levels as Ghostscript's presets define them (gs_pdfwr.ps): colour/grey resolution, its QFactor as an
     * ImageIO JPEG quality (QFactor 0.76 = quality 0.62, 0.4 = 0.80, 0.15 = 0.925), bilevel resolution, and
     * downsampling only above 1.5 × the resolution.
     */
    static ImageShrinker.Settings level(Ghostscript.Preset level) {
        return switch (level) {
            case SCREEN -> new ImageShrinker.Settings(72, 0.62f, 300, 1.5);
            case EBOOK -> new ImageShrinker.Settings(150, 0.62f, 300, 1.5);
            case PRINTER -> new ImageShrinker.Settings(300, 0.80f, 1200, 1.5);
            case PREPRESS -> new ImageShrinker.Settings(300, 0.925f, 1200, 1.5);
        };
    }

    /** Why a signed file comes back as it is. */
    static final String SIGNED = "the PDF is digitally signed, and compressing it would invalidate its signature";

    /** Receives {@code (done, total)} after each attempt. */
    @FunctionalInterface
    public interface Steps {
        void step(int done, int total);
    }

    /**
     * What was chosen. {@code file} is the input itself when {@code unchanged}; {@code how} says the settings in
     * words (for an unchanged file: why); {@code rung} is the ladder rung used (null for lossless, a level or
     * unchanged).
     */
    public record Outcome(Path file, long before, long after, String how, boolean unchanged, ImageSettings rung) {
    }

    private final Qpdf qpdf;
    private final Ghostscript gs;
    private final ContentCheck check;
    private final ImageShrinker images;

    public Compressor(Qpdf qpdf, Ghostscript gs, ContentCheck check, ImageShrinker images) {
        this.check = check;
        this.qpdf = qpdf;
        this.gs = gs;
        this.images = images;
    }

    /** The number of steps {@link #toTarget} takes at most: lossless, a binary search of the ladder, one refinement, one Ghostscript try. */
    public static int maxTargetSteps() {
        return 3 + (32 - Integer.numberOfLeadingZeros(LADDER.size()));
    }

    /** Half-way between two rungs: resolution, JPEG QFactor and bilevel resolution averaged. */
    static ImageSettings between(ImageSettings better, ImageSettings smaller) {
        return new ImageSettings((better.dpi() + smaller.dpi()) / 2, (better.qFactor() + smaller.qFactor()) / 2,
                (better.monoDpi() + smaller.monoDpi()) / 2, (better.approxJpegQuality() + smaller.approxJpegQuality()) / 2);
    }

    /** A ladder rung as image settings: downsampled whenever above the rung's resolution. */
    static ImageShrinker.Settings settings(ImageSettings rung) {
        return new ImageShrinker.Settings(rung.dpi(), rung.approxJpegQuality() / 100f, rung.monoDpi(), 1.0);
    }

    /**
     * Compresses at a level ({@link #level}): the images re-encoded at the level's settings, Ghostscript's preset
     * of the same name and a lossless rewrite; the smallest that keeps the content and is smaller than the input
     * wins, else the input comes back unchanged.
     *
     * @throws OperationFailure only when no reader (PDFBox, qpdf) can read the file at all: the repair chain's turn
     */
    public Outcome withLevel(Path in, Ghostscript.Preset level, Path scratch, Steps steps) throws OperationFailure, InterruptedException, IOException {
        long before = Files.size(in);
        if (PdfSignatures.signed(in)) return unchanged(in, SIGNED);
        ContentCheck.Content original = check.read(in);
        List<Candidate> ok = new ArrayList<>();
        Candidate byImages = byImages(in, level(level), scratch.resolve("images-" + level.id() + ".pdf"), original, null);
        if (byImages != null) ok.add(byImages);
        steps.step(1, 3);
        Path preset = scratch.resolve("preset-" + level.id() + ".pdf");
        String presetResult;
        try {
            gs.pdfSettings(in, level, preset);
            String lost = lost(original, preset);
            if (lost == null) {
                ok.add(new Candidate(preset, Files.size(preset), null, "Ghostscript preset '" + level.id() + "'"));
                presetResult = "gave " + mb(Files.size(preset));
            } else {
                presetResult = "was refused: it lost " + lost;
            }
        } catch (EngineFailure e) {
            // A file Ghostscript cannot rewrite may still shrink by its images or losslessly; its failure is not the end.
            presetResult = "could not be applied to this file";
        }
        steps.step(2, 3);
        Path lossless = lossless(in, scratch, original);
        if (lossless != null) {
            ok.add(new Candidate(lossless, Files.size(lossless), null, "lossless rewrite, no image changed (the '" + level.id() + "' preset " + presetResult + ")"));
        }
        steps.step(3, 3);
        // ties go to the earlier candidate: images (text untouched) before Ghostscript before lossless
        Candidate best = ok.stream().min(Comparator.comparingLong(Candidate::size)).orElse(null);
        if (best != null && best.size < before) return new Outcome(best.path, before, best.size, best.how, false, null);
        if (ok.isEmpty()) return cannotRewrite(in);
        return unchanged(in, "no smaller version was found: neither the images at the '" + level.id() + "' level, the preset nor a lossless rewrite made it smaller"
                + (presetResult.startsWith("was refused") ? " (the preset " + presetResult + ")" : ""));
    }

    /**
     * Finds the best quality that fits under {@code targetBytes}: lossless when that fits, else the first ladder rung
     * (by binary search over the ladder, sizes falling down it) that fits, images re-encoded in place, then one try
     * half-way towards the rung above it. When even the smallest rung does not fit, Ghostscript at that rung gets one
     * try (it also subsets fonts). When none fits, the smallest result reached.
     *
     * @throws OperationFailure only when no reader (PDFBox, qpdf) can read the file at all
     */
    public Outcome toTarget(Path in, long targetBytes, Path scratch, Steps steps) throws OperationFailure, InterruptedException, IOException {
        long before = Files.size(in);
        if (PdfSignatures.signed(in)) return unchanged(in, SIGNED);
        int total = maxTargetSteps();
        int done = 0;
        List<Candidate> tried = new ArrayList<>();
        ContentCheck.Content original = check.read(in);
        Path lossless = lossless(in, scratch, original);
        steps.step(++done, total);
        if (lossless != null) tried.add(new Candidate(lossless, Files.size(lossless), null, "lossless rewrite (no image changed)"));
        long losslessSize = lossless == null ? Long.MAX_VALUE : Files.size(lossless);
        if (Math.min(before, losslessSize) <= targetBytes) {
            // Already fits at full quality: the smaller of the input and its lossless rewrite.
            if (losslessSize < before) return new Outcome(lossless, before, losslessSize, "lossless rewrite (no image changed)", false, null);
            return unchanged(in, "the input already fits and a lossless rewrite was not smaller");
        }
        Candidate best = null;
        int bestIndex = -1;
        int lo = 0;
        int hi = LADDER.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Candidate c = byImages(in, settings(LADDER.get(mid)), scratch.resolve("rung-" + mid + ".pdf"), original, LADDER.get(mid));
            steps.step(++done, total);
            if (c == null) break; // the images cannot be rewritten: no rung will do better
            tried.add(c);
            if (c.size <= targetBytes) {
                best = c;
                bestIndex = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        if (best != null && bestIndex > 0) {
            // The ladder is coarse (one rung can halve the size): one more try between the rung that fits and the
            // one above it often lands closer to the target at better quality.
            ImageSettings between = between(LADDER.get(bestIndex - 1), LADDER.get(bestIndex));
            Candidate c = byImages(in, settings(between), scratch.resolve("rung-between.pdf"), original, between);
            if (c != null && c.size <= targetBytes && c.size > best.size) best = c;
            steps.step(++done, total);
        }
        String why = "";
        if (best == null) {
            // Even the smallest images do not fit: Ghostscript also rewrites fonts, and may get there.
            ImageSettings last = LADDER.getLast();
            Path p = scratch.resolve("gs-last.pdf");
            try {
                gs.resample(in, last, p);
                String refused = lost(original, p);
                if (refused == null) tried.add(new Candidate(p, Files.size(p), last, "Ghostscript, images at most " + last));
                else why = " (Ghostscript's result was refused: it lost " + refused + ")";
            } catch (EngineFailure e) {
                // the smallest result reached stands
            }
            steps.step(++done, total);
            best = tried.stream().min(Comparator.comparingLong(Candidate::size)).orElse(null);
        }
        steps.step(total, total);
        if (best == null) return cannotRewrite(in);
        if (best.size >= before) return unchanged(in, "no setting made it smaller" + why);
        return new Outcome(best.path, before, best.size, best.how + why, false, best.rung);
    }

    /**
     * The input with its images re-encoded (then streams recompressed and object streams generated by qpdf), or null
     * when no image could be made smaller, PDFBox cannot rewrite the file, or the result lost content (the check
     * still runs: the rewrite keeps text, forms and annotations by construction, and this proves it).
     */
    private Candidate byImages(Path in, ImageShrinker.Settings s, Path out, ContentCheck.Content original, ImageSettings rung) throws InterruptedException {
        if (original == null) return null;
        Path raw = out.resolveSibling("raw-" + out.getFileName());
        ImageShrinker.Report r;
        try {
            r = images.shrink(in, s, raw);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (r.recoded() == 0 && r.duplicates() == 0) return null; // only a rewrite: the lossless candidate does that better
        Path result = raw;
        try {
            qpdf.optimizeLossless(raw, out);
            if (Files.exists(out) && Files.size(out) < Files.size(raw)) result = out;
        } catch (EngineFailure | IOException e) {
            // PDFBox's own writing (object streams already) stands
        }
        if (lost(original, result) != null) return null;
        try {
            String how = "images re-encoded in place (" + r.recoded() + " of " + r.images() + (r.duplicates() > 0 ? ", " + r.duplicates() + " duplicates stored once" : "")
                    + "), at most " + (int) s.dpi() + " dpi, JPEG quality ~" + Math.round(s.jpegQuality() * 100) + "; text, fonts, forms and annotations untouched";
            return new Candidate(result, Files.size(result), rung, how);
        } catch (IOException e) {
            return null;
        }
    }

    /** The input as the answer, {@code why} saying so. */
    private static Outcome unchanged(Path in, String why) throws IOException {
        long size = Files.size(in);
        return new Outcome(in, size, size, why, true, null);
    }

    /**
     * No engine could rewrite the input. A file qpdf opens (poppler and most viewers do too) is returned as it is: it
     * is readable, only not rewritable. One qpdf cannot open fails, even when PDFBox's lenient parser reads some of
     * it (a file cut short), so that the repair chain ({@code PdfRepair}) gets its turn and the client receives a
     * repaired, compressed file instead of the damaged one.
     */
    private Outcome cannotRewrite(Path in) throws OperationFailure, InterruptedException, IOException {
        if (!qpdf.readsPages(in, null)) throw damaged();
        return unchanged(in, "its structure could not be rewritten without losing content, so it was left as it is");
    }

    /**
     * No reader can open the input: the operation fails and the repair chain ({@code PdfRepair}) gets its turn.
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

    private record Candidate(Path path, long size, ImageSettings rung, String how) {
    }
}
