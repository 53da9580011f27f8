package dev.docapi.web;

import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.ui.Model;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * The pages' errors as the area's error page with their status, ahead of the API's JSON handler: 404 for another
 * account's id, 400 for a form Spring cannot bind (a missing or mistyped field), 500 for anything unexpected
 * (logged, never shown).
 */
@ControllerAdvice(basePackageClasses = AreaErrors.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class AreaErrors {
    private static final Logger log = LoggerFactory.getLogger(AreaErrors.class);

    @ExceptionHandler(Exception.class)
    String error(Exception e, HttpServletResponse response, Model model) throws Exception {
        // Spring Security's own: its filters answer them (sign-in redirect, 403)
        if (e instanceof AccessDeniedException || e instanceof AuthenticationException) throw e;
        int status = switch (e) {
            case ErrorResponse r -> r.getStatusCode().value();
            case TypeMismatchException t -> 400;
            case HttpMessageNotReadableException t -> 400;
            default -> 500;
        };
        if (status >= 500) log.error("developer area page failed", e);
        response.setStatus(status);
        model.addAttribute("status", status);
        return "area-error";
    }
}
