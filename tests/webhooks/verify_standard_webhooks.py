"""Checks Beurs webhook signatures with the reference Standard Webhooks implementation.

Reads a JSON list of deliveries on stdin, each {"secret", "id", "timestamp", "signature",
"body"}, and verifies every one with the `standardwebhooks` package (PyPI), an implementation
independent of ours. As a control, each delivery with its body altered must fail to verify.
Prints how many were checked; exits non-zero on the first failure.
"""

import json
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def main() -> int:
    deliveries = json.load(sys.stdin)
    for delivery in deliveries:
        headers = {
            "webhook-id": delivery["id"],
            "webhook-timestamp": delivery["timestamp"],
            "webhook-signature": delivery["signature"],
        }
        webhook = Webhook(delivery["secret"])
        payload = webhook.verify(delivery["body"], headers)
        if not isinstance(payload, dict) or "type" not in payload:
            print(f"{delivery['id']}: verified, but the body is not a notification", file=sys.stderr)
            return 1
        try:
            webhook.verify(delivery["body"] + " ", headers)
        except WebhookVerificationError:
            pass
        else:
            print(f"{delivery['id']}: an altered body verified", file=sys.stderr)
            return 1
    print(f"verified {len(deliveries)} deliveries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
