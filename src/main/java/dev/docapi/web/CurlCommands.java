package dev.docapi.web;

import dev.docapi.api.JobResponses;
import dev.docapi.config.PublicBaseUrl;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OptionField;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code curl} commands that do what a "Try it" run did (issue 11): one upload per input file
 * ({@code POST /v1/files}), then the operation call ({@code POST /v1/{operation}}) with the run's file ids and options.
 * The API key is the placeholder {@code $DOCAPI_KEY}, never a real key; a secret option (a password, which docapi
 * does not keep: spec §2.3) is the shell variable of its name in capitals, e.g. {@code $PASSWORD}. Every value the
 * user chose is single-quoted for a POSIX shell.
 */
@Component
class CurlCommands {
    private static final Pattern CURL_SPECIAL = Pattern.compile("[;,\"\\\\]");
    private static final String AUTH = "-H \"Authorization: Bearer $DOCAPI_KEY\"";
    private final PublicBaseUrl baseUrl;
    private final JsonMapper json;

    CurlCommands(PublicBaseUrl baseUrl, JsonMapper json) {
        this.baseUrl = baseUrl;
        this.json = json;
    }

    /** An input file of the run: its id and its name (the file to upload). */
    record Input(String id, String name) {
    }

    /**
     * @param options the run's options as stored on the job (secrets removed)
     */
    String of(Operation<?> op, List<Input> inputs, ObjectNode options) {
        List<OptionField> secrets = op.options().fields().stream().filter(OptionField::isSecret).toList();
        StringBuilder out = new StringBuilder("# DOCAPI_KEY: one of your API keys (page \"API keys\")\n");
        for (OptionField s : secrets) {
            out.append("# ").append(variable(s)).append(": the ").append(s.name()).append(" (docapi does not keep it, so it is not repeated here)\n");
        }
        out.append("API=").append(quote(baseUrl.get())).append("\n\n");
        for (Input in : inputs) {
            out.append("# upload: the answer's \"id\" is the file id (this run's: ").append(in.id()).append(")\n")
                    .append("curl -s ").append(AUTH).append(" -F ").append(quote("file=@" + curlFileName(in.name()))).append(" \"$API/files\"\n");
        }
        ObjectNode body = json.createObjectNode();
        if (op.inputs().many()) {
            var ids = body.putArray("files");
            inputs.forEach(in -> ids.add(in.id()));
        } else {
            body.put("file", inputs.getFirst().id());
        }
        body.setAll(options);
        out.append("# run ").append(op.name()).append(": the finished job within ").append(JobResponses.DEFAULT_WAIT).append(" s, else 202 and the job to poll (GET /v1/jobs/{id})\n")
                .append("curl -s ").append(AUTH).append(" -H 'Content-Type: application/json' \\\n     -d ")
                .append(data(json.writeValueAsString(body), secrets)).append(" \"$API/").append(op.name()).append("\"\n");
        return out.toString();
    }

    /** The JSON body in single quotes, each secret member closed around its shell variable: {@code "password":"'"$PASSWORD"'"}. */
    private static String data(String body, List<OptionField> secrets) {
        StringBuilder literal = new StringBuilder(body.substring(0, body.length() - 1));
        StringBuilder out = new StringBuilder();
        for (OptionField s : secrets) {
            literal.append(",\"").append(s.name()).append("\":\"");
            out.append(quote(literal.toString())).append("\"$").append(variable(s)).append('"');
            literal.setLength(0);
            literal.append('"');
        }
        return out.append(quote(literal.append('}').toString())).toString();
    }

    private static String variable(OptionField secret) {
        return secret.name().toUpperCase(Locale.ROOT);
    }

    /** A file name as curl's {@code -F name=@file} reads it: in double quotes when it has {@code ; , " \}. */
    private static String curlFileName(String name) {
        return CURL_SPECIAL.matcher(name).find() ? "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : name;
    }

    /** POSIX shell single quotes: nothing inside is expanded; a single quote is closed, escaped and reopened. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
