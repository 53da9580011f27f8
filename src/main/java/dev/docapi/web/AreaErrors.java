package dev.docapi.web;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.server.ResponseStatusException;

/** The pages' own errors as a page with their status (e.g. 404 for another account's id), ahead of the API's JSON handler. */
@ControllerAdvice(basePackageClasses = AreaErrors.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class AreaErrors {
    @ExceptionHandler(ResponseStatusException.class)
    String status(ResponseStatusException e, HttpServletResponse response, Model model) {
        response.setStatus(e.getStatusCode().value());
        model.addAttribute("status", e.getStatusCode().value());
        return "area-error";
    }
}
