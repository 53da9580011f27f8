package dev.docapi.engines;

/**
 * The external programs docapi runs, the one list of them: the start-up log ({@link EngineCheck}), the health
 * endpoint's engine details and the operations' checks at validation ({@link EngineCheck#require}) all read it.
 */
public enum Engine {
    QPDF("qpdf", "lossless PDF rewriting"),
    GS("gs", "Ghostscript: compress, PDF/A"),
    OCRMYPDF("ocrmypdf", "OCR of PDFs"),
    TESSERACT("tesseract", "OCR of images"),
    PDFTOTEXT("pdftotext", "poppler: text layer"),
    PDFTOPPM("pdftoppm", "poppler: page rendering"),
    MUTOOL("mutool", "MuPDF: the redaction check"),
    PYTHON3("python3", "PyMuPDF: redaction"),
    FC_MATCH("fc-match", "fontconfig: fonts for watermarks"),
    FC_LIST("fc-list", "fontconfig: installed fonts"),
    SOFFICE("soffice", "LibreOffice: Office to PDF"),
    CHROMIUM("chromium", "Chromium: HTML to PDF"),
    BWRAP("bwrap", "bubblewrap: the engine sandbox");

    private final String executable;
    private final String purpose;

    Engine(String executable, String purpose) {
        this.executable = executable;
        this.purpose = purpose;
    }

    /** The executable looked up on {@code PATH}, e.g. {@code gs}. */
    public String executable() {
        return executable;
    }

    /** What docapi runs it for, in words. */
    public String purpose() {
        return purpose;
    }
}
