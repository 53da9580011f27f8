package dev.docapi.operations;

import dev.docapi.contract.InputFile;
import dev.docapi.core.FileKind;
import dev.docapi.engines.qpdf.Qpdf;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.springframework.stereotype.Component;

/**
 * The second reader of the PDF engine role (issue 16 "a repair chain before failing"): qpdf first; when qpdf cannot
 * open a PDF even with its own recovery but PDFBox's lenient parser can (a file cut short, a broken cross-reference
 * table), PDFBox rewrites what it reads into the job's folder and the operation uses that copy.
 */
@Component
public class PdfRepair {
    private final Qpdf qpdf;

    public PdfRepair(Qpdf qpdf) {
        this.qpdf = qpdf;
    }

    /**
     * The inputs with each PDF that qpdf cannot open replaced by PDFBox's rewrite (in {@code dir}), or null when no
     * input needed it or one could not be repaired (then the original failure stands). Encrypted inputs are left
     * alone: they are not damaged, and PDFBox could not re-encrypt them.
     */
    public List<InputFile> repaired(List<InputFile> inputs, Path dir) throws InterruptedException {
        List<InputFile> out = new ArrayList<>();
        boolean any = false;
        for (int i = 0; i < inputs.size(); i++) {
            InputFile in = inputs.get(i);
            if (in.file().kind() != FileKind.PDF || in.file().encrypted() || qpdf.readsPages(in.path(), null)) {
                out.add(in);
                continue;
            }
            Path copy = dir.resolve(i + "-" + in.file().baseName() + ".pdf");
            try (PDDocument doc = Loader.loadPDF(in.path().toFile(), "", null, null, IOUtils.createTempFileOnlyStreamCache())) {
                if (doc.getNumberOfPages() == 0) return null;
                dev.docapi.engines.pdfbox.PdfBox.save(doc, copy);
            } catch (IOException e) {
                return null;
            }
            if (!qpdf.readsPages(copy, null)) return null;
            out.add(new InputFile(in.file(), copy));
            any = true;
        }
        return any ? out : null;
    }
}
