// The merchant API of checkout-server, as this shop's backend uses it: create a checkout
// session, read it back with its payments, refund a payment. Node's built-in fetch only.
//
// The merchant key is sent from here, server to server, and nowhere else: never put it in a
// page, a URL or a log line.

/** checkout-server answered with an error (`{"error": {"code", "message"}}`) or not at all. */
export class CheckoutError extends Error {
  constructor(status, code, message) {
    super(`checkout-server: HTTP ${status} ${code}: ${message}`);
    this.status = status;
    this.code = code;
  }
}

/** A client of the merchant API at `baseUrl`, authenticated with the merchant secret key. */
export class CheckoutApi {
  #secretKey;

  constructor(baseUrl, secretKey, timeoutMs = 30_000) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.#secretKey = secretKey;
    this.timeoutMs = timeoutMs;
  }

  /** `POST /v1/sessions`: the session, with its `client_secret` (only in this answer). */
  createSession({ amount, currency, reference, description, idempotencyKey }) {
    const body = { amount, currency, reference };
    if (description) body.description = description;
    return this.#call("POST", "/v1/sessions", body, idempotencyKey);
  }

  /** `GET /v1/sessions/{id}`: the session's `status` and its `payments`, newest first. */
  session(sessionId) {
    return this.#call("GET", `/v1/sessions/${encodeURIComponent(sessionId)}`);
  }

  /** `POST /v1/payments/{id}/refund`: all that is refundable, or `amount` minor units. */
  refund(paymentId, { amount, idempotencyKey }) {
    const body = amount === undefined ? {} : { amount };
    return this.#call("POST", `/v1/payments/${encodeURIComponent(paymentId)}/refund`, body, idempotencyKey);
  }

  async #call(method, path, body, idempotencyKey) {
    const headers = { Authorization: `Bearer ${this.#secretKey}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    // The same key makes a retried POST safe: checkout-server replays its first answer.
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    let response;
    try {
      response = await fetch(this.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CheckoutError(0, "unreachable", `${method} ${path}: ${error.message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      let code = "http_error";
      let message = response.statusText;
      try {
        ({ code, message } = JSON.parse(text).error);
      } catch {
        // not the API's error shape: keep the HTTP status
      }
      throw new CheckoutError(response.status, code, message);
    }
    return JSON.parse(text);
  }
}
