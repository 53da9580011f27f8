package dev.docapi.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.contract.OperationResult;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.FileKind;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Option validation and its JSON Schema without a service (issue 14: fast unit tests): the same declaration refuses
 * what it describes as out of bounds, and ranges follow spec §4.4 (pages from 1, from ≤ to).
 */
class OptionSchemaTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    record TestOptions(int angle, List<Integer> pages, List<PageRange> ranges, String password, Double targetMb) {
    }

    private static final OptionSchema<TestOptions> SCHEMA = OptionSchema.of(TestOptions.class,
            OptionField.integer("angle").oneOf(90, 180, 270).required(),
            OptionField.integers("pages", 1),
            OptionField.ranges("ranges"),
            OptionField.string("password").maxLength(4).secret(),
            OptionField.number("target_mb").min(0.01).max(100));

    private static ObjectNode body(String json) {
        return (ObjectNode) JSON.readTree(json);
    }

    private static String refusal(String json) {
        try {
            SCHEMA.validate(body(json), "test");
        } catch (ApiException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
            return e.getMessage();
        }
        return null;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "{}                                              | 'angle' is required for test",
            "{\"angle\":45}                                  | 'angle' must be one of [90, 180, 270]",
            "{\"angle\":90.5}                                | 'angle' must be an integer",
            "{\"angle\":99999999999999999999}                | 'angle' must be at most 2147483647",
            "{\"angle\":90,\"pages\":[0]}                    | 'pages' must contain integers >= 1",
            "{\"angle\":90,\"pages\":[1.5]}                  | 'pages' must contain only integers",
            "{\"angle\":90,\"pages\":3}                      | 'pages' must be an array of integers",
            "{\"angle\":90,\"ranges\":[[3,2]]}               | 'ranges' has a range whose from is after its to: [3,2]",
            "{\"angle\":90,\"ranges\":[[0,2]]}               | 'ranges' page numbers count from 1",
            "{\"angle\":90,\"ranges\":[[1,2,3]]}             | 'ranges' must contain [from, to] pairs of integers",
            "{\"angle\":90,\"ranges\":[[1,3000000000]]}      | 'ranges' has a page number above 2147483647",
            "{\"angle\":90,\"password\":\"12345\"}           | 'password' must be at most 4 characters",
            "{\"angle\":90,\"target_mb\":0}                  | 'target_mb' must be at least 0.01",
            "{\"angle\":90,\"colour\":\"red\"}               | unknown option 'colour' for test; its options are [angle, pages, ranges, password, target_mb]"})
    void wrongOptionsAreRefusedNamingTheOption(String json, String message) {
        assertThat(refusal(json)).isEqualTo(message);
    }

    @Test
    void validOptionsPassAndEmptyOrNullSelectorsAreLeftOut() {
        ObjectNode options = SCHEMA.validate(body("{\"file\":\"file_x\",\"wait\":0,\"angle\":270,\"pages\":[],\"ranges\":null,"
                + "\"password\":\"\u0627\u0628\u062c\u062f\",\"target_mb\":2.5}"), "test");
        assertThat(options.propertyNames()).containsExactly("angle", "password", "target_mb");
        assertThat(SCHEMA.redact(options).propertyNames()).containsExactly("angle", "target_mb");
        assertThat(refusal("{\"angle\":90,\"ranges\":[[2,2],[1,5]],\"pages\":[1,1,7]}")).isNull();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSchemaDescribesTheBoundsTheValidatorEnforces() {
        Map<String, Object> props = SCHEMA.properties();
        assertThat(props.get("angle")).isEqualTo(Map.of("type", "integer", "enum", List.of(90, 180, 270)));
        // not nullable (a stock resttemplate client would send JsonNullable's fields): [] and null still mean "left out"
        assertThat((Map<String, Object>) props.get("pages")).containsEntry("type", "array");
        assertThat((String) ((Map<String, Object>) props.get("pages")).get("description")).endsWith("An empty array is the same as leaving it out.");
        assertThat((Map<String, Object>) props.get("target_mb")).containsEntry("minimum", 0.01).containsEntry("maximum", 100);
        assertThat(SCHEMA.required()).containsExactly("angle");
    }

    @Test
    void aDeclarationsRequestMembersAreItsInputThenItsOptions() {
        OperationSpec<TestOptions> spec = OperationSpec.of("t", "t_tool", "Test.").inputs(Inputs.many(2, 5, FileKind.PDF)).options(SCHEMA);
        assertThat(spec.requestProperties(Map.of("type", "array")).keySet()).containsExactly("files", "angle", "pages", "ranges", "password", "target_mb");
        assertThat(spec.requiredMembers()).containsExactly("files", "angle");
        assertThatThrownBy(() -> new OperationSpec<>("t", "t", "Test.", null, OptionSchema.none(), Set.of(), Set.of(), null))
                .hasMessageContaining("inputs are not declared");
    }

    @Test
    void validatedOptionsAreReadAsTheRecordWithDefaultsAndEmptyLists() {
        TestOptions given = SCHEMA.bind(SCHEMA.validate(body("{\"angle\":180.0,\"pages\":[3,1],\"ranges\":[[2,4]],\"password\":\"pw\","
                + "\"target_mb\":2}"), "test"));
        assertThat(given).isEqualTo(new TestOptions(180, List.of(3, 1), List.of(new PageRange(2, 4)), "pw", 2.0));
        TestOptions left = SCHEMA.bind(SCHEMA.validate(body("{\"angle\":90,\"pages\":[]}"), "test"));
        assertThat(left).isEqualTo(new TestOptions(90, List.of(), List.of(), null, null));

        record Defaults(int every, String level, boolean flag, tools.jackson.databind.JsonNode unused) {
        }
        assertThat(OptionSchema.of(Defaults.class, OptionField.integer("every").defaultValue(1), OptionField.string("level").defaultValue("ebook"),
                OptionField.bool("flag"), OptionField.custom("unused", Map.of("type", "object"), v -> null)).bind(JSON.createObjectNode()))
                .isEqualTo(new Defaults(1, "ebook", false, null));
    }

    record Angle(int angle) {
    }

    record AngleAndPages(int angle, List<Integer> pages) {
    }

    record AngleAsText(String angle) {
    }

    @Test
    void anOptionAndItsRecordComponentCannotDrift() {
        assertThatThrownBy(() -> OptionSchema.of(Angle.class, OptionField.integer("angle").required(), OptionField.integers("pages", 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has no component 'pages' for option 'pages'");
        assertThatThrownBy(() -> OptionSchema.of(AngleAndPages.class, OptionField.integer("angle").required()))
                .hasMessageContaining("AngleAndPages.pages is not declared as an option");
        assertThatThrownBy(() -> OptionSchema.of(AngleAsText.class, OptionField.integer("angle").required()))
                .hasMessageContaining("AngleAsText.angle (option 'angle') must be one of [int, java.lang.Integer], not java.lang.String");
        assertThatThrownBy(() -> OptionSchema.of(Angle.class, OptionField.integer("angle")))
                .hasMessageContaining("is optional without a default, so it must not be a primitive");
        assertThatThrownBy(() -> OptionSchema.of(AngleAndPages.class, OptionField.integer("angle").required(), OptionField.ranges("pages")))
                .hasMessageContaining("must be one of [java.util.List<dev.docapi.operations.PageRange>], not java.util.List<java.lang.Integer>");
    }

    @Test
    void anOperationReturnsOnlyTheOutputMembersItDeclares() {
        OperationSpec<NoOptions> noteOnly = OperationSpec.of("t", "t_tool", "Test.").outputs(OutputMember.NOTE);
        assertThat(noteOnly.outputs()).containsExactly(OutputMember.FILES, OutputMember.NOTE);
        noteOnly.checkOutput(OperationResult.ofNote("done"));
        assertThatThrownBy(() -> noteOnly.checkOutput(OperationResult.ofText("words")))
                .isInstanceOf(IllegalStateException.class).hasMessage("t returned output.text, which it does not declare");
        assertThat(OperationSpec.of("t", "t_tool", "Test.").outputs()).containsExactly(OutputMember.FILES);
    }

    enum Colour {
        DARK_RED, LIGHT_BLUE;

        @com.fasterxml.jackson.annotation.JsonValue
        String id() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    record Box(int page, double width, String label) {
    }

    record Shapes(Colour colour, Box box, List<Box> boxes, List<Colour> colours, String code) {
    }

    private static final OptionSchema<Box> BOX = OptionSchema.of(Box.class,
            OptionField.integer("page").min(1).required(),
            OptionField.number("width").above(0).max(100).required(),
            OptionField.string("label").maxLength(3));
    private static final OptionSchema<Shapes> SHAPES = OptionSchema.of(Shapes.class,
            OptionField.choice("colour", Colour.class).defaultValue(Colour.LIGHT_BLUE),
            OptionField.object("box", BOX),
            OptionField.array("boxes", OptionField.object("boxes", BOX)).maxItems(2),
            OptionField.array("colours", OptionField.choice("colours", Colour.DARK_RED)),
            OptionField.string("code").pattern("^[a-z]+$", "must be lower-case letters"));

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "{\"colour\":\"green\"}                              | 'colour' must be one of [dark-red, light-blue]",
            "{\"colour\":\"DARK_RED\"}                           | 'colour' must be one of [dark-red, light-blue]",
            "{\"colour\":1}                                    | 'colour' must be a string",
            "{\"box\":[]}                                      | 'box' must be an object {page, width, label?}",
            "{\"box\":{\"width\":1}}                             | 'box.page' is required",
            "{\"box\":{\"page\":1,\"width\":0}}                  | 'box.width' must be more than 0",
            "{\"box\":{\"page\":1,\"width\":1,\"colour\":2}}     | 'box' has an unknown member 'colour'; its members are [page, width, label]",
            "{\"boxes\":[{\"page\":1,\"width\":1},{\"page\":0,\"width\":1}]} | 'boxes[1].page' must be at least 1",
            "{\"boxes\":[{},{},{}]}                            | 'boxes' must have at most 2 items",
            "{\"boxes\":{}}                                    | 'boxes' must be an array",
            "{\"colours\":[\"light-blue\"]}                      | 'colours[0]' must be one of [dark-red]",
            "{\"code\":\"abc\\n\"}                               | 'code' must be lower-case letters",
    })
    void fixedShapesAndClosedSetsAreCheckedFromTheirDeclaration(String json, String message) {
        try {
            SHAPES.validate(body(json), "test");
        } catch (ApiException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
            assertThat(e.getMessage()).isEqualTo(message);
            return;
        }
        throw new AssertionError("accepted " + json);
    }

    @Test
    void fixedShapesAndClosedSetsAreReadAsRecordsAndEnumsAndDescribedAsJsonSchema() {
        Shapes read = SHAPES.bind(SHAPES.validate(body("{\"colour\":\"dark-red\",\"box\":{\"page\":2,\"width\":1.5,\"label\":null},"
                + "\"boxes\":[{\"page\":1,\"width\":100,\"label\":\"a\"}],\"colours\":[\"dark-red\"],\"code\":\"ok\"}"), "test"));
        assertThat(read).isEqualTo(new Shapes(Colour.DARK_RED, new Box(2, 1.5, null), List.of(new Box(1, 100, "a")), List.of(Colour.DARK_RED), "ok"));
        assertThat(SHAPES.bind(SHAPES.validate(body("{}"), "test"))).isEqualTo(new Shapes(Colour.LIGHT_BLUE, null, List.of(), List.of(), null));

        Map<String, Object> props = SHAPES.properties();
        assertThat(JSON.valueToTree(props.get("colour")).toString())
                .isEqualTo("{\"type\":\"string\",\"enum\":[\"dark-red\",\"light-blue\"],\"default\":\"light-blue\",\"description\":\"" + OptionField.MAY_BE_OMITTED + "\"}");
        assertThat(JSON.valueToTree(props.get("box")).toString()).isEqualTo("{\"type\":\"object\",\"required\":[\"page\",\"width\"],\"properties\":{"
                + "\"page\":{\"type\":\"integer\",\"minimum\":1},\"width\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":100},"
                + "\"label\":{\"type\":\"string\",\"maxLength\":3}},\"additionalProperties\":false}");
        assertThat(JSON.valueToTree(props.get("boxes")).at("/items").toString()).isEqualTo(JSON.valueToTree(props.get("box")).toString());
        assertThat(JSON.valueToTree(props.get("code")).at("/pattern").asString()).isEqualTo("^[a-z]+$");
        assertThatThrownBy(() -> OptionSchema.of(Shapes.class, OptionField.string("colour"), OptionField.object("box", BOX),
                OptionField.array("boxes", OptionField.object("boxes", BOX)), OptionField.array("colours", OptionField.choice("colours", Colour.class)),
                OptionField.string("code")))
                .hasMessageContaining("Shapes.colour (option 'colour') must be one of [java.lang.String], not dev.docapi.operations.OptionSchemaTest$Colour");
    }
}
