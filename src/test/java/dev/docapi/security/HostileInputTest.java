package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.DataOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Inputs built to exhaust an engine (issue 9 "bounds"): a 100,000-page PDF made with qpdf and a PNG that decodes to
 * 400 megapixels are refused by every operation at validation — 400 {@code invalid_request} naming the limit, no job.
 */
class HostileInputTest extends ApiTestBase {

    @Test
    void aHundredThousandPagePdfIsRefusedByEveryOperationBeforeAnyJob() throws Exception {
        Path dir = Files.createTempDirectory(DATA_DIR, "pages-");
        Path blank = dir.resolve("blank.pdf");
        assertThat(Independent.run("gs", "-q", "-sDEVICE=pdfwrite", "-o", blank.toString(), "-c", "showpage").exit()).isZero();
        Path thousand = dir.resolve("1k.pdf");
        assertThat(Independent.run("qpdf", "--empty", "--object-streams=generate", "--pages", blank.toString(),
                String.join(",", java.util.Collections.nCopies(1000, "1")), "--", thousand.toString()).exit()).isZero();
        List<String> cmd = new ArrayList<>(List.of("qpdf", "--empty", "--object-streams=generate", "--pages"));
        for (int i = 0; i < 100; i++) cmd.add(thousand.toString());
        Path huge = dir.resolve("100k-pages.pdf");
        cmd.addAll(List.of("--", huge.toString()));
        assertThat(Independent.run(cmd.toArray(String[]::new)).exit()).isZero();

        String key = newKey();
        var file = upload(key, huge);
        assertThat(file.get("pages").asInt()).isEqualTo(100_000);
        String id = file.get("id").asString();
        int jobsBefore = get(key, "/jobs").body().get("data").size();
        Map<String, Map<String, Object>> requests = Map.ofEntries(
                Map.entry("rotate", Map.of("file", id, "angle", 90)),
                Map.entry("split", Map.of("file", id, "every", 1)),
                Map.entry("organize", Map.of("file", id, "pages", List.of(1))),
                Map.entry("remove-pages", Map.of("file", id, "pages", List.of(1))),
                Map.entry("page-numbers", Map.of("file", id)),
                Map.entry("watermark", Map.of("file", id, "text", "x")),
                Map.entry("protect", Map.of("file", id, "password", "pw")),
                Map.entry("compress", Map.of("file", id)),
                Map.entry("ocr", Map.of("file", id)),
                Map.entry("extract-text", Map.of("file", id)),
                Map.entry("convert", Map.of("file", id, "to", "docx")),
                Map.entry("merge", Map.of("files", List.of(id, id))));
        for (var e : requests.entrySet()) {
            Response r = post(key, "/" + e.getKey(), e.getValue());
            assertThat(r.status()).as(e.getKey() + ": " + r).isEqualTo(400);
            assertThat(r.code()).isEqualTo("invalid_request");
            assertThat(r.body().at("/error/message").asString()).as(e.getKey()).contains("100,000 pages").contains("page limit is 2,000");
        }
        assertThat(get(key, "/jobs").body().get("data").size()).isEqualTo(jobsBefore);
    }

    @Test
    void aDecompressionBombPngIsRefusedFromItsHeader() throws Exception {
        Path bomb = Files.createTempDirectory(DATA_DIR, "bomb-").resolve("bomb.png");
        writeBlankPng(bomb, 20_000, 20_000);
        assertThat(Files.size(bomb)).isLessThan(2_000_000);
        String key = newKey();
        String id = uploadId(key, bomb);
        for (var body : List.of(Map.of("operation", "images-to-pdf", "files", List.of(id)),
                Map.of("operation", "extract-text", "file", id),
                Map.of("operation", "convert", "file", id, "to", "pdf"))) {
            Map<String, Object> request = new java.util.HashMap<>(body);
            String op = (String) request.remove("operation");
            Response r = post(key, "/" + op, request);
            assertThat(r.status()).as(op + ": " + r).isEqualTo(400);
            assertThat(r.body().at("/error/message").asString()).contains("400,000,000 pixels");
        }
    }

    /** A grey PNG of {@code width} × {@code height} zero pixels: a few hundred KB that decode to width × height bytes. */
    static void writeBlankPng(Path target, int width, int height) throws Exception {
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(target))) {
            out.write(new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
            var ihdr = new java.io.ByteArrayOutputStream();
            var h = new DataOutputStream(ihdr);
            h.writeInt(width);
            h.writeInt(height);
            h.write(new byte[]{8, 0, 0, 0, 0}); // 8-bit greyscale, deflate, no filter method, no interlace
            chunk(out, "IHDR", ihdr.toByteArray());
            var idat = new java.io.ByteArrayOutputStream();
            try (OutputStream z = new DeflaterOutputStream(idat, new Deflater(Deflater.BEST_COMPRESSION))) {
                byte[] row = new byte[width + 1]; // filter byte 0, then zeros
                for (int y = 0; y < height; y++) z.write(row);
            }
            chunk(out, "IDAT", idat.toByteArray());
            chunk(out, "IEND", new byte[0]);
        }
    }

    private static void chunk(DataOutputStream out, String type, byte[] data) throws Exception {
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        out.writeInt(data.length);
        out.write(t);
        out.write(data);
        CRC32 crc = new CRC32();
        crc.update(t);
        crc.update(data);
        out.writeInt((int) crc.getValue());
    }
}
