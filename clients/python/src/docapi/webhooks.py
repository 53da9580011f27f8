"""Webhook signature verification (spec §6): `Service-Signature: t=<unix seconds>,v1=<hex>`, where v1 is the
lowercase hex HMAC-SHA256, keyed with the account's webhook signing secret, of `<t>.<raw body>`."""
from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any

SIGNATURE_HEADER = "Service-Signature"
#: The delivery's id (Standard Webhooks' name): the same on every retry of one delivery, so a receiver that already
#: handled it can answer 2xx and do nothing.
DELIVERY_ID_HEADER = "webhook-id"


class WebhookSignatureError(Exception):
    """The delivery is refused; the message says which check failed."""


def verify(payload: bytes, header: str | None, secret: str, tolerance: float = 300, now: float | None = None) -> dict[str, Any]:
    """Verifies a delivery and returns its event `{type, created_at, data: Job}`.

    Args:
        payload: the request body exactly as received (not re-serialised JSON)
        header: the Service-Signature header value
        secret: the account's webhook signing secret (whsec_...)
        tolerance: largest accepted distance between the signature's time and now, in seconds
        now: the current Unix time (for tests); default the clock

    Raises:
        WebhookSignatureError: the header is missing or malformed, no v1 matches (compared in constant time), or
            its time is more than `tolerance` seconds from now
    """
    if not header:
        raise WebhookSignatureError(f"no {SIGNATURE_HEADER} header")
    timestamp = None
    signatures = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1" and value:
            signatures.append(value)
    if timestamp is None or not signatures:
        raise WebhookSignatureError(f"{SIGNATURE_HEADER} is not t=<unix time>,v1=<hex>")
    expected = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + payload, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, s) for s in signatures):
        raise WebhookSignatureError("no signature matches the body and the secret")
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        raise WebhookSignatureError(f"the signature's timestamp is more than {tolerance:g} s from now")
    return json.loads(payload.decode("utf-8"))
