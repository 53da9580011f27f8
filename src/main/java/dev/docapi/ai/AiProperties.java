package dev.docapi.ai;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The operator's AI settings (README "AI operations and models"), read from {@code DOCAPI_*} variables.
 *
 * @param serviceModel        the service's own model id, e.g. {@code openai/gpt-4.1-mini} or {@code custom/llama3.1}
 *                            ({@code DOCAPI_SERVICE_MODEL}); empty: no service model (AI operations answer 503)
 * @param serviceModelKey     the provider key of the service model ({@code DOCAPI_SERVICE_MODEL_KEY})
 * @param serviceModelBaseUrl base URL for a {@code custom/} service model, any address, a local server included
 *                            ({@code DOCAPI_SERVICE_MODEL_BASE_URL})
 * @param extraction          model id for {@code extract} ({@code DOCAPI_SERVICE_MODEL_EXTRACTION}); empty: serviceModel
 * @param questions           model id for {@code ask} ({@code DOCAPI_SERVICE_MODEL_QUESTIONS})
 * @param agent               model id for {@code agent} ({@code DOCAPI_SERVICE_MODEL_AGENT})
 * @param editor              model id for the editor's AI edits ({@code DOCAPI_SERVICE_MODEL_EDITOR})
 * @param secret              operator secret that keys the encryption of account provider keys ({@code DOCAPI_SECRET});
 *                            empty: a generated secret kept in the database
 * @param timeoutSeconds      time limit of one model call ({@code DOCAPI_MODEL_TIMEOUT_SECONDS}, default 120)
 * @param openaiBaseUrl       OpenAI API base ({@code DOCAPI_OPENAI_BASE_URL}, default https://api.openai.com/v1)
 * @param anthropicBaseUrl    Anthropic API base ({@code DOCAPI_ANTHROPIC_BASE_URL}, default https://api.anthropic.com/v1)
 * @param googleBaseUrl       Gemini API base ({@code DOCAPI_GOOGLE_BASE_URL},
 *                            default https://generativelanguage.googleapis.com/v1beta)
 * @param openrouterBaseUrl   OpenRouter API base ({@code DOCAPI_OPENROUTER_BASE_URL}, default https://openrouter.ai/api/v1)
 */
@ConfigurationProperties("docapi.ai")
public record AiProperties(String serviceModel, String serviceModelKey, String serviceModelBaseUrl,
                           String extraction, String questions, String agent, String editor,
                           String secret, Integer timeoutSeconds,
                           String openaiBaseUrl, String anthropicBaseUrl, String googleBaseUrl, String openrouterBaseUrl) {

    /** The base URL of a hosted provider (never null; {@code custom/} has none). */
    public String baseUrl(Provider p) {
        String configured = switch (p) {
            case OPENAI -> openaiBaseUrl;
            case ANTHROPIC -> anthropicBaseUrl;
            case GOOGLE -> googleBaseUrl;
            case OPENROUTER -> openrouterBaseUrl;
            case CUSTOM -> null;
        };
        return blank(configured) ? p.defaultBaseUrl() : configured.replaceAll("/+$", "");
    }

    public int timeout() {
        return timeoutSeconds == null || timeoutSeconds <= 0 ? 120 : timeoutSeconds;
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
