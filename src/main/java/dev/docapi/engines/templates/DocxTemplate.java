package dev.docapi.engines.templates;

import dev.docapi.engines.templates.Templates.Image;
import dev.docapi.engines.templates.Templates.Placement;
import dev.docapi.engines.templates.Templates.TemplateError;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.apache.poi.xwpf.usermodel.Document;
import org.apache.poi.xwpf.usermodel.IBody;
import org.apache.poi.xwpf.usermodel.IBodyElement;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFHeaderFooter;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFRun;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableCell;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Fills a .docx template written in the {@link Templates} language (issue 28). Word splits typed text across runs
 * ({@code {{cust} + {omer}}}), so each paragraph's tags are first joined into the run where they start; then a table
 * row whose text starts with {@code {{#items}}} (or {@code {{^x}}}) and ends with {@code {{/items}}} becomes the loop
 * body (the row repeats once per item), and a paragraph holding only a section tag opens or closes a block of whole
 * paragraphs. The main document, headers and footers are each filled as one template; errors name the paragraph
 * (1-based, in document order) and quote it. Images become markers, placed as pictures with POI afterwards.
 */
public final class DocxTemplate {
    static final String W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
    private static final Pattern PART = Pattern.compile("word/(document|header\\d*|footer\\d*)\\.xml");
    private static final Pattern TAG = Pattern.compile("\\{\\{\\{.*?}}}|\\{\\{.*?}}");
    private static final Pattern LONE_SECTION = Pattern.compile("\\{\\{\\s*[#^/]\\s*[^{}\\s]+\\s*}}");
    private static final Pattern ROW_LOOP = Pattern.compile("^(\\{\\{\\s*[#^]\\s*([^{}\\s]+)\\s*}}).*(\\{\\{\\s*/\\s*\\2\\s*}})$", Pattern.DOTALL);
    private static final Pattern MARKER = Pattern.compile("\uE000(\\d+)\uE001");
    /** The largest part or template (bytes, uncompressed) read, against zip bombs. */
    private static final long MAX_PART_BYTES = 64L * 1024 * 1024;
    private static final long MAX_IMAGE_EMU = (long) (6.5 * 914400);

    private DocxTemplate() {
    }

    /**
     * Writes {@code template} filled with {@code model} to {@code out} (.docx).
     *
     * @throws TemplateError a client-safe message naming the paragraph (a missing value, a syntax error, a section
     *                       that does not close where it opened)
     * @throws IOException   the file is not a readable .docx
     */
    public static void fill(Path template, Object model, Map<String, Image> images, Path out) throws TemplateError, IOException {
        List<Placement> placements = new ArrayList<>();
        Templates.Budget budget = Templates.Budget.start();
        Templates.ImageWriter markers = p -> {
            placements.add(p);
            return new com.github.jknack.handlebars.Handlebars.SafeString("\uE000" + (placements.size() - 1) + "\uE001");
        };
        try (ZipFile zip = new ZipFile(template.toFile()); OutputStream os = Files.newOutputStream(out);
             ZipOutputStream zos = new ZipOutputStream(os)) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            boolean sawDocument = false;
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                byte[] bytes;
                try (InputStream in = zip.getInputStream(e)) {
                    bytes = in.readNBytes((int) MAX_PART_BYTES + 1);
                }
                if (bytes.length > MAX_PART_BYTES) throw new IOException("the template has a part larger than " + MAX_PART_BYTES + " bytes");
                Matcher part = PART.matcher(e.getName());
                if (part.matches()) {
                    sawDocument |= part.group(1).equals("document");
                    String label = part.group(1).equals("document") ? "" : part.group(1).replaceAll("\\d+", "") + " ";
                    bytes = fillPart(bytes, label, model, images, budget, markers);
                }
                zos.putNextEntry(new ZipEntry(e.getName()));
                zos.write(bytes);
                zos.closeEntry();
            }
            if (!sawDocument) throw new IOException("the template has no word/document.xml: not a .docx file");
        } catch (java.util.zip.ZipException e) {
            throw new IOException("the template is not a .docx file: " + e.getMessage(), e);
        }
        if (!placements.isEmpty()) placeImages(out, placements);
    }

    private static byte[] fillPart(byte[] xml, String label, Object model, Map<String, Image> images, Templates.Budget budget,
                                   Templates.ImageWriter markers)
            throws TemplateError, IOException {
        org.w3c.dom.Document dom = parse(xml);
        NodeList paragraphs = dom.getElementsByTagNameNS(W, "p");
        Map<Node, Integer> numbers = new HashMap<>();
        for (int i = 0; i < paragraphs.getLength(); i++) {
            joinSplitTags((Element) paragraphs.item(i));
            numbers.put(paragraphs.item(i), i + 1);
        }
        NodeList rows = dom.getElementsByTagNameNS(W, "tr");
        for (int i = 0; i < rows.getLength(); i++) hoistRowLoop((Element) rows.item(i));
        List<String> lines = new ArrayList<>();
        markLines(dom.getDocumentElement(), label, numbers, lines);
        String source = unescapeTags(serialize(dom));
        String filled = Templates.render(source, model, images, budget, markers,
                line -> line >= 1 && line <= lines.size() ? lines.get(line - 1) : "line " + line + " of the " + (label.isEmpty() ? "document" : label.strip()));
        try {
            parse(filled.getBytes(StandardCharsets.UTF_8));
        } catch (IOException notWellFormed) {
            throw new Templates.TemplateError("the filled " + (label.isEmpty() ? "document" : label.strip())
                    + " is not a valid document: a section ({{#x}}…{{/x}}) must open and close in the same paragraph, or stand"
                    + " alone in paragraphs of its own, or start a table row's first cell and end its last cell", null);
        }
        return ("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>" + filled).getBytes(StandardCharsets.UTF_8);
    }

    /** Moves each tag that Word split across text elements into the element where it starts (right to left). */
    private static void joinSplitTags(Element p) {
        List<Element> texts = textsOf(p, p);
        if (texts.size() < 2) return;
        StringBuilder all = new StringBuilder();
        int[] starts = new int[texts.size()];
        for (int i = 0; i < texts.size(); i++) {
            starts[i] = all.length();
            all.append(texts.get(i).getTextContent());
        }
        if (all.indexOf("{{") < 0) return;
        List<int[]> spans = new ArrayList<>();
        Matcher m = TAG.matcher(all);
        while (m.find()) spans.add(new int[]{m.start(), m.end()});
        for (int s = spans.size() - 1; s >= 0; s--) {
            int a = spans.get(s)[0], b = spans.get(s)[1];
            int i = at(starts, a), j = at(starts, b - 1);
            if (i == j) continue;
            Element first = texts.get(i), last = texts.get(j);
            first.setTextContent(first.getTextContent().substring(0, a - starts[i]) + all.substring(a, b));
            for (int k = i + 1; k < j; k++) texts.get(k).setTextContent("");
            last.setTextContent(last.getTextContent().substring(b - starts[j]));
            first.setAttributeNS(XMLConstants.XML_NS_URI, "xml:space", "preserve");
            last.setAttributeNS(XMLConstants.XML_NS_URI, "xml:space", "preserve");
        }
    }

    private static int at(int[] starts, int offset) {
        int i = 0;
        while (i + 1 < starts.length && starts[i + 1] <= offset) i++;
        return i;
    }

    /** The w:t elements under {@code root} that belong to paragraph {@code p} (not to a text box's paragraphs inside it). */
    private static List<Element> textsOf(Element root, Element p) {
        List<Element> texts = new ArrayList<>();
        NodeList ts = root.getElementsByTagNameNS(W, "t");
        for (int i = 0; i < ts.getLength(); i++) {
            Element t = (Element) ts.item(i);
            if (p == null || paragraphOf(t) == p) texts.add(t);
        }
        return texts;
    }

    private static Node paragraphOf(Node n) {
        Node up = n.getParentNode();
        while (up != null && !(W.equals(up.getNamespaceURI()) && "p".equals(up.getLocalName()))) up = up.getParentNode();
        return up;
    }

    /** A row whose text is {@code {{#x}}…{{/x}}}: the two tags move outside the w:tr, so the row is the loop body. */
    private static void hoistRowLoop(Element row) {
        List<Element> texts = textsOf(row, null);
        StringBuilder all = new StringBuilder();
        for (Element t : texts) all.append(t.getTextContent());
        Matcher m = ROW_LOOP.matcher(all.toString().strip());
        if (!m.matches()) return;
        String open = m.group(1), close = m.group(3);
        for (Element t : texts) {
            String text = t.getTextContent();
            if (text.contains(open)) {
                t.setTextContent(text.replaceFirst(Pattern.quote(open), ""));
                break;
            }
        }
        for (Element t : texts.reversed()) {
            String text = t.getTextContent();
            int at = text.lastIndexOf(close);
            if (at >= 0) {
                t.setTextContent(text.substring(0, at) + text.substring(at + close.length()));
                break;
            }
        }
        row.getParentNode().insertBefore(row.getOwnerDocument().createTextNode(open), row);
        row.getParentNode().insertBefore(row.getOwnerDocument().createTextNode(close), row.getNextSibling());
    }

    /**
     * Puts every paragraph on a line of its own (a newline after its end; other newlines become spaces) so the
     * template's line numbers name paragraphs, and turns a body paragraph holding only a section tag into that tag.
     */
    private static void markLines(Node node, String label, Map<Node, Integer> numbers, List<String> lines) {
        for (Node c = node.getFirstChild(); c != null; ) {
            Node next = c.getNextSibling();
            if (c.getNodeType() == Node.TEXT_NODE) {
                c.setNodeValue(c.getNodeValue().replace('\n', ' ').replace('\r', ' '));
            } else if (c.getNodeType() == Node.ELEMENT_NODE) {
                markLines(c, label, numbers, lines);
                Integer number = numbers.get(c);
                if (number != null) {
                    String text = paragraphText((Element) c);
                    String where = label + "paragraph " + number + " ('" + (text.length() > 80 ? text.substring(0, 80) + "…" : text) + "')";
                    Node at = c;
                    if (LONE_SECTION.matcher(text.strip()).matches() && isBlockContainer(node)) {
                        at = c.getOwnerDocument().createTextNode(text.strip());
                        node.replaceChild(at, c);
                    }
                    node.insertBefore(c.getOwnerDocument().createTextNode("\n"), at.getNextSibling());
                    lines.add(where);
                }
            }
            c = next;
        }
    }

    private static boolean isBlockContainer(Node n) {
        return W.equals(n.getNamespaceURI()) && List.of("body", "hdr", "ftr").contains(n.getLocalName());
    }

    private static String paragraphText(Element p) {
        StringBuilder sb = new StringBuilder();
        for (Element t : textsOf(p, p)) sb.append(t.getTextContent());
        return sb.toString();
    }

    /** Inside tags, the serializer's entities and Word's typographic quotes become plain characters again. */
    private static String unescapeTags(String xml) {
        Matcher m = TAG.matcher(xml);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String tag = m.group().replace("&quot;", "\"").replace("&apos;", "'").replace("&lt;", "<").replace("&gt;", ">")
                    .replace("&amp;", "&").replace('\u201C', '"').replace('\u201D', '"').replace('\u201E', '"')
                    .replace('\u2018', '\'').replace('\u2019', '\'');
            m.appendReplacement(sb, Matcher.quoteReplacement(tag));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static org.w3c.dom.Document parse(byte[] xml) throws IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            return b.parse(new ByteArrayInputStream(xml));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("not well-formed XML: " + e.getMessage(), e);
        }
    }

    private static String serialize(org.w3c.dom.Document dom) throws IOException {
        try {
            Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            t.setOutputProperty(OutputKeys.INDENT, "no");
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            StringWriter w = new StringWriter();
            t.transform(new DOMSource(dom), new StreamResult(w));
            return w.toString();
        } catch (TransformerException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Replaces each image marker with the picture, sized from its pixels at 96 dpi (or its width), at most 6.5 in wide. */
    private static void placeImages(Path docx, List<Placement> placements) throws IOException {
        XWPFDocument doc;
        try (InputStream in = Files.newInputStream(docx)) {
            doc = new XWPFDocument(in);
        }
        try (doc) {
            List<XWPFParagraph> paragraphs = new ArrayList<>();
            collect(doc, paragraphs);
            for (XWPFHeaderFooter hf : doc.getHeaderList()) collect(hf, paragraphs);
            for (XWPFHeaderFooter hf : doc.getFooterList()) collect(hf, paragraphs);
            for (XWPFParagraph p : paragraphs) {
                for (int r = 0; r < p.getRuns().size(); r++) {
                    XWPFRun run = p.getRuns().get(r);
                    String text = run.text();
                    Matcher m = MARKER.matcher(text);
                    if (!m.find()) continue;
                    while (run.getCTR().sizeOfTArray() > 0) run.getCTR().removeT(0);
                    run.setText(text.substring(0, m.start()));
                    XWPFRun picture = p.insertNewRun(r + 1);
                    addPicture(picture, placements.get(Integer.parseInt(m.group(1))));
                    XWPFRun rest = p.insertNewRun(r + 2);
                    if (run.getCTR().getRPr() != null) rest.getCTR().setRPr(run.getCTR().getRPr());
                    rest.setText(text.substring(m.end()));
                    r++;
                }
            }
            try (OutputStream out = Files.newOutputStream(docx)) {
                doc.write(out);
            }
        }
    }

    private static void collect(IBody body, List<XWPFParagraph> into) {
        for (IBodyElement e : body.getBodyElements()) {
            if (e instanceof XWPFParagraph p) into.add(p);
            else if (e instanceof XWPFTable t) {
                for (XWPFTableRow row : t.getRows()) for (XWPFTableCell cell : row.getTableCells()) collect(cell, into);
            }
        }
    }

    private static void addPicture(XWPFRun run, Placement placement) throws IOException {
        Image image = placement.image();
        int type = switch (image.mediaType()) {
            case "image/png" -> Document.PICTURE_TYPE_PNG;
            case "image/gif" -> Document.PICTURE_TYPE_GIF;
            default -> Document.PICTURE_TYPE_JPEG;
        };
        double widthPx = placement.width() != null ? placement.width() : image.width();
        double heightPx = widthPx * image.height() / Math.max(1, image.width());
        long w = Math.round(widthPx * 9525), h = Math.round(heightPx * 9525);
        if (w > MAX_IMAGE_EMU) {
            h = h * MAX_IMAGE_EMU / w;
            w = MAX_IMAGE_EMU;
        }
        try {
            run.addPicture(new ByteArrayInputStream(image.bytes()), type, image.fileId(), (int) w, (int) h);
        } catch (org.apache.poi.openxml4j.exceptions.InvalidFormatException e) {
            throw new IOException("image " + image.fileId() + " cannot be placed: " + e.getMessage(), e);
        }
    }
}
