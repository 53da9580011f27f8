package dev.docapi.engines.ghostscript;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.ProcessRunner.Expect;
import dev.docapi.engines.process.Sandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.stereotype.Component;

/**
 * Ghostscript's {@code pdfwrite} device: rewrites a PDF with its images resampled and re-encoded (compress, spec
 * §4.4). Text stays text (fonts are re-embedded, subset). Always run with {@code -dSAFER}; the output is written to
 * a temp file and moved into place, so a failure leaves no half-written file.
 */
@Component
public class Ghostscript {
    /** The {@code -dPDFSETTINGS} presets, from smallest to best quality; in JSON by their Ghostscript names. */
    public enum Preset {
        SCREEN, EBOOK, PRINTER, PREPRESS;

        /** Ghostscript's name, e.g. {@code ebook}. */
        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Duration BASE_TIMEOUT = Duration.ofMinutes(2);
    private final ProcessRunner runner;

    public Ghostscript(ProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * One rung of a compression ladder: colour and grey images downsampled to at most {@code dpi} and re-encoded as
     * JPEG with Ghostscript's {@code qFactor} (0.15 ≈ JPEG quality 90, 0.4 ≈ 75, 0.76 ≈ 50, 1.3 ≈ 30: lower is
     * better); bilevel images to {@code monoDpi} (kept lossless: CCITT G4).
     */
    public record ImageSettings(int dpi, double qFactor, int monoDpi, int approxJpegQuality) {
        @Override
        public String toString() {
            return dpi + " dpi, JPEG quality ~" + approxJpegQuality;
        }
    }

    /**
     * Rewrites {@code in} with a {@code -dPDFSETTINGS} preset.
     *
     * @throws EngineFailure when Ghostscript fails or times out
     */
    public void pdfSettings(Path in, Preset preset, Path out) throws EngineFailure, InterruptedException {
        List<String> cmd = base(out);
        cmd.add("-dPDFSETTINGS=/" + preset.id());
        cmd.addAll(List.of("-f", in.toString()));
        run(cmd, in, out);
    }

    /**
     * Rewrites {@code in} with images resampled and re-encoded as {@code settings} says. JPEG images already in the
     * file are decoded and re-encoded too (no pass-through), so each rung gives its stated quality.
     *
     * @throws EngineFailure when Ghostscript fails or times out
     */
    public void resample(Path in, ImageSettings settings, Path out) throws EngineFailure, InterruptedException {
        List<String> cmd = base(out);
        // Ghostscript 10.00/10.01's new C PDF interpreter applies a QFactor set with setdistillerparams to the first
        // page's images only (measured on the corpus scans: pages 2-6 kept their size at every QFactor); the
        // PostScript-based interpreter applies it to every page. Older and later releases accept or ignore the flag.
        if (legacyInterpreterNeeded()) cmd.add("-dNEWPDF=false");
        cmd.add("-dPDFSETTINGS=/printer");
        cmd.add("-dPassThroughJPEGImages=false");
        cmd.add("-dPassThroughJPXImages=false");
        for (String kind : List.of("Color", "Gray")) {
            cmd.add("-dDownsample" + kind + "Images=true");
            cmd.add("-d" + kind + "ImageDownsampleType=/Bicubic");
            cmd.add("-d" + kind + "ImageResolution=" + settings.dpi());
            cmd.add("-d" + kind + "ImageDownsampleThreshold=1.0");
            cmd.add("-dAutoFilter" + kind + "Images=false");
            cmd.add("-d" + kind + "ImageFilter=/DCTEncode");
        }
        cmd.add("-dDownsampleMonoImages=true");
        cmd.add("-dMonoImageDownsampleType=/Subsample");
        cmd.add("-dMonoImageResolution=" + settings.monoDpi());
        cmd.add("-dMonoImageDownsampleThreshold=1.0");
        cmd.add("-dMonoImageFilter=/CCITTFaxEncode");
        String q = String.format(Locale.ROOT, "%.2f", settings.qFactor());
        String dict = "<< /QFactor " + q + " /Blend 1 /HSamples [2 1 1 2] /VSamples [2 1 1 2] >>";
        cmd.addAll(List.of("-c", "<< /ColorImageDict " + dict + " /GrayImageDict " + dict + " >> setdistillerparams"));
        cmd.addAll(List.of("-f", in.toString()));
        run(cmd, in, out);
    }

    /**
     * Rewrites {@code in} as PDF/A-{@code part} (1, 2 or 3; conformance level B as Ghostscript writes it) with
     * {@code iccProfile} (an sRGB ICC profile) as the output intent: colours converted to RGB, fonts embedded, XMP
     * metadata written, what PDF/A forbids dropped (non-printing annotations, JavaScript, transparency groups in
     * PDF/A-1 — Ghostscript's {@code PDFACompatibilityPolicy=1}: drop the feature, carry on). Ghostscript does not check
     * its output: validate it ({@code engines/verapdf}).
     *
     * @throws EngineFailure when Ghostscript fails or times out
     */
    public void pdfa(Path in, int part, Path iccProfile, Path out) throws EngineFailure, InterruptedException {
        if (part < 1 || part > 3) throw new IllegalArgumentException("PDF/A part " + part);
        Path def = out.resolveSibling(out.getFileName() + ".pdfa-def.ps");
        try {
            Files.writeString(def, pdfaDefinition(iccProfile));
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "Ghostscript could not run: " + e.getMessage(), e);
        }
        List<String> cmd = new ArrayList<>(List.of("gs", "-q", "-dSAFER", "--permit-file-read=" + iccProfile, "-dBATCH",
                "-dNOPAUSE", "-sDEVICE=pdfwrite", "-dCompatibilityLevel=" + (part == 1 ? "1.4" : "1.7"),
                "-dAutoRotatePages=/None", "-dPDFA=" + part, "-dPDFACompatibilityPolicy=1",
                "-sColorConversionStrategy=RGB", "-sOutputFile=" + partOf(out), def.toString(), "-f", in.toString()));
        try {
            run(cmd, in, out, iccProfile);
        } finally {
            try {
                Files.deleteIfExists(def);
            } catch (IOException ignored) {
                // inside the job's work directory, removed with it
            }
        }
    }

    /**
     * Ghostscript's {@code lib/PDFA_def.ps} with the profile's path filled in and its placeholder title left out: it
     * embeds the profile and makes it the catalog's sRGB output intent ({@code /S /GTS_PDFA1}, which every part
     * takes).
     */
    private static String pdfaDefinition(Path iccProfile) {
        String path = iccProfile.toAbsolutePath().toString().replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)");
        return "/ICCProfile (" + path + ") def\n"
                + "[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark\n"
                + "[{icc_PDFA} << /N 3 >> /PUT pdfmark\n"
                + "[{icc_PDFA} ICCProfile (r) file /PUT pdfmark\n"
                + "[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark\n"
                + "[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA}"
                + " /OutputConditionIdentifier (sRGB) /Info (sRGB IEC61966-2.1) >> /PUT pdfmark\n"
                + "[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark\n";
    }

    private volatile Boolean legacyNeeded;

    /** True on Ghostscript 10.00 and 10.01 (see {@link #resample}); asked once. */
    boolean legacyInterpreterNeeded() throws InterruptedException {
        if (legacyNeeded == null) {
            try {
                String v = runner.run(List.of("gs", "--version"), Duration.ofSeconds(20), Expect.success(0)).stdout().strip();
                legacyNeeded = v.startsWith("10.00") || v.startsWith("10.01");
            } catch (EngineFailure e) {
                legacyNeeded = false;
            }
        }
        return legacyNeeded;
    }

    private static List<String> base(Path out) {
        return new ArrayList<>(List.of("gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pdfwrite",
                "-dCompatibilityLevel=1.7", "-dDetectDuplicateImages=true", "-dAutoRotatePages=/None",
                "-sOutputFile=" + partOf(out)));
    }

    private void run(List<String> cmd, Path in, Path out, Path... alsoReadable) throws EngineFailure, InterruptedException {
        Path part = partOf(out);
        List<Path> readable = new ArrayList<>(List.of(alsoReadable));
        readable.add(in);
        try {
            // A minute per 10 MB on top of the base: large scans take long, a stuck interpreter is still stopped.
            Duration timeout = BASE_TIMEOUT.plusSeconds(Files.size(in) / 10_000_000 * 60);
            ProcessRunner.Result r = runner.run(cmd, timeout, Sandbox.Access.of(out.getParent(), readable), java.util.Map.of(),
                    Expect.success(0).orFail(Ghostscript::cannotRewrite));
            // Ghostscript exits 0 on a file it could not interpret at all ("No pages will be processed").
            if (!Files.exists(part) || Files.size(part) == 0) throw cannotRewrite(r);
            Files.move(part, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "Ghostscript could not run: " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(part);
            } catch (IOException ignored) {
                // inside the job's work directory, removed with it
            }
        }
    }

    private static Path partOf(Path out) {
        return out.resolveSibling(out.getFileName() + ".part");
    }

    /** Ghostscript writes its errors to stdout: the failure names the first. */
    private static EngineFailure cannotRewrite(ProcessRunner.Result r) {
        return new EngineFailure(EngineFailure.Kind.FAILED, "Ghostscript could not rewrite the PDF: " + firstError(r.stdout() + "\n" + r.stderr()));
    }

    private static String firstError(String output) {
        for (String line : output.strip().split("\n")) {
            if (line.toLowerCase(Locale.ROOT).contains("error")) return line.strip();
        }
        String t = output.strip();
        return t.isEmpty() ? "no message" : t.substring(0, Math.min(200, t.length()));
    }
}
