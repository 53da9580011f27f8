package dev.docapi.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.api.ApiException;
import dev.docapi.api.ErrorCode;
import java.util.List;
import java.util.Map;
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
    private static final OptionSchema SCHEMA = OptionSchema.of(
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
        assertThat((Map<String, Object>) props.get("pages")).containsEntry("type", List.of("array", "null"));
        assertThat((Map<String, Object>) props.get("target_mb")).containsEntry("minimum", 0.01).containsEntry("maximum", 100);
        assertThat(SCHEMA.required()).containsExactly("angle");
    }

    @Test
    void aDeclarationsRequestMembersAreItsInputThenItsOptions() {
        OperationSpec spec = OperationSpec.of("t", "t_tool", "Test.").inputs(Inputs.many(2, 5, FileKind.PDF)).options(SCHEMA);
        assertThat(spec.requestProperties(Map.of("type", "array")).keySet()).containsExactly("files", "angle", "pages", "ranges", "password", "target_mb");
        assertThat(spec.requiredMembers()).containsExactly("files", "angle");
        assertThatThrownBy(() -> new OperationSpec("t", "t", "Test.", null, OptionSchema.none(), java.util.Set.of()))
                .hasMessageContaining("inputs are not declared");
    }
}
