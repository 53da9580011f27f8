package dev.docapi.document;

import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Link;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionURI;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.apache.pdfbox.text.PDFTextStripperByArea;

/**
 * A page's hyperlinks set on the elements whose text they cover (issue 36, {@link DocumentModel.Link}): each link
 * annotation whose action opens an address (PDF 32000-1 §12.6.4.7), with the text drawn inside its rectangle. Only
 * absolute {@code http}, {@code https}, {@code ftp} and {@code mailto} addresses are kept: a document is hostile, and
 * its output's reader follows a link it is given ({@code javascript:}, {@code file:}, a relative address are left
 * out). Links to places inside the document, and a link whose text no element holds (one that runs over two
 * paragraphs), are left out.
 */
final class Links {
    /** A page's links read past this many are left out: each is looked for under every glyph of the page. */
    private static final int MOST = 200;
    private static final Set<String> SCHEMES = Set.of("http", "https", "ftp", "mailto");

    /** A link on a page: its rectangle (points from the page's top-left, as the page is seen), address and text. */
    record Found(DocumentModel.Box box, String uri, String text) {
    }

    private Links() {
    }

    /** The links of {@code page} with the text inside each; none when it has none. */
    static List<Found> of(PDPage page) throws IOException {
        List<DocumentModel.Box> boxes = new ArrayList<>();
        List<String> uris = new ArrayList<>();
        for (PDAnnotation a : page.getAnnotations()) {
            if (boxes.size() == MOST) break;
            if (!(a instanceof PDAnnotationLink link) || !(link.getAction() instanceof PDActionURI action)) continue;
            String uri = address(action.getURI());
            PDRectangle r = link.getRectangle();
            if (uri == null || r == null || r.getWidth() <= 0 || r.getHeight() <= 0) continue;
            PDRectangle media = page.getMediaBox();
            boxes.add(FormValues.seen(r.getLowerLeftX() - media.getLowerLeftX(), media.getUpperRightY() - r.getUpperRightY(),
                    r.getWidth(), r.getHeight(), page));
            uris.add(uri);
        }
        if (boxes.isEmpty()) return List.of();
        PDFTextStripperByArea stripper = new PDFTextStripperByArea();
        stripper.setSortByPosition(true);
        for (int i = 0; i < boxes.size(); i++) {
            DocumentModel.Box b = boxes.get(i);
            // a glyph is in when its baseline's start is: a little room below, as rectangles are drawn tight to the text
            stripper.addRegion(Integer.toString(i), new Rectangle2D.Float(b.x() - 0.5f, b.y() - 0.5f, b.width() + 1, b.height() + 1.5f));
        }
        stripper.extractRegions(page);
        List<Found> out = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            String text = stripper.getTextForRegion(Integer.toString(i)).replaceAll("\\s+", " ").strip();
            // a rectangle drawn a little wide takes the sentence's full stop or the brackets or quotes around its text
            // ("…/DPR." → "…/DPR", "<http://…pdf>" → "http://…pdf"; an address broken after its "." keeps it: "…/nvss."
            // of "…/nvss.htm", as one ending in a bracket does: "…/Set_(mathematics)")
            while (!text.isEmpty() && ".,;:>)]\"'”“’»".indexOf(text.charAt(text.length() - 1)) >= 0
                    && !uris.get(i).contains(text.substring(Math.max(text.lastIndexOf(' ') + 1, Math.max(text.lastIndexOf('/'), 0))))) {
                text = text.substring(0, text.length() - 1).strip();
            }
            while (!text.isEmpty() && "<([\"'„“‘«".indexOf(text.charAt(0)) >= 0 && !uris.get(i).startsWith(text.substring(0, 1))) {
                text = text.substring(1).strip();
            }
            if (!text.isEmpty()) out.add(new Found(boxes.get(i), uris.get(i), text));
        }
        return out;
    }

    /** {@code uri} when it is an absolute address of a kept scheme, else null. */
    static String address(String uri) {
        if (uri == null || uri.isBlank()) return null;
        try {
            URI u = new URI(uri.strip());
            return u.getScheme() != null && SCHEMES.contains(u.getScheme().toLowerCase(Locale.ROOT)) ? u.toString() : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /**
     * The page's elements with the links whose text they hold: a link goes to the element whose box holds its
     * rectangle's centre and whose text holds its text after the links it already has, links taken top to bottom,
     * left to right; two links to one address with only a line break between them are one (an address broken over
     * two lines).
     */
    static List<Element> set(List<Element> elements, List<Found> links) {
        if (links.isEmpty()) return elements;
        List<List<Link>> found = new ArrayList<>();
        List<int[]> next = new ArrayList<>(); // each element's text position after its last link
        for (int i = 0; i < elements.size(); i++) {
            found.add(new ArrayList<>());
            next.add(new int[] {0});
        }
        List<Found> ordered = new ArrayList<>(links);
        ordered.sort(Comparator.comparingDouble((Found f) -> f.box().y()).thenComparingDouble(f -> f.box().x()));
        for (Found link : ordered) {
            float cx = link.box().x() + link.box().width() / 2, cy = link.box().y() + link.box().height() / 2;
            for (int i = 0; i < elements.size(); i++) {
                Element e = elements.get(i);
                DocumentModel.Box b = e.box();
                if (e.text() == null || cx < b.x() - 2 || cx > b.right() + 2 || cy < b.y() - 2 || cy > b.bottom() + 2) continue;
                int[] at = Link.find(e.text(), link.text(), next.get(i)[0]);
                if (at == null) continue;
                List<Link> its = found.get(i);
                // an address broken over two lines has a link on each: one link, over the line break
                if (!its.isEmpty() && its.getLast().uri().equals(link.uri()) && e.text().substring(next.get(i)[0], at[0]).isBlank()) {
                    at[0] = next.get(i)[0] - its.removeLast().text().length();
                }
                its.add(new Link(e.text().substring(at[0], at[1]), link.uri()));
                next.get(i)[0] = at[1];
                break;
            }
        }
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < elements.size(); i++) out.add(found.get(i).isEmpty() ? elements.get(i) : elements.get(i).withLinks(found.get(i)));
        return out;
    }
}
