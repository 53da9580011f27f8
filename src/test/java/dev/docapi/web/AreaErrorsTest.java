package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.ui.ExtendedModelMap;

/** What a page controller's unexpected failure becomes (the 400 and 404 cases run over HTTP in DeveloperAreaSecurityTest). */
class AreaErrorsTest {
    @Test
    void anUnexpectedFailureIsTheAreasPageWith500() throws Exception {
        var response = new MockHttpServletResponse();
        var model = new ExtendedModelMap();
        assertThat(new AreaErrors().error(new IllegalStateException("database gone"), response, model)).isEqualTo("area-error");
        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(model.get("status")).isEqualTo(500);
    }

    @Test
    void springSecuritysOwnAreLeftToItsFilters() {
        var denied = new AccessDeniedException("no");
        assertThatThrownBy(() -> new AreaErrors().error(denied, new MockHttpServletResponse(), new ExtendedModelMap())).isSameAs(denied);
    }
}
