"""The merchant API of checkout-server, as this shop's backend uses it: create a checkout
session, read it back with its payments, refund a payment. Standard library only (urllib).

The merchant key is sent from here, server to server, and nowhere else: never put it in a
page, a URL or a log line.
"""

import json
import urllib.error
import urllib.parse
import urllib.request


class CheckoutError(Exception):
    """checkout-server answered with an error (`{"error": {"code", "message"}}`) or not at all."""

    def __init__(self, status, code, message):
        super().__init__(f"checkout-server: HTTP {status} {code}: {message}")
        self.status = status
        self.code = code


class CheckoutAPI:
    """A client of the merchant API at `base_url`, authenticated with the merchant secret key."""

    def __init__(self, base_url, secret_key, timeout=30):
        self.base_url = base_url.rstrip("/")
        self._secret_key = secret_key
        self._timeout = timeout

    def create_session(self, *, amount, currency, reference, description=None, idempotency_key):
        """`POST /v1/sessions`: the session, with its `client_secret` (only in this answer)."""
        body = {"amount": amount, "currency": currency, "reference": reference}
        if description:
            body["description"] = description
        return self._call("POST", "/v1/sessions", body, idempotency_key)

    def session(self, session_id):
        """`GET /v1/sessions/{id}`: the session's `status` and its `payments`, newest first."""
        return self._call("GET", "/v1/sessions/" + _segment(session_id))

    def refund(self, payment_id, *, amount=None, idempotency_key):
        """`POST /v1/payments/{id}/refund`: all that is refundable, or `amount` minor units."""
        body = {} if amount is None else {"amount": amount}
        path = "/v1/payments/" + _segment(payment_id) + "/refund"
        return self._call("POST", path, body, idempotency_key)

    def _call(self, method, path, body=None, idempotency_key=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Authorization", "Bearer " + self._secret_key)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if idempotency_key:
            # The same key makes a retried POST safe: checkout-server replays its first answer.
            request.add_header("Idempotency-Key", idempotency_key)
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            code, message = _error_of(error)
            raise CheckoutError(error.code, code, message) from None
        except (urllib.error.URLError, TimeoutError) as error:
            raise CheckoutError(0, "unreachable", f"{method} {path}: {error}") from None


def _segment(value):
    """An id as one path segment."""
    return urllib.parse.quote(value, safe="")


def _error_of(error):
    """The `code` and `message` of an error answer, or the HTTP reason."""
    try:
        detail = json.load(error)["error"]
        return detail["code"], detail["message"]
    except (ValueError, KeyError, TypeError):
        return "http_error", str(error.reason)
