package dev.docapi.api;

import dev.docapi.core.J;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.http.ErrorWriter;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/** Maps every failure to {@code {error: {code, message}}} with the spec's status; internal causes are logged only. */
@RestControllerAdvice
public class ApiErrorHandler {
    private static final Logger log = LoggerFactory.getLogger(ApiErrorHandler.class);
    private final ErrorWriter errors;

    public ApiErrorHandler(ErrorWriter errors) {
        this.errors = errors;
    }

    @ExceptionHandler(ApiException.class)
    ResponseEntity<Map<String, Object>> api(ApiException e) {
        errors.count(e);
        if (e.getCause() != null) log.debug("{}: {}", e.code().code(), e.getMessage(), e.getCause());
        var builder = ResponseEntity.status(e.code().status());
        if (e.retryAfterSeconds() != null) builder.header("Retry-After", String.valueOf(e.retryAfterSeconds()));
        if (e.code().status() == 401) builder.header("WWW-Authenticate", "Bearer");
        return builder.body(ErrorWriter.body(e));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<Map<String, Object>> unreadable(HttpMessageNotReadableException e) {
        return api(ApiException.invalid("the request body is not valid JSON"));
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<Map<String, Object>> mediaType(HttpMediaTypeNotSupportedException e) {
        return api(ApiException.invalid("send the request body as application/json"));
    }

    @ExceptionHandler({MissingServletRequestParameterException.class, MethodArgumentTypeMismatchException.class})
    ResponseEntity<Map<String, Object>> parameter(Exception e) {
        return api(ApiException.invalid(e.getMessage()));
    }

    /** A query parameter that is not valid percent-encoded UTF-8, e.g. {@code ?name=%FF%FE.txt} (issue 10). */
    @ExceptionHandler(org.eclipse.jetty.http.HttpException.IllegalStateException.class) // Jetty's "400: Bad query"
    ResponseEntity<Map<String, Object>> undecodable(org.eclipse.jetty.http.HttpException.IllegalStateException e) {
        return api(ApiException.invalid("a query parameter is not valid percent-encoded UTF-8"));
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<Map<String, Object>> method(HttpRequestMethodNotSupportedException e) {
        return api(new ApiException(ErrorCode.METHOD_NOT_ALLOWED, e.getMethod() + " is not allowed here"));
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<Map<String, Object>> notFound(NoResourceFoundException e) {
        return api(new ApiException(ErrorCode.NOT_FOUND, "no such endpoint: /" + e.getResourcePath()));
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<Map<String, Object>> database(DataAccessException e) {
        log.warn("database unavailable: {}", e.getMessage());
        return api(ApiException.databaseUnavailable(e));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Map<String, Object>> unexpected(Exception e) {
        log.error("unexpected error", e);
        return ResponseEntity.status(500).body(J.o("error", J.o("code", "internal_error", "message", "an unexpected error occurred; it is safe to retry")));
    }
}
