package dev.docapi.operations.forms;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.FileKind;
import dev.docapi.core.J;
import dev.docapi.engines.pdfbox.PdfForms;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.NoOptions;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /form-fields} (an addition beyond the spec, issue 28): every AcroForm field of a PDF in
 * {@code output.data.fields} — full name, type, value, options, required, read-only and widgets (page from 1, box in
 * PDF points from the page's top-left) — and the same as a .json file. An XFA-only form is refused with 400
 * {@code invalid_file} before any job.
 */
@Component
public class FormFieldsOperation implements Operation<NoOptions> {
    private static final JsonMapper JSON = JsonMapper.shared();
    private static final OperationSpec<NoOptions> SPEC = OperationSpec.of("form-fields", "list_form_fields",
            "List the fields of a PDF form (AcroForm) in output.data.fields: name, type (text, checkbox, radio, combo, list, button, signature), value, options, required, read_only and widgets (page from 1, box in points from the top-left). Addition beyond the spec.")
            .inputs(Inputs.one(FileKind.PDF))
            .traits(OperationSpec.Trait.DATA_ONLY_OUTPUT)
            .outputs(OutputMember.DATA, OutputMember.NOTE);
    private final PdfForms forms;

    public FormFieldsOperation(PdfForms forms) {
        this.forms = forms;
    }

    @Override
    public OperationSpec<NoOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<NoOptions> ctx) {
        read(forms, ctx.input().path());
    }

    @Override
    public OperationResult run(OperationContext<NoOptions> ctx) throws Exception {
        PdfForms.Form form = read(forms, ctx.input().path());
        JsonNode data = JSON.valueToTree(J.o("fields", form.fields().stream().map(FormFieldsOperation::json).toList()));
        Files.writeString(ctx.output("fields", "json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(data));
        OperationResult result = OperationResult.empty().withData(data);
        return form.fields().isEmpty() ? result.withNote("The PDF has no form fields.") : result;
    }

    /**
     * The form of {@code pdf}.
     *
     * @throws ApiException 400 {@code invalid_file} when PDFBox cannot read it or its form is XFA-only
     */
    static PdfForms.Form read(PdfForms forms, Path pdf) {
        PdfForms.Form form;
        try {
            form = forms.read(pdf);
        } catch (IOException e) {
            throw new ApiException(ErrorCode.INVALID_FILE, "the PDF's form could not be read: " + e.getMessage());
        }
        if (form.xfaOnly()) {
            throw new ApiException(ErrorCode.INVALID_FILE, "the PDF's form is XFA-only (an Adobe LiveCycle form with no AcroForm fields), which docapi cannot read or fill");
        }
        return form;
    }

    private static Map<String, Object> json(PdfForms.Field f) {
        List<Map<String, Object>> widgets = f.widgets().stream()
                .map(w -> J.o("page", w.page(), "x", w.x(), "y", w.y(), "width", w.width(), "height", w.height())).toList();
        return J.o("name", f.name(), "type", f.type(), "value", f.value(), "options", f.options(), "required", f.required(),
                "read_only", f.readOnly(), "widgets", widgets);
    }
}
