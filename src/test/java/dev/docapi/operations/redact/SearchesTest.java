package dev.docapi.operations.redact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The presets' checks and the bounds of matching (issue 27), without the service. */
class SearchesTest {
    private static final long LATER = System.nanoTime() + 60_000_000_000L;

    private static List<String> found(String preset, String text) {
        Searches s = Searches.of(List.of(), List.of(), List.of(Searches.Preset.valueOf(preset.toUpperCase(Locale.ROOT))), false);
        return s.find(text, LATER).matches().stream().map(m -> text.substring(m.start(), m.end())).toList();
    }

    @Test
    void presetsFindWhatTheirChecksumsAcceptAndLeaveDatesAndIdentifiers() {
        assertThat(found("iban", "pay DE89 3704 0044 0532 0130 00 or GB82WEST12345698765432, not DE89 3704 0044 0532 0130 01"))
                .containsExactly("DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432");
        assertThat(found("credit_card", "card 4111 1111 1111 1111, not 4111 1111 1111 1112")).containsExactly("4111 1111 1111 1111");
        assertThat(found("phone", "call +44 20 7946 0958 or 030 1234 5678; arXiv:2004.04906v3 of 2020-10-02, 30 Sep 2020"))
                .containsExactly("+44 20 7946 0958", "030 1234 5678");
        assertThat(found("email", "{vladk, scottyih}@fb.com sewon@cs.washington.edu")).containsExactly("sewon@cs.washington.edu");
        assertThat(found("ip_address", "host 192.168.10.254 version 1.2.3.4.5")).containsExactly("192.168.10.254");
    }

    @Test
    void aTextMatchesAcrossLineBreaksAndABadPatternIsNamed() {
        Searches s = Searches.of(List.of("Ada  Lovelace"), List.of(), List.of(), true);
        assertThat(s.find("to ada\nlovelace.", LATER).matches()).containsExactly(new Searches.Match(3, 15));
        assertThatThrownBy(() -> Searches.of(List.of(), List.of("ok", "(a"), List.of(), false))
                .hasMessageContaining("'patterns' item 2");
    }

    @Test
    void aLetterSpacedWordMatchesButNotLettersOfNeighbouringWords() {
        Searches s = Searches.of(List.of("Secret", "in"), List.of(), List.of(), true);
        Searches.Found found = s.find("the S E C R E T code; hi not", LATER);
        assertThat(found.matches()).containsExactly(new Searches.Match(4, 15));
        assertThat(s.find("top secret", LATER).matches()).containsExactly(new Searches.Match(4, 10));
        assertThat(s.find("i n", LATER).matches()).containsExactly(new Searches.Match(0, 3));
    }

    @Test
    void aWordDrawnInPiecesMatchesItsTextButNotPiecesOfOtherWords() {
        Searches s = Searches.of(List.of("SECRET"), List.of(), List.of(), false);
        assertThat(s.find("a SEC RET plan", LATER).matches()).containsExactly(new Searches.Match(2, 9));
        assertThat(s.find("a SECRET plan", LATER).matches()).containsExactly(new Searches.Match(2, 8));
        assertThat(s.find("BISEC RETAIN", LATER).matches()).isEmpty();
    }

    @Test
    void patternsAndPresetsMatchLetterSpacedTextClosedUpAtItsOriginalPlace() {
        String text = "mail o p s @ x y . o r g today";
        assertThat(found("email", text)).containsExactly("o p s @ x y . o r g");
        Searches s = Searches.of(List.of(), List.of("\\bSEC\\w+\\b"), List.of(), false);
        assertThat(s.find("the S E C R E T code", LATER).matches()).containsExactly(new Searches.Match(4, 15));
        assertThat(s.find("the SECRET code", LATER).matches()).containsExactly(new Searches.Match(4, 10));
        assertThat(s.find("the S\nE\nC\nR\nE\nT code", LATER).matches()).as("letters set far apart, a line each").containsExactly(new Searches.Match(4, 15));
        assertThat(found("phone", "1\n2\n3\n4\n5\n6\n7\n8\n9\n0")).as("a column of digits").isEmpty();
    }

    @Test
    void aBacktrackingPatternStopsAtItsDeadline() {
        Searches s = Searches.of(List.of(), List.of("(?s)(.*a){20}#"), List.of(), false);
        long start = System.nanoTime();
        Searches.Found found = s.find("a".repeat(300), start + 200_000_000L);
        assertThat(found.tooSlow()).isEqualTo("pattern '(?s)(.*a){20}#'");
    }
}
