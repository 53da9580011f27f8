package dev.docapi.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Order;

/**
 * A test class with a minute or more of engine work (OCR, Ghostscript, veraPDF, LibreOffice): started before the
 * others (junit-platform.properties orders classes by {@link Order}), so that a run does not end with one of them
 * running alone on an otherwise idle machine (issue 41).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Order(1)
public @interface Heavy {
}
