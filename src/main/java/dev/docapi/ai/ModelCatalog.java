package dev.docapi.ai;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.UsageService;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Service;

/**
 * Which models an account may use (spec §2.5, {@code GET /v1/models}) and which one an AI operation runs on.
 * <ul>
 * <li>a request naming {@code model}: the account's own key for that provider if it has one, else the service's
 * model when the id is one the operator configured, else 400;</li>
 * <li>no {@code model}: the model the account chose for the pipeline ({@link PipelineModels}, the developer area's
 * provider keys page) while it is still in its list; else the pipeline's service model; without one, the account's
 * oldest key; without that, 503 {@code service_unavailable} saying how to configure a model.</li>
 * </ul>
 * On the service's own model the AI cap ({@link dev.docapi.limits.QuotaPolicy#aiOperations}: 20 a month free, 1,000
 * paid, spec §8) is checked here, at validation: the limits admission counts operations, not which model ran.
 */
@Service
public class ModelCatalog {
    static final String NOT_CONFIGURED = "no language model is configured: the operator sets DOCAPI_SERVICE_MODEL (e.g. openai/gpt-4.1-mini "
            + "with DOCAPI_SERVICE_MODEL_KEY, or custom/<model> with DOCAPI_SERVICE_MODEL_BASE_URL for a local OpenAI-compatible server "
            + "such as Ollama), or the account adds its own provider key (bin/docapi admin add-provider-key)";

    private final AiProperties props;
    private final ProviderKeys keys;
    private final ModelFactory factory;
    private final UsageService usage;
    private final dev.docapi.limits.QuotaPolicy quotas;
    private final PipelineModels choices;

    public ModelCatalog(AiProperties props, ProviderKeys keys, ModelFactory factory, UsageService usage,
                        dev.docapi.limits.QuotaPolicy quotas, PipelineModels choices) {
        this.props = props;
        this.choices = choices;
        this.keys = keys;
        this.factory = factory;
        this.usage = usage;
        this.quotas = quotas;
    }

    /** One entry of {@code GET /v1/models}. */
    public record Entry(String id, Provider provider, String source, boolean readsPdf) {
    }

    /** The service's model id for {@code p} (its override, else DOCAPI_SERVICE_MODEL), or null when none. */
    public String serviceModel(Pipeline p) {
        String override = switch (p) {
            case EXTRACTION -> props.extraction();
            case QUESTIONS -> props.questions();
            case AGENT -> props.agent();
            case EDITOR -> props.editor();
        };
        if (!AiProperties.blank(override)) return override.strip();
        return AiProperties.blank(props.serviceModel()) ? null : props.serviceModel().strip();
    }

    /** The service's models (base and per-pipeline overrides) then the account's, without duplicates. */
    public List<Entry> list(Account account) {
        List<Entry> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        List<String> service = new ArrayList<>();
        if (!AiProperties.blank(props.serviceModel())) service.add(props.serviceModel().strip());
        for (Pipeline p : Pipeline.values()) if (serviceModel(p) != null) service.add(serviceModel(p));
        for (String id : service) {
            ModelId m = tryParse(id);
            if (m != null && seen.add("service:" + m.id())) out.add(new Entry(m.id(), m.provider(), "service", m.provider().readsPdf()));
        }
        for (ProviderKeys.Entry e : keys.list(account.id())) {
            out.add(new Entry(e.modelId().id(), e.provider(), "account", e.provider().readsPdf()));
        }
        return out;
    }

    /** The model id each pipeline uses for this account when a request names none (null: none available). */
    public Map<Pipeline, String> pipelines(Account account) {
        Map<Pipeline, String> out = new EnumMap<>(Pipeline.class);
        Map<Pipeline, String> chosen = available(account);
        List<ProviderKeys.Entry> own = null;
        for (Pipeline p : Pipeline.values()) {
            String id = chosen.containsKey(p) ? chosen.get(p) : serviceModel(p);
            if (id == null) {
                if (own == null) own = keys.list(account.id());
                id = own.isEmpty() ? null : own.getFirst().modelId().id();
            }
            out.put(p, id);
        }
        return out;
    }

    /**
     * Stores the account's model for each pipeline given, all or none.
     *
     * @param models per pipeline, one of the ids {@link #list} gives the account, or null for the service's default
     * @throws IllegalArgumentException if a model is not in the account's list
     */
    public void choose(Account account, Map<Pipeline, String> models) {
        Set<String> listed = new HashSet<>();
        for (Entry e : list(account)) listed.add(e.id());
        models.forEach((p, model) -> {
            if (model != null && !listed.contains(model)) {
                throw new IllegalArgumentException("model '" + model + "' is not one of the models this account can use (pipeline " + p.id() + ")");
            }
        });
        models.forEach((p, model) -> choices.choose(account.id(), p, model));
    }

    /** The account's choices still in its list (a choice whose provider key was deleted since is ignored). */
    private Map<Pipeline, String> available(Account account) {
        Map<Pipeline, String> chosen = choices.chosen(account.id());
        if (chosen.isEmpty()) return chosen;
        Set<String> listed = new HashSet<>();
        for (Entry e : list(account)) listed.add(e.id());
        chosen.values().retainAll(listed);
        return chosen;
    }

    /**
     * The model an AI operation runs on, checked at validation.
     *
     * @param requested the request's {@code model}, or null
     * @throws ApiException 400 {@code invalid_request} (unknown or unavailable model), 503 {@code service_unavailable}
     *                      (nothing configured), 402 {@code quota_exceeded} (AI operations of the service model spent)
     */
    public ModelClient resolve(Account account, Pipeline pipeline, String requested) {
        if (requested == null) requested = available(account).get(pipeline);
        if (requested != null) {
            ModelId id;
            try {
                id = ModelId.parse(requested);
            } catch (IllegalArgumentException e) {
                throw ApiException.invalid("'model' " + e.getMessage());
            }
            var own = keys.open(account.id(), id.provider());
            if (own.isPresent()) return account(id, own.get());
            if (isServiceModel(id.id())) return service(id.id());
            throw ApiException.invalid("model '" + requested + "' is not available to this account: GET /v1/models lists the models it can use"
                    + " (an account adds its own with a provider key for '" + id.provider().prefix() + "')");
        }
        String service = serviceModel(pipeline);
        if (service != null) return service(service);
        List<ProviderKeys.Entry> own = keys.list(account.id());
        if (!own.isEmpty()) {
            ProviderKeys.Entry first = own.getFirst();
            return account(first.modelId(), keys.open(account.id(), first.provider()).orElseThrow());
        }
        throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, NOT_CONFIGURED);
    }

    /**
     * Refuses a run on the service's own model when the account's AI operations for the month are spent.
     *
     * @throws ApiException 402 {@code quota_exceeded}
     */
    public void checkAiQuota(Account account, ModelClient client) {
        if (!client.serviceModel()) return;
        int limit = quotas.aiOperations(account);
        int used = usage.current(account.id())[1];
        if (used >= limit) {
            throw new ApiException(ErrorCode.QUOTA_EXCEEDED, "this month's " + limit + " AI operations on the service's model are used; "
                    + "they renew on the 1st (UTC), or add your own provider key (no AI cap)");
        }
    }

    private boolean isServiceModel(String id) {
        if (!AiProperties.blank(props.serviceModel()) && props.serviceModel().strip().equals(id)) return true;
        for (Pipeline p : Pipeline.values()) if (id.equals(serviceModel(p))) return true;
        return false;
    }

    private ModelClient service(String id) {
        ModelId m = tryParse(id);
        if (m == null) {
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "the service's model '" + id + "' is not a valid model id; " + NOT_CONFIGURED);
        }
        if (m.provider() == Provider.CUSTOM && AiProperties.blank(props.serviceModelBaseUrl())) {
            throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "the service's model is custom/ but DOCAPI_SERVICE_MODEL_BASE_URL is not set");
        }
        return factory.create(m, props.serviceModelKey(), props.serviceModelBaseUrl(), true, false);
    }

    private ModelClient account(ModelId id, ProviderKeys.Opened key) {
        if (id.provider() == Provider.CUSTOM) {
            try {
                keys.checkCustomBaseUrl(key.entry().baseUrl());
            } catch (IllegalArgumentException e) {
                throw ApiException.invalid("the account's custom model endpoint is refused: " + e.getMessage().replace("--base-url ", ""));
            }
        }
        return factory.create(id, key.key(), key.entry().baseUrl(), false, id.provider() == Provider.CUSTOM);
    }

    private static ModelId tryParse(String id) {
        try {
            return ModelId.parse(id);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
