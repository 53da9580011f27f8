package dev.docapi.engines.pdfbox;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.qpdf.Qpdf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.springframework.stereotype.Component;

/**
 * The last link of the repair chain for page-by-page engines (issue 16): a page that uses a stream no reader can
 * decode (a content stream, an image, a font or any other object the page refers to, e.g. an LZW stream with a bad
 * code) is replaced by a picture of it, so that an engine which refuses the damaged stream (OCRmyPDF exits 4 on it)
 * can work on the page as it is seen. The pictures are drawn by poppler in the engine sandbox, which renders what
 * it can of a damaged page; the other pages are copied as they are.
 */
@Component
public class DamagedPages {
    /** Resolution of a page's picture: what OCR wants (Tesseract reads best at 300 dpi). */
    private static final int DPI = 300;
    /** No picture beyond this many pixels (a poster-sized page gets a lower resolution, not a 2 GB image). */
    private static final double MAX_PIXELS = 40e6;
    private final Qpdf qpdf;
    private final Poppler poppler;

    public DamagedPages(Qpdf qpdf, Poppler poppler) {
        this.qpdf = qpdf;
        this.poppler = poppler;
    }

    /**
     * A copy of a PDF with its damaged pages replaced by pictures.
     *
     * @param pdf   the rebuilt PDF
     * @param pages the pages (from 1) that were replaced, in order
     */
    public record Rebuilt(Path pdf, List<Integer> pages) {
    }

    /**
     * Writes {@code in} to {@code dir} with every page that refers to an undecodable stream replaced by a
     * {@value #DPI} dpi picture of it (size as displayed, rotation applied, annotations dropped: they may be what is
     * damaged). The page keeps its place in the page tree, so outline items and links to it still lead there.
     *
     * @return the copy, or null when no page refers to a damaged stream (then rasterising cannot help) or PDFBox
     *         cannot read the file
     * @throws EngineFailure when qpdf or poppler cannot run
     */
    public Rebuilt rasterise(Path in, Path dir) throws EngineFailure, InterruptedException {
        Set<Long> damaged = qpdf.undecodableStreams(in);
        if (damaged.isEmpty()) return null;
        try (PDDocument doc = Loader.loadPDF(in.toFile(), "", null, null, IOUtils.createTempFileOnlyStreamCache())) {
            List<Integer> pages = new ArrayList<>();
            for (int i = 0; i < doc.getNumberOfPages(); i++) {
                if (refersTo(doc.getPage(i).getCOSObject(), damaged)) pages.add(i + 1);
            }
            if (pages.isEmpty()) return null;
            for (int page : pages) redraw(doc, in, page, dir);
            doc.setAllSecurityToBeRemoved(true);
            Path out = dir.resolve("rasterised.pdf");
            PdfBox.save(doc, out);
            return new Rebuilt(out, List.copyOf(pages));
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * True when the page's object graph reaches one of {@code objects}. The walk does not go up the page tree
     * ({@code /Parent}) nor into other pages (a link's destination), whose streams are theirs.
     */
    static boolean refersTo(COSDictionary page, Set<Long> objects) {
        Set<COSBase> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<COSBase> todo = new ArrayDeque<>();
        todo.push(page);
        while (!todo.isEmpty()) {
            COSBase item = todo.pop();
            if (item instanceof COSObject ref) {
                if (objects.contains(ref.getObjectNumber())) return true;
                item = ref.getObject();
            } else if (item != null && item.getKey() != null && objects.contains(item.getKey().getNumber())) {
                return true;
            }
            if (item == null || !seen.add(item)) continue;
            if (item instanceof COSDictionary d) {
                if (d != page && COSName.PAGE.equals(d.getCOSName(COSName.TYPE))) continue;
                for (var e : d.entrySet()) {
                    if (!e.getKey().equals(COSName.PARENT)) todo.push(e.getValue());
                }
            } else if (item instanceof COSArray a) {
                for (int i = 0; i < a.size(); i++) todo.push(a.get(i));
            }
        }
        return false;
    }

    /** Replaces the contents of page {@code number} (from 1) by its picture (drawn from {@code in}), in place. */
    private void redraw(PDDocument doc, Path in, int number, Path dir) throws IOException, EngineFailure, InterruptedException {
        PDPage page = doc.getPage(number - 1);
        PDRectangle crop = page.getCropBox();
        boolean sideways = page.getRotation() % 180 != 0;
        float width = sideways ? crop.getHeight() : crop.getWidth();
        float height = sideways ? crop.getWidth() : crop.getHeight();
        double inches = (width / 72.0) * (height / 72.0);
        int dpi = (int) Math.max(36, Math.min(DPI, Math.sqrt(MAX_PIXELS / Math.max(inches, 1e-6))));
        Path pictures = Files.createDirectories(dir.resolve("page-" + number));
        List<Path> rendered = poppler.render(in, number, number, dpi, "png", pictures);
        if (rendered.isEmpty()) throw new EngineFailure(EngineFailure.Kind.FAILED, "page " + number + " could not be rendered");

        COSDictionary dict = page.getCOSObject();
        for (COSName key : new ArrayList<>(dict.keySet())) {
            // keep the page's identity in the tree; everything it drew with (and its annotations) goes
            if (!key.equals(COSName.TYPE) && !key.equals(COSName.PARENT)) dict.removeItem(key);
        }
        PDRectangle box = new PDRectangle(width, height);
        page.setMediaBox(box);
        page.setCropBox(box);
        page.setRotation(0); // explicit: a /Rotate inherited from the page tree would turn the picture
        page.setResources(new PDResources());
        PDImageXObject picture = PDImageXObject.createFromFileByContent(rendered.getFirst().toFile(), doc);
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
            cs.drawImage(picture, 0, 0, width, height);
        }
    }
}
