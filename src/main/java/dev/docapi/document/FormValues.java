package dev.docapi.document;

import dev.docapi.engines.pdfbox.PdfForms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A form's values where they stand (issue 36): each widget of a field that has a value is an item placed by its box,
 * so the value reads beside its label. A checkbox or radio button reads ☑ or ☐ (every one, on or off); a list's
 * choices are joined by ", "; an empty text or choice field, a push button and a signature field are left out. Boxes
 * are from the page's top-left with its {@code /Rotate} not applied, as {@link Pictures}' are.
 */
final class FormValues {
    static final String ON = "☑";
    static final String OFF = "☐";

    /** The atom of a form field's item: the field's full name and its value as text. */
    record Value(String field, String text) {
    }

    private FormValues() {
    }

    /** The items of each page (from 1) that has a widget with a value. */
    static Map<Integer, List<Layout.Item>> byPage(List<PdfForms.Field> fields) {
        Map<Integer, List<Layout.Item>> out = new HashMap<>();
        for (PdfForms.Field f : fields) {
            for (PdfForms.Widget w : f.widgets()) {
                String text = text(f, w);
                if (text == null || text.isBlank() || w.width() <= 0 || w.height() <= 0) continue;
                DocumentModel.Box box = new DocumentModel.Box((float) w.x(), (float) w.y(), (float) w.width(), (float) w.height());
                out.computeIfAbsent(w.page(), k -> new ArrayList<>()).add(new Layout.Item(box, null, new Value(f.name(), text)));
            }
        }
        return out;
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
