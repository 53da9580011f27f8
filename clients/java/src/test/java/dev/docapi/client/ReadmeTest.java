package dev.docapi.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's Java examples compile against this client and its generated models (issue 39). */
class ReadmeTest {
    private static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern CLASS = Pattern.compile("^class (\\w+)", Pattern.MULTILINE);

    @Test
    void theExamplesCompile(@TempDir Path dir) throws IOException {
        List<String> files = new ArrayList<>();
        Matcher block = BLOCK.matcher(Files.readString(Path.of("README.md")));
        while (block.find()) {
            Matcher name = CLASS.matcher(block.group(1));
            assertTrue(name.find(), "each example is a whole class: " + block.group(1));
            Path source = dir.resolve(name.group(1) + ".java");
            Files.writeString(source, block.group(1));
            files.add(source.toString());
        }
        assertTrue(files.size() >= 2, "the first call and the webhook receiver");
        assertEquals("", compile(dir, files));
        // the check can fail: the generator's escaped setter, which the README once showed, is gone
        Path escaped = dir.resolve("Escaped.java");
        Files.writeString(escaped, "class Escaped { Object r = new dev.docapi.client.generated.model.RotateRequest()._file(\"file_x\"); }");
        assertTrue(compile(dir, List.of(escaped.toString())).contains("_file"));
    }

    /** javac's diagnostics, empty when it compiled. */
    private static String compile(Path dir, List<String> files) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> args = new ArrayList<>(List.of("-proc:none", "-cp", classpath, "-d", dir.resolve("classes").toString()));
        args.addAll(files);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = javac.run(null, null, err, args.toArray(String[]::new));
        return status == 0 ? "" : err.toString(StandardCharsets.UTF_8);
    }
}
