package dev.docapi.document;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;

class DbgTmpTest {
    @Test
    void dump() throws Exception {
        for (String f : System.getProperty("dbg.files").split(",")) {
            try (PDDocument doc = Loader.loadPDF(Path.of(f).toFile())) {
                DocumentModel m = DocumentReader.model(doc, List.of(), Set.of(), new ArrayList<>(), page -> { });
                for (var p : m.pages()) for (var e : p.elements()) System.out.println("DBG " + e.type() + " " + e.box() + " | " + e.text().replace("\n", "\\n"));
            }
        }
    }
}
