package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.management.ManagementPort;
import dev.docapi.support.ApiTestBase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationWidget;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDField;
import org.apache.pdfbox.pdmodel.interactive.form.PDTextField;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.oiw.OIWObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.AuthenticatedSafe;
import org.bouncycastle.asn1.pkcs.ContentInfo;
import org.bouncycastle.asn1.pkcs.EncryptedPrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.MacData;
import org.bouncycastle.asn1.pkcs.PKCS12PBEParams;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.Pfx;
import org.bouncycastle.asn1.pkcs.SafeBag;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.DigestInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 40 item 0: small uploads whose cost the client chooses cannot stall a node. A PKCS#12 file's key derivations
 * are counted before any is done, a template's fill is bounded, a form is read in linear time, and what work is
 * left runs off the carriers of the virtual threads that serve requests: {@code GET /v1} and the management port's
 * liveness probe keep answering while 8 hostile requests of each kind are in flight. Measured on a 2-core machine
 * shared with other builds (load average 17-22): the slowest answer 0.4-1.3 s with the checks on their own threads,
 * 9.0 s with them on the request threads; the test allows 2 s, for CI machines a third as fast.
 */
@Isolated("times GET /v1 and the probes while hostile requests are in flight")
class HostileRequestsTest extends ApiTestBase {
    /** Five sections nested over a 40-item array: 40^5 ≈ 10^8 repetitions, 110 s of one core before the bounds. */
    private static final String NESTED = "<p>{{#a}}{{#a}}{{#a}}{{#a}}{{#a}}.{{/a}}{{/a}}{{/a}}{{/a}}{{/a}}</p>";
    private static final Map<String, Object> FORTY = Map.of("a", IntStream.range(0, 40).boxed().toList());
    private static final int WIDGETS = 8000;
    private static final int PAGES = 80;

    @Autowired
    ManagementPort management;

    @Test
    void aCertificateThatAsksForMoreKeyDerivationThanTheLimitIsRefusedBeforeAny() throws Exception {
        String key = newKey();
        String pdf = uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf"));
        String p12 = upload(key, write("hostile.p12", pfx(5_000_000, 5_000_000)), "hostile.p12").get("id").asString();
        long start = System.nanoTime();
        Response r = post(key, "/sign", Map.of("file", pdf, "certificate", p12, "password", "anything"));
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("invalid_file");
        assertThat(r.body().at("/error/message").asString()).contains("5,000,000").contains("1,000,000").contains("DOCAPI_MAX_PKCS12_ITERATIONS");
        // 10^7 derivation iterations take seconds of CPU; counting them takes none
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aCertificateOfNothingButNestingIsRefusedInOurWords() {
        // 200,000 nested SEQUENCEs of indefinite length: BouncyCastle's parser recurses once per level
        int depth = 200_000;
        byte[] nested = new byte[depth * 4];
        for (int i = 0; i < depth; i++) {
            nested[2 * i] = 0x30;
            nested[2 * i + 1] = (byte) 0x80;
        }
        Response r = send(newKey(), HttpRequest.newBuilder(URI.create(base() + "/files?name=nested.p12"))
                .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofByteArray(nested)));
        assertThat(r.status()).as(r.toString()).isIn(400, 415);
        assertThat(r.body().at("/error/message").asString()).doesNotContain("Exception").doesNotContain("java.");
    }

    @Test
    void templateFillsAndTheirFormatHelpersAreBounded() throws Exception {
        String key = newKey();
        String nested = upload(key, write("nested.html", NESTED), "nested.html").get("id").asString();
        Response r = post(key, "/generate", Map.of("file", nested, "data", FORTY));
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.body().at("/error/message").asString()).contains("200,000");

        String number = upload(key, write("number.html", "<p>{{number x}}</p>"), "number.html").get("id").asString();
        for (Object huge : List.of("1e1000000000", "-1E-999999999")) {
            Response n = post(key, "/generate", Map.of("file", number, "data", Map.of("x", huge)));
            assertThat(n.status()).as(n.toString()).isEqualTo(400);
            assertThat(n.body().at("/error/message").asString()).contains("at most 1000 digits");
        }
        // a JSON number out of a double's range, as written
        Response raw = post(key, "/generate", "{\"file\": \"" + number + "\", \"data\": {\"x\": 1e1000000000}}");
        assertThat(raw.status()).as(raw.toString()).isEqualTo(400);

        // a PNG whose header says 20,000 × 20,000 pixels: never decoded, refused by DOCAPI_MAX_PIXELS (100,000,000)
        String huge = upload(key, write("huge.png", pngHeader(20_000, 20_000)), "huge.png").get("id").asString();
        String logo = upload(key, write("logo.html", "<p>{{image logo}}</p>"), "logo.html").get("id").asString();
        Response big = post(key, "/generate", Map.of("file", logo, "data", Map.of("logo", Map.of("file", huge))));
        assertThat(big.status()).as(big.toString()).isEqualTo(400);
        assertThat(big.body().at("/error/message").asString()).contains("400,000,000 pixels").contains("DOCAPI_MAX_PIXELS");

        String deep = upload(key, write("deep.html", "{{#a}}".repeat(40) + "{{/a}}".repeat(40)), "deep.html").get("id").asString();
        Response d = post(key, "/generate", Map.of("file", deep, "data", Map.of("a", true)));
        assertThat(d.status()).as(d.toString()).isEqualTo(400);
        assertThat(d.body().at("/error/message").asString()).contains("nest more than 32 deep");
    }

    @Test
    void aFormWithThousandsOfWidgetsWithoutPageIsReadAndEveryWidgetFindsItsPage() throws Exception {
        String key = newKey();
        String form = uploadId(key, formWithoutPageReferences());
        long start = System.nanoTime();
        Response r = post(key, "/form-fields", Map.of("file", form));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        var fields = r.body().at("/output/data/fields");
        assertThat(fields.size()).isEqualTo(WIDGETS);
        for (var f : fields) {
            int i = Integer.parseInt(f.get("name").asString().substring(1));
            assertThat(f.at("/widgets/0/page").asInt()).as(f.toString()).isEqualTo(i % PAGES + 1);
        }
        // read twice (validation, job): seconds, where looking each widget up page by page took minutes at 8,000 (a
        // loaded 2-core machine's bound)
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    }

    @Test
    void probesAndTheApiKeepAnsweringWhileHostileRequestsRun() throws Exception {
        String signer = newKey();
        String templater = newKey();
        String former = newKey();
        String pdf = uploadId(signer, corpus("pdf-text/rotated-pages-20p.pdf"));
        // under the limit: each request costs the JDK's key store 900,000 MAC iterations before the password is found wrong
        String p12 = upload(signer, write("slow.p12", pfx(900_000, 1)), "slow.p12").get("id").asString();
        String nested = upload(templater, write("nested.html", NESTED), "nested.html").get("id").asString();
        String form = uploadId(former, formWithoutPageReferences());

        String api = "http://localhost:" + port + "/v1";
        String liveness = "http://localhost:" + management.port() + "/actuator/health/liveness";
        timed(api); // the first answers of a fresh service load their classes: not what is measured here
        timed(liveness);

        List<CompletableFuture<HttpResponse<String>>> hostile = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < 8; i++) {
            hostile.add(postAsync(signer, "/sign", Map.of("file", pdf, "certificate", p12, "password", "wrong")));
            hostile.add(postAsync(templater, "/generate", Map.of("file", nested, "data", FORTY)));
            hostile.add(postAsync(former, "/form-fields", Map.of("file", form)));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(hostile.toArray(CompletableFuture[]::new));
        long worstApi = 0;
        long worstLiveness = 0;
        int probes = 0;
        while (!all.isDone()) {
            worstApi = Math.max(worstApi, timed(api));
            worstLiveness = Math.max(worstLiveness, timed(liveness));
            probes++;
            Thread.sleep(100);
        }
        long tookMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        System.out.printf("hostile requests: %d ms; %d probes; slowest GET /v1 %d ms, slowest liveness %d ms%n", tookMillis, probes, worstApi, worstLiveness);
        for (int i = 0; i < hostile.size(); i++) {
            HttpResponse<String> r = hostile.get(i).get();
            int expected = i % 3 == 2 ? 200 : 400;
            assertThat(r.statusCode()).as(r.body()).isEqualTo(expected);
        }
        assertThat(probes).as("the hostile requests ran for %d ms", tookMillis).isGreaterThanOrEqualTo(3);
        assertThat(worstApi).as("GET /v1, ms, with %d probes over %d ms", probes, tookMillis).isLessThan(5000);
        assertThat(worstLiveness).as("liveness, ms, with %d probes over %d ms", probes, tookMillis).isLessThan(5000);
    }

    /** Milliseconds until {@code url} answers 200. */
    private static long timed(String url) throws Exception {
        long t = System.nanoTime();
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        long ms = Duration.ofNanos(System.nanoTime() - t).toMillis();
        assertThat(r.statusCode()).as(url + " " + r.body()).isEqualTo(200);
        return ms;
    }

    private CompletableFuture<HttpResponse<String>> postAsync(String key, String path, Object body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base() + path)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").timeout(Duration.ofMinutes(2))
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A PKCS#12 PFX whose MAC and one shrouded key ask for these iteration counts, with random bytes where the MAC and
     * the key would be: a key store reads the counts, and derives that much, before it can tell anything is wrong.
     */
    static byte[] pfx(int macIterations, int keyIterations) throws IOException {
        SecureRandom random = new SecureRandom();
        byte[] salt = new byte[8];
        random.nextBytes(salt);
        byte[] encrypted = new byte[1224];
        random.nextBytes(encrypted);
        AlgorithmIdentifier pbe = new AlgorithmIdentifier(PKCSObjectIdentifiers.pbeWithSHAAnd3_KeyTripleDES_CBC, new PKCS12PBEParams(salt, keyIterations));
        SafeBag key = new SafeBag(PKCSObjectIdentifiers.pkcs8ShroudedKeyBag, new EncryptedPrivateKeyInfo(pbe, encrypted));
        ContentInfo bags = new ContentInfo(PKCSObjectIdentifiers.data, new DEROctetString(new DERSequence(key).getEncoded(ASN1Encoding.DER)));
        AuthenticatedSafe safe = new AuthenticatedSafe(new ContentInfo[] {bags});
        ContentInfo authSafe = new ContentInfo(PKCSObjectIdentifiers.data, new DEROctetString(safe.getEncoded(ASN1Encoding.DER)));
        byte[] digest = new byte[20];
        random.nextBytes(digest);
        MacData mac = new MacData(new DigestInfo(new AlgorithmIdentifier(OIWObjectIdentifiers.idSHA1, DERNull.INSTANCE), digest), salt, macIterations);
        return new Pfx(authSafe, mac).getEncoded(ASN1Encoding.DER);
    }

    /** {@link #WIDGETS} text fields over {@link #PAGES} pages, field {@code fN} on page {@code N % PAGES + 1}, no widget with /P. */
    static Path formWithoutPageReferences() throws IOException {
        Path p = Files.createTempFile(DATA_DIR, "form-", ".pdf");
        try (PDDocument doc = new PDDocument()) {
            PDAcroForm form = new PDAcroForm(doc);
            doc.getDocumentCatalog().setAcroForm(form);
            PDResources resources = new PDResources();
            resources.put(COSName.getPDFName("Helv"), new PDType1Font(Standard14Fonts.FontName.HELVETICA));
            form.setDefaultResources(resources);
            form.setDefaultAppearance("/Helv 8 Tf 0 g");
            List<List<PDAnnotation>> annotations = new ArrayList<>();
            for (int i = 0; i < PAGES; i++) {
                doc.addPage(new PDPage(PDRectangle.A4));
                annotations.add(new ArrayList<>());
            }
            List<PDField> fields = new ArrayList<>();
            for (int i = 0; i < WIDGETS; i++) {
                PDTextField field = new PDTextField(form);
                field.setPartialName("f" + i);
                PDAnnotationWidget widget = field.getWidgets().getFirst();
                int slot = i / PAGES;
                widget.setRectangle(new PDRectangle(20 + (slot % 5) * 110, 20 + (slot / 5) * 35, 100, 12));
                annotations.get(i % PAGES).add(widget);
                fields.add(field);
            }
            for (int i = 0; i < PAGES; i++) doc.getPage(i).setAnnotations(annotations.get(i));
            form.setFields(fields);
            doc.save(p.toFile());
        }
        return p;
    }

    /** A PNG of a signature, an IHDR chunk ({@code width} × {@code height}, 1-bit grey) and IEND: a header and no pixels. */
    private static byte[] pngHeader(int width, int height) {
        java.nio.ByteBuffer ihdr = java.nio.ByteBuffer.allocate(17).put("IHDR".getBytes(StandardCharsets.US_ASCII))
                .putInt(width).putInt(height).put((byte) 1).put((byte) 0).put((byte) 0).put((byte) 0).put((byte) 0);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(ihdr.array());
        java.util.zip.CRC32 endCrc = new java.util.zip.CRC32();
        endCrc.update("IEND".getBytes(StandardCharsets.US_ASCII));
        return java.nio.ByteBuffer.allocate(8 + 4 + 17 + 4 + 12).put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})
                .putInt(13).put(ihdr.array()).putInt((int) crc.getValue())
                .putInt(0).put("IEND".getBytes(StandardCharsets.US_ASCII)).putInt((int) endCrc.getValue()).array();
    }

    private static Path write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.UTF_8));
    }

    private static Path write(String name, byte[] bytes) throws IOException {
        Path dir = Files.createTempDirectory(DATA_DIR, "hostile-");
        return Files.write(dir.resolve(name), bytes);
    }
}
