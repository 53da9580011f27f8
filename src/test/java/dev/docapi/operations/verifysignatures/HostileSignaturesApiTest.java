package dev.docapi.operations.verifysignatures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.engines.dss.HostileSignatures;
import dev.docapi.support.ApiTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Hostile signature files through the API (issue 40): refused at validation when the bounded scan finds them (400
 * {@code invalid_file}, before any job), else a failed job of DSS's sandboxed child JVM (a 5xx code, as for every job
 * that ran, and a message that says the file could not be read and why); either way in our words, with no Java class
 * or method name.
 */
class HostileSignaturesApiTest extends ApiTestBase {
    private static final String LIBRARY_TEXT = "(?s).*(\\b(java|javax|eu|org)\\.[a-z]+\\.|Exception|Error\\b|Cannot invoke|\\.get[A-Z]).*";

    @Test
    void aCmsOfSixtyThousandNestedSequencesIsRefusedBeforeAnyJob() throws Exception {
        String key = newKey();
        Path dir = Files.createTempDirectory(DATA_DIR, "nested-");
        String pdf = uploadId(key, HostileSignatures.signed(dir.resolve("nested.pdf"), 1, true, HostileSignatures.nested(60_000)));
        Response r = post(key, "/verify-signatures", Map.of("file", pdf));
        assertThat(r.status()).as("%s", r).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_file");
        assertThat(r.body().at("/error/message").asString()).contains("signature 1's data (its CMS) nests more than 256 structures")
                .doesNotMatch(LIBRARY_TEXT);
        assertThat(get(key, "/jobs").body().get("data").size()).isZero();
    }

    @Test
    void moreSignaturesThanTheLimitAreRefusedNamingIt() throws Exception {
        String key = newKey();
        Path dir = Files.createTempDirectory(DATA_DIR, "many-");
        String pdf = uploadId(key, HostileSignatures.signed(dir.resolve("many.pdf"), 51, true, HostileSignatures.realCms()));
        Response r = post(key, "/verify-signatures", Map.of("file", pdf));
        assertThat(r.status()).as("%s", r).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_file");
        assertThat(r.body().at("/error/message").asString()).endsWith("has more than 50 signatures; the limit is 50 per PDF (DOCAPI_MAX_SIGNATURES)");
    }

    /** Two dictionaries with one byte range and no /M, hidden in object streams: DSS's child fails, in our words. */
    @Test
    void signaturesTheScanCannotSeeFailTheJobInOurWords() throws Exception {
        String key = newKey();
        Path dir = Files.createTempDirectory(DATA_DIR, "dup-");
        Path once = HostileSignatures.signed(dir.resolve("once.pdf"), 1, false, HostileSignatures.realCms());
        String pdf = uploadId(key, HostileSignatures.duplicated(once, dir.resolve("dup.pdf"), true));
        Response r = post(key, "/verify-signatures", Map.of("file", pdf, "wait", 120));
        JsonNode body = r.body();
        assertThat(body.at("/job/status").asString()).as("%s", r).isEqualTo("failed");
        // a job that ran ends with one of the spec's 5xx codes (spec §7 rule 3); the message says it is the file
        assertThat(body.at("/error/code").asString()).isEqualTo("internal_error");
        assertThat(body.at("/error/message").asString()).startsWith("the PDF's signatures could not be read: a signature dictionary lacks a value")
                .doesNotMatch(LIBRARY_TEXT);
    }
}
