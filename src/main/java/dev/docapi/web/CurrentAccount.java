package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.AccountService;
import java.security.Principal;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;

/** The signed-in owner's account: the session's principal is the account's email. */
@Component
class CurrentAccount {
    private final AccountService accounts;

    CurrentAccount(AccountService accounts) {
        this.accounts = accounts;
    }

    Account of(Principal principal) {
        return accounts.findByEmail(principal.getName()).orElseThrow(() -> new ResponseStatusException(HttpStatus.UNAUTHORIZED));
    }

    /** 404 for what is not the account's own: another account's id answers exactly like an unknown one. */
    static ResponseStatusException notFound() {
        return new ResponseStatusException(HttpStatus.NOT_FOUND);
    }
}
