package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.ai.ModelCatalog;
import dev.docapi.ai.Pipeline;
import dev.docapi.ai.PipelineModels;
import dev.docapi.ai.Provider;
import dev.docapi.ai.ProviderKeys;
import java.security.Principal;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Provider keys (spec §1, §2.5): add one (checked with the provider and sealed, as {@code admin add-provider-key}
 * does), list them (the key itself is never shown), delete; the models and pipelines {@code GET /v1/models} shows,
 * and the model each pipeline uses when a request names none, chosen among those models.
 */
@Controller
class ProvidersPageController {
    private final ProviderKeys keys;
    private final ModelCatalog catalog;
    private final PipelineModels choices;
    private final CurrentAccount current;

    ProvidersPageController(ProviderKeys keys, ModelCatalog catalog, PipelineModels choices, CurrentAccount current) {
        this.keys = keys;
        this.choices = choices;
        this.catalog = catalog;
        this.current = current;
    }

    @GetMapping("/providers")
    String providers(Principal principal, Model model) {
        Account a = current.of(principal);
        model.addAttribute("entries", keys.list(a.id()));
        model.addAttribute("models", catalog.list(a));
        model.addAttribute("pipelines", catalog.pipelines(a));
        model.addAttribute("chosen", choices.chosen(a.id()));
        return "providers";
    }

    /** One select per pipeline: a model id of the account's list, or empty for the service's default. */
    @PostMapping("/providers/pipelines")
    String choose(Principal principal, @RequestParam Map<String, String> form, Model model) {
        Map<Pipeline, String> models = new EnumMap<>(Pipeline.class);
        for (Pipeline p : Pipeline.values()) {
            String id = form.getOrDefault(p.id(), "").strip();
            models.put(p, id.isEmpty() ? null : id);
        }
        try {
            catalog.choose(current.of(principal), models);
            model.addAttribute("message", "Pipeline models saved: requests without a model use them.");
        } catch (IllegalArgumentException refused) {
            model.addAttribute("problem", refused.getMessage());
        }
        return providers(principal, model);
    }

    @PostMapping("/providers")
    String add(Principal principal, @RequestParam String provider, @RequestParam String key,
               @RequestParam(name = "base_url", defaultValue = "") String baseUrl, Model model) {
        try {
            var entry = keys.add(current.of(principal).id(), provider.strip(), key, baseUrl.isBlank() ? null : baseUrl.strip());
            model.addAttribute("message", "The key for " + entry.modelId().id() + " was accepted by the provider and is stored encrypted.");
        } catch (IllegalArgumentException refused) {
            // the CLI's wording names its flags; the message never echoes the key
            model.addAttribute("problem", refused.getMessage().replace("--provider", "provider").replace("--base-url", "base URL").replace("--key", "key"));
        }
        return providers(principal, model);
    }

    @PostMapping("/providers/{provider}/delete")
    String delete(Principal principal, @PathVariable String provider) {
        Provider p = Provider.ofPrefix(provider);
        if (p == null || !keys.delete(current.of(principal).id(), p)) throw CurrentAccount.notFound();
        return "redirect:/providers?deleted";
    }
}
