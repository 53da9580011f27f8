package dev.docapi.operations.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.TablePdf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /chunk} (an addition, issue 36 item 3) on a real paper and a generated table: chunks follow the
 * paper's headings and stay within max_tokens; a table too large for one chunk is cut between rows, each part with
 * the header row; overlap repeats whole sentences; the bounds are refused at validation, also as a workflow step.
 * The rules case by case are {@link ChunkerTest}'s.
 */
class ChunkTest extends ApiTestBase {
    private static final Path PAPER = corpus("pdf-text/two-column-paper-2p.pdf");

    private JsonNode chunk(String key, String file, Map<String, Object> options) {
        Map<String, Object> body = new java.util.HashMap<>(options);
        body.put("file", file);
        JsonNode job = run(key, "chunk", body);
        assertThat(job.at("/status").asString()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.at("/output/data/object").asString()).isEqualTo("list");
        return job;
    }

    private static List<String> path(JsonNode chunk) {
        return chunk.get("heading_path").values().stream().map(JsonNode::asString).toList();
    }

    @Test
    void thePapersChunksFollowItsHeadingsWithinMaxTokens() throws Exception {
        String key = newKey();
        String file = uploadId(key, PAPER);
        JsonNode job = chunk(key, file, Map.of("max_tokens", 128));
        JsonNode chunks = job.at("/output/data/data");
        assertThat(chunks.size()).isGreaterThan(5);
        for (JsonNode c : chunks) {
            assertThat(c.get("tokens").asInt()).as(c.toString()).isBetween(1, 128);
            assertThat(c.get("pages").values()).allSatisfy(p -> assertThat(p.asInt()).isBetween(1, 2));
            for (JsonNode b : c.get("boxes")) {
                assertThat(b.get("page").asInt()).isIn(c.get("pages").values().stream().map(JsonNode::asInt).toList());
                assertThat(b.get("x").asDouble() + b.get("width").asDouble()).isLessThanOrEqualTo(612.5);
                assertThat(b.get("y").asDouble() + b.get("height").asDouble()).isLessThanOrEqualTo(792.5);
            }
        }
        // the abstract's first sentence stands whole in a chunk under "Abstract", below the paper's title; the
        // introduction's chunks are under "1 Introduction"
        JsonNode abstractChunk = chunks.values().stream().filter(c -> c.get("text").asString().replaceAll("\\s+", " ")
                .contains("Open-domain question answering relies on efficient passage retrieval to select candidate contexts")).findFirst().orElseThrow();
        assertThat(path(abstractChunk)).hasSize(2).last().isEqualTo("Abstract");
        assertThat(path(abstractChunk).getFirst()).contains("Dense Passage Retrieval");
        assertThat(chunks.values()).anySatisfy(c -> assertThat(path(c)).hasSize(2).last().isEqualTo("1 Introduction"));
        // the .json file holds output.data
        assertThat(JSON.readTree(Files.readString(downloadOutput(job, 0)))).isEqualTo(job.at("/output/data"));
        assertThat(job.at("/output/files/0/name").asString()).isEqualTo("two-column-paper-2p-chunks.json");

        // overlap: a chunk cut from the one before under the same heading starts with that one's last sentence(s)
        JsonNode overlapping = chunk(key, file, Map.of("max_tokens", 128, "overlap", 48)).at("/output/data/data");
        int repeated = 0;
        for (int i = 1; i < overlapping.size(); i++) {
            JsonNode before = overlapping.get(i - 1), c = overlapping.get(i);
            if (!before.get("heading_path").equals(c.get("heading_path"))) continue;
            String text = c.get("text").asString(), previous = before.get("text").asString();
            int end = text.indexOf(". ");
            if (end > 0 && previous.endsWith(text.substring(0, end + 1))) repeated++;
        }
        assertThat(repeated).isPositive();
        assertThat(overlapping.values()).allSatisfy(c -> assertThat(c.get("tokens").asInt()).isLessThanOrEqualTo(128));
    }

    /**
     * A sentence the paper's column break cuts into two paragraphs ("More specifically, we assume" at the foot of the
     * left column, "the extractive QA setting, ..." atop the right one) stands whole in one chunk at every size.
     */
    @Test
    void aSentenceCutByTheColumnBreakStandsWholeInOneChunk() {
        String key = newKey();
        String file = uploadId(key, PAPER);
        for (int maxTokens : List.of(64, 72, 128, 256)) {
            JsonNode chunks = chunk(key, file, Map.of("max_tokens", maxTokens)).at("/output/data/data");
            assertThat(chunks.values()).as("max_tokens %d", maxTokens).anySatisfy(c -> assertThat(c.get("text").asString().replaceAll("\\s+", " "))
                    .contains("More specifically, we assume the extractive QA setting"));
        }
    }

    @Test
    void aTableTooLargeIsCutBetweenRowsEachPartWithTheHeaderRow() throws Exception {
        String[][] cells = new String[25][];
        cells[0] = new String[] {"Team", "Cups", "Last won"};
        for (int r = 1; r < cells.length; r++) cells[r] = new String[] {"Team number " + r, String.valueOf(r * 3), String.valueOf(1900 + r)};
        Path pdf = Files.createTempDirectory(DATA_DIR, "table-").resolve("teams.pdf");
        try (PDDocument doc = new PDDocument()) {
            TablePdf.ruledTable(doc, cells);
            doc.save(pdf.toFile());
        }
        String key = newKey();
        JsonNode chunks = chunk(key, uploadId(key, pdf), Map.of("max_tokens", 64)).at("/output/data/data");
        assertThat(chunks.size()).as(chunks.toString()).isGreaterThan(1);
        List<String> rows = new ArrayList<>();
        for (JsonNode c : chunks) {
            List<String> lines = c.get("text").asString().lines().toList();
            assertThat(lines.getFirst()).as(c.toString()).isEqualTo("Team\tCups\tLast won");
            rows.addAll(lines.subList(1, lines.size()));
            assertThat(c.get("tokens").asInt()).isLessThanOrEqualTo(64);
        }
        List<String> expected = new ArrayList<>();
        for (int r = 1; r < cells.length; r++) expected.add(String.join("\t", cells[r]));
        assertThat(rows).isEqualTo(expected);
    }

    @Test
    void boundsAreRefusedBeforeAnyJobAlsoInAWorkflow() {
        String key = newKey();
        String file = uploadId(key, corpus("pdf-text/rotated-page-90.pdf"));
        record Case(Map<String, Object> options, String says) {
        }
        for (Case c : List.of(new Case(Map.of("max_tokens", 63), "max_tokens"), new Case(Map.of("max_tokens", 8193), "max_tokens"),
                new Case(Map.of("overlap", -1), "overlap"), new Case(Map.of("max_tokens", 128, "overlap", 65), "half of 'max_tokens' (64)"),
                new Case(Map.of("overlap", 257), "half of 'max_tokens' (256)"))) {
            Map<String, Object> body = new java.util.HashMap<>(c.options());
            body.put("file", file);
            Response r = post(key, "/chunk", body);
            assertThat(r.status()).as(c.toString()).isEqualTo(400);
            assertThat(r.code()).isEqualTo("invalid_request");
            assertThat(r.body().at("/error/message").asString()).contains(c.says());
        }
        Response step = post(key, "/workflows/run", Map.of("file", file, "steps", List.of(Map.of("operation", "chunk", "options", Map.of("max_tokens", 10)))));
        assertThat(step.status()).isEqualTo(400);
        assertThat(step.body().at("/error/message").asString()).contains("max_tokens");
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }
}
