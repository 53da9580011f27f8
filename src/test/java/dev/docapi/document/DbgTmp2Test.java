package dev.docapi.document;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;

class DbgTmp2Test {
    @Test
    void dump() throws Exception {
        String f = System.getProperty("dbg.file");
        try (PDDocument doc = Loader.loadPDF(Path.of(f).toFile())) {
            Path out = Files.createTempFile("lattice-", ".jsonl");
            dev.docapi.engines.tabula.TabulaMain.main(new String[] {f, out.toString(), "1", "lattice"});
            tools.jackson.databind.json.JsonMapper json = tools.jackson.databind.json.JsonMapper.builder().build();
            List<dev.docapi.engines.tabula.Tabula.PdfTable> tables = new ArrayList<>();
            for (String line : Files.readAllLines(out)) {
                tools.jackson.databind.JsonNode page = json.readTree(line);
                if (page.has("tables")) tables.addAll(List.of(json.treeToValue(page.get("tables"), dev.docapi.engines.tabula.Tabula.PdfTable[].class)));
            }
            DocumentModel m = DocumentReader.model(doc, tables, Set.of(), new ArrayList<>(), page -> { });
            StringBuilder sb = new StringBuilder();
            for (var p : m.pages()) for (var e : p.elements()) sb.append(p.number()).append(' ').append(e.type()).append(" | ").append(e.text().replace("\n", " ")).append('\n');
            Files.writeString(Path.of(System.getProperty("dbg.out")), sb.toString());
        }
    }
}
