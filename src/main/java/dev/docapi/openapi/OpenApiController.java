package dev.docapi.openapi;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ObjectNode;

/** {@code GET /v1/openapi.json} without a key (spec §4.2, §9): the OpenAPI 3.1 description. */
@RestController
public class OpenApiController {
    private final OpenApiDocument document;

    public OpenApiController(OpenApiDocument document) {
        this.document = document;
    }

    @GetMapping(path = "/v1/openapi.json", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ObjectNode> openapi() {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(document.build());
    }
}
