package dev.docapi.engines.dss;

import eu.europa.esig.dss.enumerations.DigestAlgorithm;
import eu.europa.esig.dss.model.DSSException;
import eu.europa.esig.dss.model.TimestampBinary;
import eu.europa.esig.dss.spi.x509.tsp.TSPSource;
import java.io.IOException;
import java.math.BigInteger;
import java.security.SecureRandom;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.tsp.TSPException;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampRequestGenerator;
import org.bouncycastle.tsp.TimeStampResponse;

/**
 * DSS's {@link TSPSource} over a {@link TimestampAuthority}: an RFC 3161 request with a nonce and the certificate
 * asked for, the response checked against it with BouncyCastle (status granted, same digest and nonce).
 */
final class TimestampSource implements TSPSource {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The authority was unreachable or refused: its message is client-safe. */
    static final class Failure extends DSSException {
        Failure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final transient TimestampAuthority authority;

    TimestampSource(TimestampAuthority authority) {
        this.authority = authority;
    }

    @Override
    public TimestampBinary getTimeStampResponse(DigestAlgorithm digestAlgorithm, byte[] digest) {
        TimeStampRequestGenerator generator = new TimeStampRequestGenerator();
        generator.setCertReq(true);
        TimeStampRequest request = generator.generate(new ASN1ObjectIdentifier(digestAlgorithm.getOid()), digest, new BigInteger(64, RANDOM));
        byte[] answer;
        try {
            answer = authority.post(request.getEncoded());
        } catch (IOException e) {
            throw new Failure(e.getMessage(), e);
        }
        try {
            TimeStampResponse response = new TimeStampResponse(answer);
            response.validate(request);
            if (response.getTimeStampToken() == null) {
                throw new Failure("it answered without a timestamp (" + (response.getStatusString() != null ? response.getStatusString() : "status " + response.getStatus()) + ")", null);
            }
            return new TimestampBinary(response.getTimeStampToken().getEncoded());
        } catch (TSPException | IOException | IllegalArgumentException e) {
            throw new Failure("its answer is not a valid RFC 3161 timestamp response: " + e.getMessage(), e);
        }
    }
}
