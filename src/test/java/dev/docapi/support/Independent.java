package dev.docapi.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;

/** Independent readers for checking outputs: qpdf --check, pdftotext, PDFBox. */
public final class Independent {
    private Independent() {
    }

    /** The result of a command: exit code and combined output. */
    public record Run(int exit, String output) {
    }

    public static Run run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), out);
    }

    /** {@code qpdf --check}: exit 0 (clean) or 3 (warnings only) is a structurally sound PDF. */
    public static Run qpdfCheck(Path pdf, String... password) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("qpdf", "--check"));
        if (password.length > 0) cmd.add("--password=" + password[0]);
        cmd.add(pdf.toString());
        return run(cmd.toArray(String[]::new));
    }

    /** Text of the whole PDF (or page {@code first}..{@code last}) by poppler's pdftotext. */
    public static String pdftotext(Path pdf, int... pages) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("pdftotext", "-q", "-enc", "UTF-8"));
        if (pages.length == 2) cmd.addAll(List.of("-f", "" + pages[0], "-l", "" + pages[1]));
        cmd.addAll(List.of(pdf.toString(), "-"));
        Run r = run(cmd.toArray(String[]::new));
        if (r.exit() != 0) throw new AssertionError("pdftotext failed: " + r.output());
        return r.output();
    }

    /** Each page's text by PDFBox's own stripper, in content order, index 0 = page 1. */
    public static List<String> pdfboxPages(Path pdf) throws IOException {
        try (PDDocument doc = pdfbox(pdf)) {
            List<String> pages = new ArrayList<>();
            PDFTextStripper stripper = new PDFTextStripper();
            for (int p = 1; p <= doc.getNumberOfPages(); p++) {
                stripper.setStartPage(p);
                stripper.setEndPage(p);
                pages.add(stripper.getText(doc));
            }
            return pages;
        }
    }

    /** Text of the whole PDF by PDFBox's own stripper, in content order (widget values, as of forms, not included). */
    public static String pdfboxText(Path pdf) throws IOException {
        try (PDDocument doc = pdfbox(pdf)) {
            return new PDFTextStripper().getText(doc);
        }
    }

    public static PDDocument pdfbox(Path pdf, String... password) throws IOException {
        return Loader.loadPDF(pdf.toFile(), password.length > 0 ? password[0] : "");
    }
}
