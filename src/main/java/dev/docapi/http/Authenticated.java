package dev.docapi.http;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import jakarta.servlet.http.HttpServletRequest;

/** The account the {@link dev.docapi.api.AuthFilter} found for a request. */
public final class Authenticated {
    /** The request attribute {@code AuthFilter} (in {@code api}) sets to the account. */
    public static final String ATTRIBUTE = "docapi.account";

    private Authenticated() {
    }

    /** @throws ApiException 401 {@code missing_api_key} when the request carried no valid key */
    public static Account account(HttpServletRequest request) {
        Account a = (Account) request.getAttribute(ATTRIBUTE);
        if (a == null) throw new ApiException(ErrorCode.MISSING_API_KEY, "send your API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'");
        return a;
    }

    /** The account, or null for a request without a key (signed content links). */
    public static Account optional(HttpServletRequest request) {
        return (Account) request.getAttribute(ATTRIBUTE);
    }
}
