package dev.docapi.operations.forms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * form-fields and fill-form (issue 28 items 1-2) on the corpus's forms — LibreOffice, OpenOffice with object streams,
 * pdflatex's hyperref and one filled in Acrobat — read back with qpdf's JSON (the field values) and pdftotext (the
 * flattened page), never with PDFBox, which wrote them.
 */
class FormsTest extends ApiTestBase {
    private static final JsonMapper JSON_READER = JsonMapper.shared();

    @Test
    void formFieldsListsEveryFieldWithItsTypeValueOptionsAndPlace() throws Exception {
        String key = newKey();
        JsonNode job = run(key, "form-fields", Map.of("file", uploadId(key, corpus("pdf-text/openoffice-form-objstm-pdf16.pdf"))));
        Map<String, JsonNode> fields = byName(job.at("/output/data/fields"));
        assertThat(fields).hasSize(17);
        assertThat(fields.get("Given Name Text Box").get("type").asString()).isEqualTo("text");
        assertThat(fields.get("Given Name Text Box").get("value").asString()).isEqualTo("ABC");
        assertThat(fields.get("Country Combo Box").get("type").asString()).isEqualTo("combo");
        assertThat(strings(fields.get("Country Combo Box").get("options"))).contains("Austria", "Malta", "Sweden").hasSize(28);
        // named a list box, but its flags make it a combo box (qpdf's fieldflags 131072: bit 18, Combo)
        assertThat(fields.get("Gender List Box").get("type").asString()).isEqualTo("combo");
        assertThat(strings(fields.get("Gender List Box").get("value"))).containsExactly("Man");
        assertThat(fields.get("Driving License Check Box").get("type").asString()).isEqualTo("checkbox");
        assertThat(fields.get("Driving License Check Box").get("value").asBoolean()).isTrue();
        JsonNode widget = fields.get("Given Name Text Box").at("/widgets/0");
        assertThat(widget.get("page").asInt()).isEqualTo(1);
        assertThat(widget.get("width").asDouble()).isPositive();
        assertThat(widget.get("y").asDouble()).isBetween(0.0, 842.0);
        assertThat(job.at("/output/files/0/name").asString()).endsWith(".json");

        JsonNode none = run(key, "form-fields", Map.of("file", uploadId(key, corpus("pdf-text/two-column-paper-2p.pdf"))));
        assertThat(none.at("/output/data/fields").size()).isZero();
        assertThat(none.at("/output/note").asString()).contains("no form fields");
    }

    @ParameterizedTest
    @ValueSource(strings = {"libreoffice-form.pdf", "openoffice-form-objstm-pdf16.pdf", "pdflatex-forms.pdf", "form-filled-by-acrobat-3p.pdf"})
    void eachCorpusFormIsFilledAndFlattenedWithItsValuesReadableByOtherReaders(String name) throws Exception {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-text/" + name));
        Map<String, JsonNode> fields = byName(run(key, "form-fields", Map.of("file", id)).at("/output/data/fields"));
        Map<String, Object> values = new HashMap<>();
        String text = null;
        for (JsonNode f : fields.values()) {
            if (f.get("read_only").asBoolean()) continue;
            String fieldName = f.get("name").asString();
            switch (f.get("type").asString()) {
                case "text" -> {
                    if (text == null) text = fieldName;
                    values.put(fieldName, "Filled" + Math.abs(fieldName.hashCode() % 1000));
                }
                case "checkbox" -> values.put(fieldName, !f.get("value").asBoolean());
                case "radio", "combo", "list" -> {
                    List<String> options = strings(f.get("options"));
                    if (!options.isEmpty()) values.put(fieldName, options.getLast());
                }
                default -> { }
            }
        }
        assertThat(text).as("a text field").isNotNull();

        JsonNode filled = run(key, "fill-form", Map.of("file", id, "fields", values));
        Path out = downloadOutput(filled, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        Map<String, String> read = qpdfValues(out);
        for (Map.Entry<String, Object> e : values.entrySet()) {
            String expected = switch (e.getValue()) {
                case Boolean on -> on ? null : "/Off";
                case String s -> fields.get(e.getKey()).get("type").asString().equals("text") ? "u:" + s : null;
                default -> null;
            };
            if (expected != null) assertThat(read.get(e.getKey())).as(e.getKey()).isEqualTo(expected);
            if (Boolean.TRUE.equals(e.getValue())) assertThat(read.get(e.getKey())).as(e.getKey()).isNotEqualTo("/Off");
        }

        JsonNode flat = run(key, "fill-form", Map.of("file", id, "fields", values, "flatten", true));
        Path flattened = downloadOutput(flat, 0);
        assertThat(qpdfValues(flattened)).as("no field left").isEmpty();
        assertThat(Independent.pdftotext(flattened)).contains((String) values.get(text));
    }

    @Test
    void aPdfLatexCheckboxWhoseOnStateIsADictionaryFillsTickedAndFlattensWithItsMarkAndOneButtonCaption() throws Exception {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-text/pdflatex-forms.pdf"));
        // its /AP /N is << /Yes << >> >>: the on-state is a dictionary, not a stream
        JsonNode check = byName(run(key, "form-fields", Map.of("file", id)).at("/output/data/fields")).get("Check");
        assertThat(strings(check.get("options"))).containsExactly("Yes");
        assertThat(check.get("value").asBoolean()).isFalse();

        Path filled = downloadOutput(run(key, "fill-form", Map.of("file", id, "fields", Map.of("Check", true))), 0);
        JsonNode qpdf = qpdfField(filled, "Check");
        assertThat(qpdf.get("value").asString()).isEqualTo("/Yes");
        assertThat(qpdf.at("/annotation/appearancestate").asString()).isEqualTo("/Yes");
        String again = uploadId(key, filled);
        assertThat(byName(run(key, "form-fields", Map.of("file", again)).at("/output/data/fields")).get("Check").get("value").asBoolean())
                .as("form-fields reads the tick back").isTrue();
        Path unticked = downloadOutput(run(key, "fill-form", Map.of("file", again, "fields", Map.of("Check", false))), 0);
        assertThat(qpdfField(unticked, "Check").at("/annotation/appearancestate").asString()).isEqualTo("/Off");

        Path flat = downloadOutput(run(key, "fill-form", Map.of("file", id, "fields", Map.of("Check", true), "flatten", true)), 0);
        String page = Independent.pdftotext(flat);
        assertThat(page).as("ZapfDingbats' check mark drawn into the page").contains("\u2714");
        // pdfLaTeX typesets the push button's caption in the page and again in its appearance
        assertThat(page.split("Submit", -1)).as("one 'Submit'").hasSize(2);
        Path notTicked = downloadOutput(run(key, "fill-form", Map.of("file", id, "fields", Map.of("Name", "Ada"), "flatten", true)), 0);
        assertThat(Independent.pdftotext(notTicked)).doesNotContain("\u2714");
    }

    @Test
    void aTextBoxLowerThanItsFontSizeGetsAutoSizeSoTheWholeValueShowsInside() throws Exception {
        String key = newKey();
        // LibreOffice's 'First Name' box is 7.75 pt high and its /DA asks for 11 pt
        String id = uploadId(key, corpus("pdf-text/libreoffice-form.pdf"));
        JsonNode box = byName(run(key, "form-fields", Map.of("file", id)).at("/output/data/fields")).get("First Name");
        assertThat(box.at("/widgets/0/height").asDouble()).isLessThan(8);
        String value = "Alexandrina Victoria";
        JsonNode job = run(key, "fill-form", Map.of("file", id, "fields", Map.of("First Name", value), "flatten", true));
        assertThat(job.at("/output/note").asString()).contains("'First Name'", "auto");
        // pdftotext's word boxes (from the drawn font size) lie inside the field's box, top-left coordinates as form-fields'
        Independent.Run words = Independent.run("pdftotext", "-bbox", downloadOutput(job, 0).toString(), "-");
        double top = box.at("/widgets/0/y").asDouble(), bottom = top + box.at("/widgets/0/height").asDouble();
        double left = box.at("/widgets/0/x").asDouble(), right = left + box.at("/widgets/0/width").asDouble();
        int found = 0;
        for (String word : value.split(" ")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("xMin=\"([\\d.]+)\" yMin=\"([\\d.]+)\" xMax=\"([\\d.]+)\" yMax=\"([\\d.]+)\">"
                    + word + "</word>").matcher(words.output());
            assertThat(m.find()).as(word).isTrue();
            assertThat(Double.parseDouble(m.group(2))).as("%s top", word).isGreaterThanOrEqualTo(top - 0.5);
            assertThat(Double.parseDouble(m.group(4))).as("%s bottom", word).isLessThanOrEqualTo(bottom + 0.5);
            assertThat(Double.parseDouble(m.group(1))).isGreaterThanOrEqualTo(left);
            assertThat(Double.parseDouble(m.group(3))).as("%s right", word).isLessThanOrEqualTo(right);
            found++;
        }
        assertThat(found).isEqualTo(2);
    }

    @Test
    void anArabicValueIsShapedInAnEmbeddedFontAndKeptInLogicalOrder() throws Exception {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-text/pdflatex-forms.pdf"));
        JsonNode job = run(key, "fill-form", Map.of("file", id, "fields", Map.of("Name", "سلام Ada"), "flatten", true));
        // the fallback font is embedded as a subset of the glyphs drawn, and the note says which font
        assertThat(job.at("/output/files/0/size").asLong()).isLessThan(2 * java.nio.file.Files.size(corpus("pdf-text/pdflatex-forms.pdf")) + 100_000);
        assertThat(job.at("/output/note").asString()).contains("'Name'", "embedded");
        // drawn shaped (joined presentation forms, lam-alef ligature) in visual order; pdftotext reads the run back in
        // logical order, and compatibility normalisation (NFKC) turns the presentation forms into the letters typed
        String page = java.text.Normalizer.normalize(Independent.pdftotext(downloadOutput(job, 0)), java.text.Normalizer.Form.NFKC)
                .replaceAll("[\u202A-\u202E]", "");
        assertThat(page).contains("سلام", "Ada");
        JsonNode open = run(key, "fill-form", Map.of("file", id, "fields", Map.of("Name", "سلام Ada")));
        assertThat(qpdfValues(downloadOutput(open, 0)).get("Name")).as("the field's value stays the logical text").isEqualTo("u:سلام Ada");
    }

    @Test
    void anUnknownFieldOrAValueItsFieldDoesNotOfferIsRefusedNamingIt() {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-text/openoffice-form-objstm-pdf16.pdf"));
        Response unknown = post(key, "/fill-form", Map.of("file", id, "fields", Map.of("Shoe Size", "42")));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.code()).isEqualTo("invalid_request");
        assertThat(unknown.body().at("/error/message").asString()).contains("'Shoe Size'");
        Response offered = post(key, "/fill-form", Map.of("file", id, "fields", Map.of("Country Combo Box", "Atlantis")));
        assertThat(offered.status()).isEqualTo(400);
        assertThat(offered.body().at("/error/message").asString()).contains("'Country Combo Box'", "Malta");
        Response noForm = post(key, "/fill-form", Map.of("file", uploadId(key, corpus("pdf-text/two-column-paper-2p.pdf")), "fields", Map.of("a", "b")));
        assertThat(noForm.status()).isEqualTo(400);
        assertThat(noForm.code()).isEqualTo("invalid_file");
    }

    /** Each field's value as qpdf's JSON gives it ("u:text", "/Yes", "/Off"), by full name; the first widget's when repeated. */
    private static Map<String, String> qpdfValues(Path pdf) throws Exception {
        Independent.Run r = Independent.run("qpdf", "--json", "--json-key=acroform", pdf.toString());
        assertThat(r.exit()).as(r.output()).isIn(0, 3);
        String json = r.output().substring(r.output().indexOf('{'));
        Map<String, String> out = new HashMap<>();
        for (JsonNode f : JSON_READER.readTree(json).at("/acroform/fields")) {
            out.putIfAbsent(f.get("fullname").asString(), f.path("value").isNull() ? null : f.path("value").asString());
        }
        return out;
    }

    /** qpdf's JSON of one field (value, annotation appearance state), by full name. */
    private static JsonNode qpdfField(Path pdf, String name) throws Exception {
        Independent.Run r = Independent.run("qpdf", "--json", "--json-key=acroform", pdf.toString());
        for (JsonNode f : JSON_READER.readTree(r.output().substring(r.output().indexOf('{'))).at("/acroform/fields")) {
            if (f.get("fullname").asString().equals(name)) return f;
        }
        throw new AssertionError("qpdf finds no field " + name + " in " + pdf);
    }

    private static Map<String, JsonNode> byName(JsonNode fields) {
        Map<String, JsonNode> m = new java.util.LinkedHashMap<>();
        for (JsonNode f : fields) m.put(f.get("name").asString(), f);
        return m;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        if (array.isString()) return List.of(array.asString());
        for (JsonNode v : array) out.add(v.asString());
        return out;
    }
}
