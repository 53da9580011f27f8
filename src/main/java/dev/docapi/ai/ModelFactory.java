package dev.docapi.ai;

import dev.docapi.core.ErrorCode;
import dev.docapi.net.SafeHttpClient;
import dev.docapi.contract.OperationFailure;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.googleai.GoogleAiGeminiChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Builds {@link ModelClient}s over LangChain4j: OpenAI chat completions for {@code openai/}, {@code openrouter/} and
 * {@code custom/}; Anthropic messages; Gemini generateContent. Library retries are off: {@link #chat} retries once
 * itself on 429 or 5xx, so the behaviour is the same for every provider.
 */
@Component
public class ModelFactory {
    private static final Logger log = LoggerFactory.getLogger(ModelFactory.class);
    private final AiProperties props;
    private final SafeHttpClient safe;
    private final OkHttpClient open;

    public ModelFactory(AiProperties props, SafeHttpClient safe) {
        this.props = props;
        this.safe = safe;
        this.open = new OkHttpClient.Builder().followRedirects(false).retryOnConnectionFailure(false).build();
    }

    /**
     * A client for {@code id} with {@code key}. {@code baseUrl} is only for {@code custom/}; {@code accountEndpoint}
     * routes the calls through the SSRF-safe client (an account's own {@code custom/} base URL).
     */
    public ModelClient create(ModelId id, String key, String baseUrl, boolean serviceModel, boolean accountEndpoint) {
        OkHttpModelTransport transport = new OkHttpModelTransport(accountEndpoint ? safe.client() : open);
        Duration timeout = Duration.ofSeconds(props.timeout());
        String url = id.provider() == Provider.CUSTOM ? stripSlash(baseUrl) : props.baseUrl(id.provider());
        String apiKey = key == null || key.isBlank() ? "none" : key;
        ChatModel model = switch (id.provider()) {
            case OPENAI, OPENROUTER, CUSTOM -> OpenAiChatModel.builder()
                    .httpClientBuilder(transport).baseUrl(url).apiKey(apiKey).modelName(id.name())
                    .timeout(timeout).maxRetries(0).supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA)
                    .build();
            case ANTHROPIC -> AnthropicChatModel.builder()
                    .httpClientBuilder(transport).baseUrl(url).apiKey(apiKey).modelName(id.name())
                    .maxTokens(8192).timeout(timeout).maxRetries(0).supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA)
                    .build();
            case GOOGLE -> GoogleAiGeminiChatModel.builder()
                    .httpClientBuilder(transport).baseUrl(url).apiKey(apiKey).modelName(id.name())
                    .timeout(timeout).maxRetries(0).supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA)
                    .build();
        };
        return new Client(id, model, serviceModel);
    }

    private static String stripSlash(String url) {
        return url == null ? null : url.replaceAll("/+$", "");
    }

    private record Client(ModelId modelId, ChatModel model, boolean serviceModel) implements ModelClient {

        @Override
        public String id() {
            return modelId.id();
        }

        @Override
        public boolean readsPdf() {
            return modelId.provider().readsPdf();
        }

        @Override
        public ChatResponse chat(ChatRequest request) throws OperationFailure {
            try {
                return model.chat(request);
            } catch (RuntimeException first) {
                if (!retriable(first)) throw failure(first);
                log.info("model {} answered {}; retrying once", id(), first.getClass().getSimpleName());
                try {
                    Thread.sleep(1000);
                    return model.chat(request);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw failure(first);
                } catch (RuntimeException second) {
                    throw failure(second);
                }
            }
        }

        private static boolean retriable(RuntimeException e) {
            if (e instanceof RateLimitException || e instanceof InternalServerException) return true;
            HttpException http = httpCause(e);
            return http != null && (http.statusCode() == 429 || http.statusCode() >= 500);
        }

        private static HttpException httpCause(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof HttpException h) return h;
            return null;
        }

        private OperationFailure failure(RuntimeException e) {
            log.warn("model {} failed: {}", id(), e.toString());
            String who = "the model provider (" + id() + ")";
            HttpException http = httpCause(e);
            int status = http == null ? -1 : http.statusCode();
            if (e instanceof AuthenticationException || status == 401 || status == 403) {
                return new OperationFailure(ErrorCode.INTERNAL_ERROR, who + " refused the API key", null);
            }
            if (e instanceof ModelNotFoundException || status == 404) {
                return new OperationFailure(ErrorCode.INTERNAL_ERROR, who + " does not know this model", null);
            }
            if (e instanceof RateLimitException || status == 429) {
                return new OperationFailure(ErrorCode.SERVICE_UNAVAILABLE, who + " is rate-limiting requests; retry later", null);
            }
            if (e instanceof InternalServerException || status >= 500) {
                return new OperationFailure(ErrorCode.SERVICE_UNAVAILABLE, who + " failed (HTTP " + (status > 0 ? status : "5xx") + "); retry later", null);
            }
            if (e instanceof TimeoutException || cause(e, java.io.InterruptedIOException.class) != null) {
                return new OperationFailure(ErrorCode.SERVICE_UNAVAILABLE, who + " did not answer in time", null);
            }
            if (cause(e, java.io.IOException.class) != null) {
                SafeHttpClient.RefusedAddressException refused = cause(e, SafeHttpClient.RefusedAddressException.class);
                return new OperationFailure(ErrorCode.SERVICE_UNAVAILABLE, who + " could not be reached" + (refused != null ? ": " + refused.getMessage() : ""), null);
            }
            if (e instanceof InvalidRequestException || status == 400) {
                return new OperationFailure(ErrorCode.INTERNAL_ERROR, who + " rejected the request: " + brief(e.getMessage()), null);
            }
            return new OperationFailure(ErrorCode.INTERNAL_ERROR, who + " returned an answer docapi could not use", null);
        }

        private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
            for (Throwable t = e; t != null; t = t.getCause()) if (type.isInstance(t)) return type.cast(t);
            return null;
        }

        private static String brief(String s) {
            if (s == null) return "no reason given";
            return s.length() > 300 ? s.substring(0, 300) + "..." : s;
        }
    }
}
