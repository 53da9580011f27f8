package dev.docapi.operations.convert;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What {@code POST /convert} converts to ({@code to}), in the order messages list them: spec §4.4's five, then the
 * additions of issue 28 ({@code md} and {@code html} from a PDF) and of issue 36 ({@code json}: a PDF's document model).
 * In JSON by its extension, e.g. {@code docx}.
 */
public enum ConvertTarget {
    PDF, DOCX, XLSX, PPTX, JPG, MD, HTML, JSON;

    /** The extension, as the option says it, e.g. {@code pdf}. */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
