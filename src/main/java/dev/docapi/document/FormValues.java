package dev.docapi.document;

import dev.docapi.engines.pdfbox.PdfForms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;

/**
 * A form's values where they stand (issue 36): each widget of a field that has a value is an item placed by its box,
 * so the value reads beside its label. A checkbox or radio button reads ☑ or ☐ (every one, on or off); a list's
 * choices are joined by ", "; an empty text or choice field, a push button and a signature field are left out. Boxes
 * are in points from the top-left of the page as seen (crop box, {@code /Rotate} applied), as its text's are.
 */
final class FormValues {
    static final String ON = "☑";
    static final String OFF = "☐";

    /** The atom of a form field's item: the field's full name and its value as text. */
    record Value(String field, String text) {
    }

    private FormValues() {
    }

    /** The items of each page (from 1) of {@code doc} that has a widget with a value. */
    static Map<Integer, List<Layout.Item>> byPage(List<PdfForms.Field> fields, PDDocument doc) {
        Map<Integer, List<Layout.Item>> out = new HashMap<>();
        for (PdfForms.Field f : fields) {
            for (PdfForms.Widget w : f.widgets()) {
                String text = text(f, w);
                if (text == null || text.isBlank() || w.width() <= 0 || w.height() <= 0) continue;
                DocumentModel.Box box = seen(w, doc.getPage(w.page() - 1));
                out.computeIfAbsent(w.page(), k -> new ArrayList<>()).add(new Layout.Item(box, null, new Value(f.name(), text)));
            }
        }
        return out;
    }

    /** The widget's box on the page as seen ({@link #seen(float, float, float, float, PDPage)}). */
    static DocumentModel.Box seen(PdfForms.Widget w, PDPage page) {
        return seen((float) w.x(), (float) w.y(), (float) w.width(), (float) w.height(), page);
    }

    /**
     * A box given in points from the media box's top-left corner ({@code x}, {@code y}: its top-left) on the page as
     * seen: from the crop box's top-left, then turned by /Rotate.
     */
    static DocumentModel.Box seen(float mediaX, float mediaY, float width, float height, PDPage page) {
        PDRectangle media = page.getMediaBox(), crop = page.getCropBox();
        float x = mediaX - (crop.getLowerLeftX() - media.getLowerLeftX());
        float y = mediaY - (media.getUpperRightY() - crop.getUpperRightY());
        float pw = crop.getWidth(), ph = crop.getHeight();
        return switch (((page.getRotation() % 360) + 360) % 360) {
            case 90 -> new DocumentModel.Box(ph - y - height, x, height, width);
            case 180 -> new DocumentModel.Box(pw - x - width, ph - y - height, width, height);
            case 270 -> new DocumentModel.Box(y, pw - x - width, height, width);
            default -> new DocumentModel.Box(x, y, width, height);
        };
    }

    private static String text(PdfForms.Field f, PdfForms.Widget w) {
        return switch (f.type()) {
            // a lone checkbox's value is read as PdfForms reads it (some forms set /V but draw no state)
            case "checkbox" -> f.widgets().size() == 1 ? (Boolean.TRUE.equals(f.value()) ? ON : OFF) : Boolean.TRUE.equals(w.on()) ? ON : OFF;
            case "radio" -> Boolean.TRUE.equals(w.on()) ? ON : OFF;
            case "list" -> f.value() instanceof List<?> l ? String.join(", ", l.stream().map(String::valueOf).toList()) : null;
            case "text", "combo" -> f.value() == null ? null : String.valueOf(f.value());
            default -> null;
        };
    }
}
