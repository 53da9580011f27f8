package dev.docapi.engines.dss;

import java.io.IOException;

/**
 * An RFC 3161 timestamp authority as the signer reaches it: one request's DER bytes posted, the response's DER bytes
 * returned. The caller decides how it is reached (the service's SSRF-safe client, issue 27).
 */
@FunctionalInterface
public interface TimestampAuthority {

    /**
     * @param request a DER {@code TimeStampReq}
     * @return the DER {@code TimeStampResp}
     * @throws IOException when the authority cannot be reached or answers with an HTTP error
     */
    byte[] post(byte[] request) throws IOException;
}
