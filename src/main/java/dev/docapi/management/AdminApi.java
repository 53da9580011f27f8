package dev.docapi.management;

import dev.docapi.config.MasterKey;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.J;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The admin API (issue 24), on the management port only ({@link ManagementPort}): {@code POST /admin/commands} with
 * {@code Authorization: Bearer <token>} and {@code {"args": ["create-account", "--email", "a@b.c"]}} runs one
 * {@link AdminCommands} command in the running service and answers {@code 200 {exit_code, stdout, stderr}} — what
 * {@code bin/docapi admin} prints, without starting a JVM of its own. The token is {@code DOCAPI_ADMIN_TOKEN}, or
 * when unset one derived from the master key ({@link MasterKey#adminToken()}). A missing or wrong token: 401
 * {@code invalid_api_key}, counted, and past {@link WrongAdminTokens#PER_MINUTE} a minute from one address 429
 * {@code rate_limited} ({@link WrongAdminTokens}); no {@code args}: 400 {@code invalid_request}.
 */
@RestController
class AdminApi {
    private final AdminCommands commands;
    private final byte[] token;
    private final WrongAdminTokens wrongTokens;

    AdminApi(AdminCommands commands, MasterKey key, @Value("${docapi.admin-token:}") String configured, WrongAdminTokens wrongTokens) {
        this.commands = commands;
        this.wrongTokens = wrongTokens;
        this.token = (configured == null || configured.isBlank() ? key.adminToken() : configured).getBytes(StandardCharsets.UTF_8);
    }

    /** The body of {@code POST /admin/commands}: the command and its options, as on the command line. */
    record Command(List<String> args) {
    }

    @PostMapping("/admin/commands")
    Map<String, Object> run(@RequestHeader(value = "Authorization", required = false) String authorization, @RequestBody Command command,
                            HttpServletRequest request) {
        String address = request.getRemoteAddr();
        wrongTokens.checkNotBlocked(address);
        String given = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7) ? authorization.substring(7).strip() : "";
        if (!MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8))) {
            wrongTokens.wrong(address);
            throw new ApiException(ErrorCode.INVALID_API_KEY, "send the admin token (DOCAPI_ADMIN_TOKEN) as 'Authorization: Bearer <token>'");
        }
        if (command == null || command.args() == null || command.args().isEmpty()) {
            throw new ApiException(ErrorCode.INVALID_REQUEST, "'args' must name a command, e.g. [\"list-accounts\"]");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = commands.run(command.args().toArray(String[]::new), o, e);
        }
        return J.o("exit_code", exit, "stdout", out.toString(StandardCharsets.UTF_8), "stderr", err.toString(StandardCharsets.UTF_8));
    }
}
