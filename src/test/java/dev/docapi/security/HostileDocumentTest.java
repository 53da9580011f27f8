package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.config.DocapiProperties;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Hostile documents against the real LibreOffice and Chromium through the real API (issue 9): Office documents that
 * link another account's file (by its blob path, relative and absolute), a host file, and loopback URLs of every
 * scheme LibreOffice fetches; an HTML page that tries WebRTC (UDP), images, fetch and file iframes; a 6 KB docx whose
 * picture decompresses to 2.7 GB. The output never
 * holds the other account's or the host's text, a loopback canary sees no TCP connection and no UDP packet, and a
 * normal document of another account converts afterwards. The documents are built here, in
 * {@code hostile/} under the test's data folder. Without the sandbox the same ODT puts the other account's text in
 * the PDF and opens a dozen connections to the canary (checked by hand with {@code soffice --convert-to pdf}).
 */
@Heavy
class HostileDocumentTest extends ApiTestBase {
    @Autowired
    DocapiProperties props;

    private Path dir;
    private String secret;
    private Path otherBlob;

    @BeforeEach
    void anotherAccountsFile() throws Exception {
        dir = Files.createDirectories(DATA_DIR.resolve("hostile"));
        secret = "OTHERACCOUNTSECRET" + System.nanoTime();
        // a PDF: LibreOffice renders a linked PDF with its text, so without the sandbox the secret lands in the output
        Path pdf = dir.resolve("secret.pdf");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage();
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.beginText();
                cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 18);
                cs.newLineAtOffset(72, 700);
                cs.showText(secret);
                cs.endText();
            }
            doc.save(pdf.toFile());
        }
        String id = uploadId(newKey(), pdf);
        otherBlob = props.blobDir().resolve(id.substring(id.length() - 2)).resolve(id).toAbsolutePath();
        assertThat(Independent.pdftotext(otherBlob)).contains(secret);
    }

    @Test
    void anOdtLinkingAnotherAccountsFileAHostFileAndLoopbackUrlsGetsNoneOfThem() throws Exception {
        try (Canary canary = new Canary()) {
            String loop = "127.0.0.1:" + canary.tcpPort();
            // the blob path relative to wherever the document may be put under the data folder, and absolute
            String relative = "../".repeat(8) + otherBlob.toString().substring(1);
            StringBuilder frames = new StringBuilder();
            int n = 0;
            for (String href : new String[]{relative, otherBlob.toUri().toString(), "file:///etc/passwd", "http://" + loop + "/a.png",
                    "https://" + loop + "/b.png", "ftp://" + loop + "/c.png", "http://localhost:" + canary.tcpPort() + "/d.svg",
                    "http://[::1]:" + canary.tcpPort() + "/e.svg", "http://2130706433:" + canary.tcpPort() + "/f.svg"}) {
                frames.append("""
                        <draw:frame draw:name="f%d" text:anchor-type="paragraph" svg:width="8cm" svg:height="2cm">
                          <draw:image xlink:href="%s" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>
                        </draw:frame>""".formatted(n++, xml(href)));
            }
            String content = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
                      xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
                      xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3">
                      <office:body><office:text>
                        <text:p>Own text of the hostile document.</text:p>
                        <text:p>%s</text:p>
                        <text:section text:name="s1"><text:section-source xlink:href="%s" xlink:type="simple"/></text:section>
                        <text:section text:name="s2"><text:section-source xlink:href="%s" xlink:type="simple"/></text:section>
                      </office:text></office:body>
                    </office:document-content>
                    """.formatted(frames, xml(relative), xml(otherBlob.toUri().toString()));
            Path odt = dir.resolve("links.odt");
            zip(odt, "application/vnd.oasis.opendocument.text", Map.of("content.xml", content, "META-INF/manifest.xml", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
                      <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
                      <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
                    </manifest:manifest>
                    """));
            assertConvertsWithoutLeaking(odt, canary);
        }
    }

    @Test
    void aDocxWithExternallyLinkedPicturesGetsNoneOfThem() throws Exception {
        try (Canary canary = new Canary()) {
            String[] targets = {otherBlob.toUri().toString(), "file:///etc/passwd", "http://127.0.0.1:" + canary.tcpPort() + "/a.png",
                    "https://127.0.0.1:" + canary.tcpPort() + "/b.png", "ftp://127.0.0.1:" + canary.tcpPort() + "/c.png"};
            StringBuilder rels = new StringBuilder();
            StringBuilder pictures = new StringBuilder();
            for (int i = 0; i < targets.length; i++) {
                rels.append("<Relationship Id=\"rIdL%d\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/image\" Target=\"%s\" TargetMode=\"External\"/>"
                        .formatted(i, xml(targets[i])));
                pictures.append("""
                        <w:p><w:r><w:drawing><wp:inline><wp:extent cx="3000000" cy="800000"/><wp:docPr id="%1$d" name="p%1$d"/>
                          <a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>
                            <pic:nvPicPr><pic:cNvPr id="%1$d" name="p%1$d"/><pic:cNvPicPr/></pic:nvPicPr>
                            <pic:blipFill><a:blip r:link="rIdL%2$d"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>
                            <pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="800000"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr>
                          </pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>""".formatted(i + 1, i));
            }
            Map<String, String> parts = new LinkedHashMap<>();
            parts.put("[Content_Types].xml", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
                      <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
                      <Default Extension="xml" ContentType="application/xml"/>
                      <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
                    </Types>""");
            parts.put("_rels/.rels", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
                      <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
                    </Relationships>""");
            parts.put("word/_rels/document.xml.rels", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">%s</Relationships>""".formatted(rels));
            parts.put("word/document.xml", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"
                      xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"
                      xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
                      xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">
                      <w:body><w:p><w:r><w:t>Own text of the hostile document.</w:t></w:r></w:p>%s</w:body>
                    </w:document>""".formatted(pictures));
            Path docx = dir.resolve("links.docx");
            zip(docx, null, parts);
            assertConvertsWithoutLeaking(docx, canary);
        }
    }

    @Test
    void anHtmlPageReachesNoNetworkNotEvenByWebRtc() throws Exception {
        try (Canary canary = new Canary()) {
            String loop = "127.0.0.1:" + canary.tcpPort();
            Path html = Files.writeString(dir.resolve("webrtc.html"), """
                    <!DOCTYPE html><html><body>
                    <p>Own text of the hostile document.</p>
                    <img src="http://%1$s/pixel.png"><iframe src="file:///etc/passwd"></iframe><iframe src="%3$s"></iframe>
                    <script>
                      fetch("http://%1$s/fetch").catch(() => {});
                      new WebSocket("ws://%1$s/ws");
                      for (const urls of ["stun:127.0.0.1:%2$d", "turn:127.0.0.1:%2$d?transport=udp"]) {
                        const pc = new RTCPeerConnection({iceServers: [{urls, username: "u", credential: "c"}]});
                        pc.createDataChannel("x");
                        pc.createOffer().then(o => pc.setLocalDescription(o));
                      }
                      const until = Date.now() + 1500; while (Date.now() < until) {}
                    </script></body></html>
                    """.formatted(loop, canary.udpPort(), otherBlob.toUri()));
            assertConvertsWithoutLeaking(html, canary);
        }
    }

    @Test
    void aDocxWhosePictureDecompressesToGigabytesEndsPromptlyAndHarmsNoOne() throws Exception {
        // a 30,000 × 30,000 RGB PNG (2.7 GB of pixels) deflates to ~2.6 MB, and the whole docx to ~6 KB
        int side = 30_000;
        java.io.ByteArrayOutputStream idat = new java.io.ByteArrayOutputStream();
        try (var deflate = new java.util.zip.DeflaterOutputStream(idat, new java.util.zip.Deflater(9))) {
            byte[] row = new byte[1 + side * 3];
            for (int y = 0; y < side; y++) deflate.write(row);
        }
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        png.write(new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
        pngChunk(png, "IHDR", java.nio.ByteBuffer.allocate(13).putInt(side).putInt(side).put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0).array());
        pngChunk(png, "IDAT", idat.toByteArray());
        pngChunk(png, "IEND", new byte[0]);

        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("[Content_Types].xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
                  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
                  <Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>
                  <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
                </Types>""");
        parts.put("_rels/.rels", """
                <?xml version="1.0" encoding="UTF-8"?>
                <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
                  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
                </Relationships>""");
        parts.put("word/_rels/document.xml.rels", """
                <?xml version="1.0" encoding="UTF-8"?>
                <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
                  <Relationship Id="rImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/bomb.png"/>
                </Relationships>""");
        parts.put("word/document.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"
                  xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"
                  xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
                  xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">
                  <w:body><w:p><w:r><w:t>Own text of the hostile document.</w:t></w:r></w:p>
                  <w:p><w:r><w:drawing><wp:inline><wp:extent cx="3000000" cy="3000000"/><wp:docPr id="1" name="bomb"/>
                    <a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>
                      <pic:nvPicPr><pic:cNvPr id="1" name="bomb"/><pic:cNvPicPr/></pic:nvPicPr>
                      <pic:blipFill><a:blip r:embed="rImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>
                      <pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="3000000"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr>
                    </pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p></w:body>
                </w:document>""");
        Path docx = dir.resolve("bomb.docx");
        zip(docx, null, parts, Map.of("word/media/bomb.png", png.toByteArray()));
        assertThat(Files.size(docx)).isLessThan(64 * 1024);
        long t0 = System.nanoTime();
        try (Canary canary = new Canary()) {
            assertConvertsWithoutLeaking(docx, canary);
        }
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - t0)).as("bomb and the next account's job").isLessThan(java.time.Duration.ofSeconds(90));
    }

    private static void pngChunk(java.io.ByteArrayOutputStream out, String type, byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(type.getBytes(StandardCharsets.US_ASCII));
        crc.update(data);
        out.writeBytes(java.nio.ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(type.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(data);
        out.writeBytes(java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    private void assertConvertsWithoutLeaking(Path document, Canary canary) throws Exception {
        String key = newKey();
        Response r = post(key, "/convert", Map.of("file", uploadId(key, document), "to", "pdf", "wait", 120));
        assertThat(r.status()).as("%s", r).isIn(200, 422, 502);
        if (r.status() == 200) {
            String text = Independent.pdftotext(downloadOutput(r.body(), 0));
            assertThat(text).contains("Own text of the hostile document").doesNotContain(secret).doesNotContain("root:");
        } else {
            assertThat(r.body().at("/error/message").asString()).doesNotContain(props.dataDir().toAbsolutePath().toString());
        }
        Thread.sleep(1500); // anything still in flight (ICE, retries) would arrive now
        assertThat(canary.tcp.get()).as("TCP connections to the loopback canary").isZero();
        assertThat(canary.udp.get()).as("UDP packets to the loopback canary").isZero();

        // the engine still serves another account promptly
        String other = newKey();
        JsonNode ok = run(other, "convert", Map.of("file", uploadId(other, corpus("office/fake.docx")), "to", "pdf", "wait", 120));
        assertThat(Independent.pdftotext(downloadOutput(ok, 0))).contains("Lorem ipsum dolor sit amet");
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }

    static void zip(Path target, String mimetype, Map<String, String> parts) throws Exception {
        zip(target, mimetype, parts, Map.of());
    }

    /** A zip package of text parts and binary parts; {@code mimetype} (ODF) goes first and stored, as the format requires. */
    static void zip(Path target, String mimetype, Map<String, String> parts, Map<String, byte[]> binary) throws Exception {
        try (OutputStream file = Files.newOutputStream(target); ZipOutputStream zip = new ZipOutputStream(file)) {
            if (mimetype != null) {
                byte[] m = mimetype.getBytes(StandardCharsets.US_ASCII);
                ZipEntry e = new ZipEntry("mimetype");
                e.setMethod(ZipEntry.STORED);
                e.setSize(m.length);
                CRC32 crc = new CRC32();
                crc.update(m);
                e.setCrc(crc.getValue());
                zip.putNextEntry(e);
                zip.write(m);
                zip.closeEntry();
            }
            for (var part : parts.entrySet()) {
                zip.putNextEntry(new ZipEntry(part.getKey()));
                zip.write(part.getValue().strip().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
            for (var part : binary.entrySet()) {
                zip.putNextEntry(new ZipEntry(part.getKey()));
                zip.write(part.getValue());
                zip.closeEntry();
            }
        }
    }
}
