package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.core.ApiException;
import dev.docapi.config.DocapiProperties;
import dev.docapi.config.PublicBaseUrl;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.PageRange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Try it's form made from an operation's declaration, and its curl commands run by a real shell with hostile values. */
class TryItFormTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final OperationForm FORM = new OperationForm(JSON);

    private static <O extends Record> Operation<O> declared(OperationSpec<O> spec) {
        return new Operation<>() {
            @Override
            public OperationSpec<O> spec() {
                return spec;
            }

            @Override
            public OperationResult run(OperationContext<O> ctx) {
                throw new UnsupportedOperationException("only its declaration is read");
            }
        };
    }

    private record RotateLike(int angle, List<Integer> pages, Double targetMb, List<PageRange> ranges, String goal, String password) {
    }

    private record MergeLike(String text, String password) {
    }

    private static final Operation<?> ROTATE_LIKE = declared(OperationSpec.of("rotate", "rotate_pdf", "Rotates.").options(OptionSchema.of(RotateLike.class,
            OptionField.integer("angle").oneOf(90, 180, 270).required(),
            OptionField.integers("pages", 1).maxItems(5),
            OptionField.number("target_mb").min(0.05).max(500).description("Target size"),
            OptionField.ranges("ranges"),
            OptionField.string("goal").maxLength(4000),
            OptionField.string("password").maxLength(127).secret())));

    @Test
    void controlsComeFromTheDeclaredSchema() {
        var controls = FORM.controls(ROTATE_LIKE);
        assertThat(controls).extracting(OperationForm.Control::kind).containsExactly("select", "pages", "number", "json", "textarea", "password");
        assertThat(controls.getFirst().choices()).containsExactly("90", "180", "270");
        assertThat(controls.getFirst().required()).isTrue();
        assertThat(controls.get(2).help()).isEqualTo("Target size. From 0.05 to 500.");
        assertThat(controls.get(2).min()).isEqualTo(0.05);
        assertThat(controls.get(1).help()).as("no word of JSON arrays on the form")
                .isEqualTo("Page numbers separated by commas; a range such as 5-7 names each page in it.");
    }

    @Test
    void formValuesBecomeTheApisJsonMembers() {
        var body = FORM.body(ROTATE_LIKE, List.of("file_a"), Map.of("angle", "90", "pages", "1, 3-4", "target_mb", "1.5",
                "ranges", "[[1,2]]", "goal", "", "password", "s3cret"));
        assertThat(body.toString()).isEqualTo("{\"file\":\"file_a\",\"angle\":90,\"pages\":[1,3,4],\"target_mb\":1.5,\"ranges\":[[1,2]],\"password\":\"s3cret\"}");
        assertThat(FORM.body(ROTATE_LIKE, List.of("file_a"), Map.of("target_mb", "big")).get("target_mb").asString())
                .as("left to the operation's check, which names the type").isEqualTo("big");
    }

    @Test
    void whatCannotBecomeJsonIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> FORM.body(ROTATE_LIKE, List.of("file_a"), Map.of("pages", "1, two")))
                .isInstanceOf(ApiException.class).hasMessageContaining("'pages'").hasMessageContaining("'two' is not one");
        assertThatThrownBy(() -> FORM.body(ROTATE_LIKE, List.of("file_a"), Map.of("pages", "1-9")))
                .isInstanceOf(ApiException.class).hasMessage("'pages' names more than 5 pages");
        assertThatThrownBy(() -> FORM.body(ROTATE_LIKE, List.of("file_a"), Map.of("pages", "1-2000000000000")))
                .as("no expansion of a huge range").isInstanceOf(ApiException.class).hasMessage("'pages' names more than 5 pages");
        assertThatThrownBy(() -> FORM.body(ROTATE_LIKE, List.of("file_a"), Map.of("ranges", "[[1,2]")))
                .isInstanceOf(ApiException.class).hasMessage("'ranges' is not valid JSON");
        assertThatThrownBy(() -> FORM.body(ROTATE_LIKE, List.of("file_a", "file_b"), Map.of()))
                .isInstanceOf(ApiException.class).hasMessage("rotate takes one file: upload one or pick one, not 2");
    }

    @Test
    void theCurlCommandsPassHostileNamesAndValuesThroughTheShellUnchanged() throws Exception {
        Operation<?> merge = declared(OperationSpec.of("merge", "merge_pdfs", "Merges.").inputs(Inputs.many(2, 50, dev.docapi.core.FileKind.PDF))
                .options(OptionSchema.of(MergeLike.class, OptionField.string("text"), OptionField.string("password").secret())));
        PublicBaseUrl base = new PublicBaseUrl(new DocapiProperties(8080, Path.of("."), null, null, null, "https://docs.example/v1/", 1, false,
                Duration.ofSeconds(1), 0, 0, null));
        String hostileName = "it's; a \"report\", $(touch pwned).pdf";
        String hostileText = "$(touch pwned) `id` 'quoted' \\ \"x\" ü";
        var options = JSON.createObjectNode().put("text", hostileText);
        String script = new CurlCommands(base, JSON).of(merge, List.of(new CurlCommands.Input("file_a", hostileName),
                new CurlCommands.Input("file_b", "b.pdf")), options);
        assertThat(script).contains("$DOCAPI_KEY").doesNotContain("s3cret");

        // curl replaced by a function printing its arguments, one per NUL-terminated record
        ProcessBuilder shell = new ProcessBuilder("bash", "-c", "curl() { printf '%s\\0' \"$@\"; }\n" + script);
        shell.environment().put("DOCAPI_KEY", "dk_test_key");
        shell.environment().put("PASSWORD", "pa$s w'rd");
        Process p = shell.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        List<String> args = List.of(out.split("\0"));
        assertThat(args).contains("Authorization: Bearer dk_test_key", "https://docs.example/v1/files", "https://docs.example/v1/merge",
                "file=@\"it's; a \\\"report\\\", $(touch pwned).pdf\"", "file=@b.pdf");
        String data = args.get(args.indexOf("-d") + 1);
        assertThat(JSON.readTree(data)).isEqualTo(JSON.createObjectNode().<tools.jackson.databind.node.ObjectNode>set("files",
                JSON.createArrayNode().add("file_a").add("file_b")).put("text", hostileText).put("password", "pa$s w'rd"));
    }
}
