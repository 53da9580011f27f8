package dev.docapi.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.contract.OperationFailure;
import dev.docapi.core.ErrorCode;
import dev.docapi.engines.EngineFailure;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 14 item 3: each kind of engine failure becomes the spec's error code (§7), its message unchanged. */
class EngineFailureMappingTest {

    @ParameterizedTest
    @CsvSource({
            "INVALID_INPUT, INVALID_FILE",
            "PASSWORD_NEEDED, INVALID_FILE",
            "ENGINE_MISSING, SERVICE_UNAVAILABLE",
            "TIMEOUT, INTERNAL_ERROR",
            "BOUND_EXCEEDED, INTERNAL_ERROR",
            "FAILED, INTERNAL_ERROR"})
    void eachKindHasItsErrorCode(EngineFailure.Kind kind, ErrorCode code) {
        EngineFailure engine = new EngineFailure(kind, "qpdf failed: damaged.pdf: unable to find trailer dictionary");
        OperationFailure failure = OperationService.failure(engine);
        assertThat(failure.code()).isEqualTo(code);
        assertThat(failure.getMessage()).isEqualTo(engine.getMessage());
        assertThat(failure.getCause()).isSameAs(engine);
    }
}
