package dev.docapi.api;

import dev.docapi.config.PublicBaseUrl;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1} without a key: what this service is and where its description lives (DESIGN §4). */
@RestController
public class ServiceController {
    private final PublicBaseUrl baseUrl;

    public ServiceController(PublicBaseUrl baseUrl) {
        this.baseUrl = baseUrl;
    }

    @GetMapping({"/v1", "/v1/"})
    Map<String, Object> service() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "service");
        body.put("name", "docapi");
        body.put("version", "1.0.0");
        body.put("openapi_url", baseUrl.get() + "/openapi.json");
        return body;
    }
}
