package dev.docapi.operations.forms;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.FileKind;
import dev.docapi.core.J;
import dev.docapi.engines.pdfbox.PdfForms;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /fill-form} (an addition beyond the spec, issue 28): sets AcroForm field values by full name — text as
 * a string, checkbox true/false (or its export value), radio and combo one of their options, list one or more —
 * with appearances regenerated so every viewer shows them; {@code flatten: true} turns the form into page content.
 * An unknown field name or a value its field does not take answers 400 {@code invalid_request} naming the field,
 * before any job ({@link PdfForms#refusal}).
 */
@Component
public class FillFormOperation implements Operation<FillFormOperation.FillFormOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record FillFormOptions(JsonNode fields, boolean flatten) {
    }

    private static final int MAX_FIELDS = 2000;
    private static final OptionSchema<FillFormOptions> OPTIONS = OptionSchema.of(FillFormOptions.class,
            OptionField.custom("fields", J.o("type", "object", "maxProperties", MAX_FIELDS), FillFormOperation::checkFields).required()
                    .description("Field full name → value: text a string, checkbox true/false, radio and combo one of the field's options, list one option or an array (POST /v1/form-fields lists them)"),
            OptionField.bool("flatten").defaultValue(false)
                    .description("Turn the filled form into page content (no longer editable)"));
    private static final OperationSpec<FillFormOptions> SPEC = OperationSpec.of("fill-form", "fill_form",
            "Fill a PDF form (AcroForm) from field values, appearances regenerated so every viewer shows them; optionally flatten it. Addition beyond the spec.")
            .inputs(Inputs.one(FileKind.PDF))
            .options(OPTIONS)
            .outputs(OutputMember.NOTE);
    private final PdfForms forms;

    public FillFormOperation(PdfForms forms) {
        this.forms = forms;
    }

    @Override
    public OperationSpec<FillFormOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<FillFormOptions> ctx) {
        PdfForms.Form form = FormFieldsOperation.read(forms, ctx.input().path());
        if (form.fields().isEmpty()) throw new ApiException(ErrorCode.INVALID_FILE, "the PDF has no form fields to fill");
        Map<String, PdfForms.Field> fields = PdfForms.byName(form.fields());
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : ctx.options().fields().properties()) {
            PdfForms.Field field = fields.get(e.getKey());
            if (field == null) {
                unknown.add(e.getKey());
                continue;
            }
            String refusal = PdfForms.refusal(field, e.getValue());
            if (refusal != null) throw ApiException.invalid("fields: " + refusal);
        }
        if (!unknown.isEmpty()) {
            throw ApiException.invalid("fields: the PDF has no field " + String.join(", ", unknown.stream().map(n -> "'" + n + "'").toList())
                    + " (POST /v1/form-fields lists its fields)");
        }
    }

    @Override
    public OperationResult run(OperationContext<FillFormOptions> ctx) throws Exception {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : ctx.options().fields().properties()) values.put(e.getKey(), e.getValue());
        PdfForms.Filled filled = forms.fill(ctx.input().path(), values, ctx.options().flatten(), ctx.output("filled", "pdf"));
        List<String> notes = new ArrayList<>();
        filled.fallbackFonts().forEach((field, font) -> notes.add("The value of '" + field + "' has characters its field's font does not draw: "
                + font + " was embedded (only the glyphs used) to draw it."));
        if (!filled.autoSized().isEmpty()) {
            notes.add("The font size of " + String.join(", ", filled.autoSized().stream().map(n -> "'" + n + "'").toList())
                    + " did not fit the box: set to auto so the whole value shows.");
        }
        return notes.isEmpty() ? OperationResult.empty() : OperationResult.ofNote(String.join(" ", notes));
    }

    private static String checkFields(JsonNode fields) {
        if (!fields.isObject()) return "must be an object of field name → value";
        if (fields.isEmpty()) return "must name at least one field";
        if (fields.size() > MAX_FIELDS) return "at most " + MAX_FIELDS + " fields";
        return null;
    }
}
