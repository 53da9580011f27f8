package dev.docapi.api;

import dev.docapi.accounts.Account;
import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.Pipeline;
import dev.docapi.http.Authenticated;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /v1/models} (spec §2.5, DESIGN §4): the list envelope of
 * {@code {object:"model", id, provider, source:"service"|"account", reads_pdf}} and {@code pipelines}: the model id
 * each pipeline uses for this account when a request names none (null: no model available). Keys are never shown.
 */
@RestController
public class ModelsController {
    private final ModelCatalog catalog;
    private final Views views;

    public ModelsController(ModelCatalog catalog, Views views) {
        this.catalog = catalog;
        this.views = views;
    }

    @GetMapping("/v1/models")
    ObjectNode models(HttpServletRequest request) {
        Account account = Authenticated.account(request);
        List<ObjectNode> items = new ArrayList<>();
        ObjectNode empty = views.list(List.of());
        for (ModelCatalog.Entry e : catalog.list(account)) {
            items.add(empty.objectNode().put("object", "model").put("id", e.id()).put("provider", e.provider().prefix())
                    .put("source", e.source()).put("reads_pdf", e.readsPdf()));
        }
        ObjectNode body = views.list(items.stream().map(n -> (JsonNode) n).toList());
        ObjectNode pipelines = body.putObject("pipelines");
        catalog.pipelines(account).forEach((p, id) -> pipelines.put(p.id(), id));
        for (Pipeline p : Pipeline.values()) if (!pipelines.has(p.id())) pipelines.putNull(p.id());
        return body;
    }
}
