package dev.docapi.operations.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentModel.Box;
import dev.docapi.document.DocumentModel.Cell;
import dev.docapi.document.DocumentModel.Element;
import dev.docapi.document.DocumentModel.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * The chunking rules (issue 36 item 3) on a model built by hand, so each rule has a case that breaks it: tokens are
 * counted as words here, which makes every limit exact.
 */
class ChunkerTest {
    private static final ToIntFunction<String> WORDS = t -> t.isBlank() ? 0 : t.strip().split("\\s+").length;

    private final List<Element> page1 = new ArrayList<>();
    private final List<Element> page2 = new ArrayList<>();
    private int index;

    private Element add(List<Element> page, Type type, Integer level, String text, DocumentModel.Table table) {
        Element e = new Element(index++, type, level, type == Type.LIST_ITEM ? 1 : null, type == Type.LIST_ITEM ? "•" : null, text,
                page == page1 ? 1 : 2, new Box(72, 72 + 20 * index, 400, 18), 10, false, table, null, null, null);
        page.add(e);
        return e;
    }

    /** Five words, numbered: "Sentence 3 has five words." */
    private static String sentences(int from, int count) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < from + count; i++) out.add("Sentence " + i + " has five words.");
        return String.join(" ", out);
    }

    /** A report: a title, an intro, 1 Results › 1.1 Sales with a long paragraph and a 13-row table, 2 Outlook. */
    private DocumentModel report() {
        add(page1, Type.PAGE_HEADER, null, "ACME confidential", null);
        add(page1, Type.TITLE, null, "Annual Report", null);
        add(page1, Type.PARAGRAPH, null, "The year in brief.", null);
        add(page1, Type.PARAGRAPH, null, "Read on.", null);
        add(page1, Type.HEADING, 1, "1 Results", null);
        add(page1, Type.HEADING, 2, "1.1 Sales", null);
        add(page1, Type.PARAGRAPH, null, sentences(1, 6).replace(" Sentence 4", "\nSentence 4"), null);
        List<List<Cell>> rows = new ArrayList<>();
        rows.add(List.of(new Cell("Region", 1, 1), new Cell("Units", 1, 1), new Cell("Revenue", 1, 1)));
        for (int r = 1; r <= 12; r++) rows.add(List.of(new Cell("North" + r, 1, 1), new Cell(String.valueOf(r * 10), 1, 1), new Cell("$" + r, 1, 1)));
        DocumentModel.Table table = new DocumentModel.Table(3, true, rows);
        add(page1, Type.TABLE, null, String.join("\n", table.grid().stream().map(r -> String.join("\t", r)).toList()), table);
        add(page1, Type.PAGE_NUMBER, null, "1", null);
        add(page2, Type.HEADING, 1, "2 Outlook", null);
        add(page2, Type.LIST_ITEM, 1, "More stores.", null);
        add(page2, Type.LIST_ITEM, 1, "Fewer costs.", null);
        return new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, page1),
                new DocumentModel.Page(2, 612, 792, false, page2)), List.of());
    }

    @Test
    void chunksStayUnderTheirHeadingAndWithinMaxTokens() {
        List<Chunker.Chunk> chunks = Chunker.chunks(report(), WORDS, 16, 0);
        for (Chunker.Chunk c : chunks) {
            assertThat(c.tokens()).as(c.text()).isEqualTo(WORDS.applyAsInt(c.text())).isLessThanOrEqualTo(16);
            assertThat(c.text()).doesNotContain("ACME", "1 Results", "2 Outlook");
        }
        // small neighbours under one heading merge; the heading is the path, not the text
        assertThat(chunks.getFirst().text()).isEqualTo("The year in brief.\n\nRead on.");
        assertThat(chunks.getFirst().headingPath()).containsExactly("Annual Report");
        assertThat(chunks.getFirst().pages()).containsExactly(1);
        assertThat(chunks.getFirst().boxes()).hasSize(2);
        // 30 words of sentences under 1.1 Sales: cut between sentences, a paragraph's line break read as a space
        List<Chunker.Chunk> sales = chunks.stream().filter(c -> c.text().startsWith("Sentence")).toList();
        assertThat(sales).extracting(Chunker.Chunk::text).containsExactly(sentences(1, 3), sentences(4, 3));
        assertThat(sales).allSatisfy(c -> assertThat(c.headingPath()).containsExactly("Annual Report", "1 Results", "1.1 Sales"));
        // the last chunk: the list, under 2 Outlook on page 2
        assertThat(chunks.getLast().text()).isEqualTo("• More stores.\n• Fewer costs.");
        assertThat(chunks.getLast().headingPath()).containsExactly("Annual Report", "2 Outlook");
        assertThat(chunks.getLast().pages()).containsExactly(2);
    }

    @Test
    void aLargeTableIsCutBetweenRowsEachPartWithItsHeader() {
        List<Chunker.Chunk> chunks = Chunker.chunks(report(), WORDS, 16, 0);
        List<Chunker.Chunk> parts = chunks.stream().filter(c -> c.text().startsWith("Region")).toList();
        assertThat(parts).hasSizeGreaterThan(1);
        List<String> rows = new ArrayList<>();
        for (Chunker.Chunk part : parts) {
            List<String> lines = part.text().lines().toList();
            assertThat(lines.getFirst()).isEqualTo("Region\tUnits\tRevenue");
            assertThat(lines.size()).isGreaterThan(1);
            rows.addAll(lines.subList(1, lines.size()));
        }
        // every row once, whole, in order
        List<String> expected = new ArrayList<>();
        for (int r = 1; r <= 12; r++) expected.add("North" + r + "\t" + r * 10 + "\t$" + r);
        assertThat(rows).isEqualTo(expected);
    }

    /** A merged row head stands in every row it covers, so each part of a table cut between rows says whose rows they are. */
    @Test
    void aMergedRowHeadStandsInEveryRowOfEachPart() {
        List<List<Cell>> rows = new ArrayList<>();
        rows.add(List.of(new Cell("Region", 1, 1), new Cell("Store", 1, 1), new Cell("Units", 1, 1)));
        rows.add(List.of(new Cell("North", 8, 1), new Cell("Store1", 1, 1), new Cell("10", 1, 1)));
        for (int r = 2; r <= 8; r++) rows.add(List.of(new Cell("Store" + r, 1, 1), new Cell(String.valueOf(r * 10), 1, 1)));
        DocumentModel.Table table = new DocumentModel.Table(3, true, rows);
        add(page1, Type.HEADING, 1, "Sales", null);
        add(page1, Type.TABLE, null, String.join("\n", table.grid().stream().map(r -> String.join("\t", r)).toList()), table);
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, page1)), List.of());
        List<Chunker.Chunk> parts = Chunker.chunks(model, WORDS, 12, 0).stream().filter(c -> c.text().startsWith("Region")).toList();
        assertThat(parts).hasSizeGreaterThan(1);
        List<String> body = new ArrayList<>();
        for (Chunker.Chunk part : parts) body.addAll(part.text().lines().skip(1).toList());
        List<String> expected = new ArrayList<>();
        for (int r = 1; r <= 8; r++) expected.add("North\tStore" + r + "\t" + r * 10);
        assertThat(body).isEqualTo(expected);
    }

    @Test
    void aTableThatFitsIsOneChunk() {
        List<Chunker.Chunk> chunks = Chunker.chunks(report(), WORDS, 64, 0);
        assertThat(chunks).filteredOn(c -> c.text().contains("North1\t")).singleElement()
                .satisfies(c -> assertThat(c.text()).contains("Region\tUnits\tRevenue", "North12\t120\t$12"));
    }

    @Test
    void overlapRepeatsWholeSentencesFromTheChunkBeforeUnderTheSameHeading() {
        List<Chunker.Chunk> chunks = Chunker.chunks(report(), WORDS, 16, 6);
        List<Chunker.Chunk> sales = chunks.stream().filter(c -> c.text().startsWith("Sentence")).toList();
        // each later chunk starts with the last sentence (5 words <= 6) of the one before
        assertThat(sales).extracting(Chunker.Chunk::text).containsExactly(sentences(1, 3), sentences(3, 3), sentences(5, 2));
        // never across a heading: the list under 2 Outlook starts afresh, and a table part repeats its header instead
        assertThat(chunks.getLast().text()).startsWith("• More stores.");
        assertThat(chunks).filteredOn(c -> c.text().contains("North")).allSatisfy(c -> assertThat(c.text()).startsWith("Region"));
        assertThat(chunks).allSatisfy(c -> assertThat(c.tokens()).isLessThanOrEqualTo(16));
    }

    /** A sentence a page break cuts into two paragraphs is one sentence: no chunk ends between its parts. */
    @Test
    void aSentenceCutByAPageBreakIsNotCutIntoTwoChunks() {
        add(page1, Type.HEADING, 1, "Minutes", null);
        add(page1, Type.PARAGRAPH, null, "The board met on Monday. It decided to", null);
        add(page1, Type.PAGE_NUMBER, null, "1", null);
        add(page2, Type.PAGE_HEADER, null, "ACME confidential", null);
        add(page2, Type.PARAGRAPH, null, "postpone the vote until the spring. Members agreed.", null);
        List<Chunker.Chunk> chunks = Chunker.chunks(twoPages(), WORDS, 10, 0);
        assertThat(chunks).extracting(Chunker.Chunk::text)
                .containsExactly("The board met on Monday.", "It decided to postpone the vote until the spring.", "Members agreed.");
        assertThat(chunks.get(1).pages()).containsExactly(1, 2);
        assertThat(chunks.get(1).boxes()).extracting(Chunker.Box::page).containsExactly(1, 2);
        assertThat(chunks.get(1).headingPath()).containsExactly("Minutes");
    }

    /** Two paragraphs a page apart are two sentences when the first one ends one, or the second starts with a capital. */
    @Test
    void paragraphsAPageApartStayApartWhenASentenceEndsBetweenThem() {
        add(page1, Type.PARAGRAPH, null, "The board met and decided (unanimously.)", null);
        add(page2, Type.PARAGRAPH, null, "postpone was the outcome of it all.", null);
        assertThat(Chunker.chunks(twoPages(), WORDS, 8, 0)).extracting(Chunker.Chunk::text)
                .containsExactly("The board met and decided (unanimously.)", "postpone was the outcome of it all.");
        page1.clear();
        page2.clear();
        add(page1, Type.PARAGRAPH, null, "Three members of the board were absent", null);
        add(page2, Type.PARAGRAPH, null, "Budget review follows in the next meeting.", null);
        assertThat(Chunker.chunks(twoPages(), WORDS, 8, 0)).extracting(Chunker.Chunk::text)
                .containsExactly("Three members of the board were absent", "Budget review follows in the next meeting.");
    }

    private DocumentModel twoPages() {
        return new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, page1),
                new DocumentModel.Page(2, 612, 792, false, page2)), List.of());
    }

    @Test
    void aSentenceLongerThanMaxTokensIsAChunkOfItsOwnUncut() {
        String longSentence = "This one sentence runs on for far more words than the limit of the chunk allows here.";
        add(page1, Type.HEADING, 1, "Long", null);
        add(page1, Type.PARAGRAPH, null, "Short one. " + longSentence + " Short two.", null);
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, page1)), List.of());
        List<Chunker.Chunk> chunks = Chunker.chunks(model, WORDS, 8, 0);
        assertThat(chunks).extracting(Chunker.Chunk::text).containsExactly("Short one.", longSentence, "Short two.");
        assertThat(chunks.get(1).tokens()).isGreaterThan(8);
    }

    /** A code listing is cut between its lines, never inside one, and keeps them and their indentation (issue 36). */
    @Test
    void aCodeListingIsCutBetweenItsLines() {
        add(page1, Type.HEADING, 1, "Example", null);
        String listing = "RETURN CASE\n    WHEN GROUP ( USER , 'HR' ) = 1\n    THEN EMPLOYEES . DATE_OF_BIRTH\n    ELSE NULL\nEND ENABLE ;";
        add(page1, Type.CODE, null, listing, null);
        DocumentModel model = new DocumentModel(DocumentModel.VERSION, List.of(new DocumentModel.Page(1, 612, 792, false, page1)), List.of());
        List<String> chunks = Chunker.chunks(model, WORDS, 9, 0).stream().map(Chunker.Chunk::text).toList();
        assertThat(String.join("\n", chunks)).isEqualTo(listing);
        assertThat(chunks).hasSizeGreaterThan(1).allSatisfy(c -> assertThat(listing.lines().toList()).containsAll(c.lines().toList()));
    }
}
