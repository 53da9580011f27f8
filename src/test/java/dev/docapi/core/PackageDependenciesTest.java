package dev.docapi.core;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package rules of issue 14 item 3, read from the compiled service classes: {@code core} (error codes,
 * {@code ApiException}, file kinds) depends on nothing but the JDK, so every layer may use it; the engines and
 * {@code config} depend on no layer above them (not the web layer {@code api}, not {@code operations}), so no
 * package cycle runs through them; no two engine packages depend on each other both ways; and (issue 41 item 3) no
 * cycle runs through the top-level packages at all. From the bottom they stand: {@code core}; {@code config};
 * {@code engines}, {@code net}, {@code crypto} (sealed secrets); {@code accounts}; {@code files}, {@code http} (the
 * request's account, the error body of filters); {@code contract} (what an operation takes, returns and throws);
 * {@code text}, {@code jobs}; {@code limits}; {@code ai}; {@code operations}, {@code management}; {@code api};
 * {@code workflows}, {@code webhooks}, {@code openapi}; {@code mcp}, {@code web}.
 */
class PackageDependenciesTest {
    private static JavaClasses service;

    @BeforeAll
    static void importServiceClasses() throws Exception {
        // the service's own class folder: not the tests, not the shaded Tabula and PDFBox 2 on the class path
        Path classes = Path.of(ErrorCode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        service = new ClassFileImporter().importPath(classes);
    }

    @Test
    void coreDependsOnTheJdkAlone() {
        classes().that().resideInAPackage("dev.docapi.core..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.docapi.core..", "java..")
                .check(service);
    }

    @Test
    void enginesAndConfigDependOnNoLayerAboveThem() {
        noClasses().that().resideInAnyPackage("dev.docapi.engines..", "dev.docapi.config..")
                .should().dependOnClassesThat(resideInAPackage("dev.docapi..").and(not(resideInAnyPackage(
                        "dev.docapi.engines..", "dev.docapi.core..", "dev.docapi.config..", "dev.docapi.shaded.."))))
                .check(service);
    }

    @Test
    void enginePackagesFormNoCycle() {
        slices().matching("dev.docapi.engines.(*)..").should().beFreeOfCycles().check(service);
    }

    @Test
    void topLevelPackagesFormNoCycle() {
        slices().matching("dev.docapi.(*)..").should().beFreeOfCycles().check(service);
    }

    @Test
    void theRulesSeeTheServiceClasses() {
        // a wrong class folder would make every rule above pass on nothing
        assertThat(service.contain("dev.docapi.engines.process.ProcessRunner")).isTrue();
        assertThat(service.contain("dev.docapi.operations.OperationService")).isTrue();
    }
}
