package dev.docapi.operations.chunk;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.core.ApiException;
import dev.docapi.core.FileKind;
import dev.docapi.core.J;
import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentReader;
import dev.docapi.operations.Inputs;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import java.nio.file.Files;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /chunk} (an addition beyond the spec, issue 36 item 3): a PDF's {@link DocumentModel} cut into chunks
 * for retrieval pipelines ({@link Chunker}: under one heading each, never cutting a sentence or a table row, a cut
 * table repeating its header row). {@code output.data} is {@code {object: "list", data: [chunk]}}, each chunk
 * {@code {text, heading_path, pages, boxes: [{page, x, y, width, height}], tokens}} (boxes in points from the page's
 * top-left, as the model's), also written as {@code <name>-chunks.json}. Tokens are counted with OpenAI's
 * {@code cl100k_base} encoding (jtokkit), the one of the {@code text-embedding-3} models; other tokenizers count
 * within some percent of it. Scans are read through the kept OCR, as for convert to md.
 */
@Component
public class ChunkOperation implements Operation<ChunkOperation.ChunkOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record ChunkOptions(int maxTokens, int overlap) {
    }

    static final int MIN_TOKENS = 64;
    static final int MAX_TOKENS = 8192;
    private static final OptionSchema<ChunkOptions> OPTIONS = OptionSchema.of(ChunkOptions.class,
            OptionField.integer("max_tokens").min(MIN_TOKENS).max(MAX_TOKENS).defaultValue(512)
                    .description("The most tokens (OpenAI's cl100k_base) a chunk has; a single sentence or table row over it "
                            + "is a chunk of its own"),
            OptionField.integer("overlap").min(0).max(MAX_TOKENS / 2).defaultValue(0)
                    .description("The most tokens of whole sentences a chunk repeats from the end of the one before under the "
                            + "same heading; at most half of max_tokens"));
    private static final OperationSpec<ChunkOptions> SPEC = OperationSpec.of("chunk", "chunk_document",
            "Cut a PDF into chunks for retrieval (addition): each under one heading, with its heading path, pages, boxes "
            + "and token count, never cutting a sentence or a table row. Returns output.data {object: list, data: "
            + "[{text, heading_path, pages, boxes, tokens}]} and a .json file.")
            .inputs(Inputs.one(FileKind.PDF))
            .options(OPTIONS)
            .traits(OperationSpec.Trait.DATA_ONLY_OUTPUT)
            .outputs(OutputMember.DATA, OutputMember.NOTE)
            .deadline(OperationSpec.OCR_DEADLINE);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Loaded on first use: reading the encoding's ranks takes a moment. */
    private static final class Tokenizer {
        static final Encoding CL100K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    }

    private final DocumentReader reader;

    public ChunkOperation(DocumentReader reader) {
        this.reader = reader;
    }

    @Override
    public OperationSpec<ChunkOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<ChunkOptions> ctx) {
        ChunkOptions o = ctx.options();
        if (o.overlap() > o.maxTokens() / 2) {
            throw ApiException.invalid("'overlap' must be at most half of 'max_tokens' (" + o.maxTokens() / 2 + "), got " + o.overlap());
        }
    }

    @Override
    public OperationResult run(OperationContext<ChunkOptions> ctx) throws Exception {
        DocumentModel model = reader.read(ctx.input(), ctx);
        List<Chunker.Chunk> chunks = Chunker.chunks(model, Tokenizer.CL100K::countTokensOrdinary, ctx.options().maxTokens(), ctx.options().overlap());
        JsonNode data = JSON.valueToTree(J.o("object", "list", "data", chunks));
        Files.writeString(ctx.output("chunks", "json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(data));
        long over = chunks.stream().filter(c -> c.tokens() > ctx.options().maxTokens()).count();
        return OperationResult.empty().withData(data)
                .withNote(over == 0 ? null : over + " chunk(s) are over max_tokens: each is one sentence or table row too long to cut.");
    }
}
