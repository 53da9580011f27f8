package dev.docapi.openapi;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.docapi.core.ErrorCode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The API description, the MCP tool schemas and the API's JSON answers come out with the same key order at every
 * start, so that a client generated today and one generated after a restart are the same: what builds them (the
 * description, MCP, the operations' declarations, the controllers) never uses {@code Map.of}, whose iteration order
 * changes from one JVM to the next ({@code core.J} builds ordered objects instead).
 */
class StableKeyOrderTest {

    @Test
    void whatDescribesOrAnswersTheApiBuildsNoUnorderedMaps() throws Exception {
        Path classes = Path.of(ErrorCode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        noClasses().that().resideInAnyPackage("dev.docapi.openapi..", "dev.docapi.mcp..", "dev.docapi.operations..", "dev.docapi.api..")
                .should().callMethodWhere(target(owner(type(Map.class))).and(target(name("of"))))
                .because("Map.of changes its key order from one start to the next")
                .check(new ClassFileImporter().importPath(classes));
    }
}
