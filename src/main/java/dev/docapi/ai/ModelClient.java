package dev.docapi.ai;

import dev.docapi.contract.OperationFailure;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * One chat model, ready to call: the small seam between the AI operations and the provider library (DESIGN §2).
 * Requests and responses are LangChain4j's provider-neutral types (messages with text, PDF and image parts; a JSON
 * schema response format; tool specifications).
 */
public interface ModelClient {

    /** The model id, e.g. {@code openai/gpt-4.1-mini}. */
    String id();

    /** True when the model reads PDFs and images itself; false ({@code custom/}): send the document's text. */
    boolean readsPdf();

    /** True when this is the service's own model (AI operations are counted and capped, spec §8). */
    boolean serviceModel();

    /**
     * One model turn, with one retry on 429 or 5xx from the provider and the configured time limit.
     *
     * @throws OperationFailure a client-safe message naming what went wrong (key refused, provider unreachable, ...)
     */
    ChatResponse chat(ChatRequest request) throws OperationFailure;
}
