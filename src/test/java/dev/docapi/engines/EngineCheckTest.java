package dev.docapi.engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import org.junit.jupiter.api.Test;

class EngineCheckTest {

    @Test
    void aMissingEngineAnswersServiceUnavailableNamingIt() {
        EngineCheck check = new EngineCheck();
        assertThatThrownBy(() -> check.require("qpdf", "docapi-no-such-engine"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
                    assertThat(e.code().status()).isEqualTo(503);
                    assertThat(e.getMessage()).contains("docapi-no-such-engine");
                });
    }

    @Test
    void installedEnginesArePresent() {
        EngineCheck check = new EngineCheck();
        assertThat(check.isPresent("qpdf")).isTrue();
        assertThat(check.isPresent("gs")).isTrue();
        check.require("ocrmypdf", "tesseract", "pdftotext", "pdftoppm");
    }
}
