#!/usr/bin/env python3
"""How fast a follower learns of a move: an open event stream against a long-poll.

Starts `beurs serve` (the binary given, on a scratch database), seats three players in a
Tulipmania game, and makes MOVES moves with a pause between them, while two followers watch
as a spectator: one reads `GET /v1/games/{id}/events`, the other long-polls `GET
/v1/games/{id}?after_version=…&wait=20`. For each move it records when the mover sent it and
when each follower first saw its version, and prints the percentiles of that delay and the
requests each follower made. The one-batch streams that AWS answers are long-polls in the
stream's format (the same wait, api::routes::games::wait_for_version), so the long-poll's
figures stand for them. Outside CI; docs/benchmarks.md records a run.

    python3 tools/follow-latency.py target/release/beurs [MOVES]
"""

import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/beurs"
MOVES = int(sys.argv[2]) if len(sys.argv) > 2 else 200


def call(host, port, method, path, body=None, token=None):
    connection = http.client.HTTPConnection(host, port, timeout=60)
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, json.loads(data) if data else None


def main():
    scratch = tempfile.mkdtemp()
    server = subprocess.Popen(
        [BIN, "serve", "--addr", "127.0.0.1:0", "--db", os.path.join(scratch, "m.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        line = server.stdout.readline()
        while "listening on" not in line:
            line = server.stdout.readline()
        address = line.split("listening on http://")[1].split()[0]
        host, port = address.rsplit(":", 1)
        port = int(port)
        status, created = call(host, port, "POST", "/v1/games",
                               {"ruleset": "tulipmania-1637", "seats": 3, "options": {"max_turns": 1000}})
        game = created["id"]
        tokens = []
        for seat in range(3):
            _, claimed = call(host, port, "POST", f"/v1/games/{game}/seats/{seat}", {"name": f"p{seat}"})
            tokens.append(claimed["player_token"])

        seen = {"stream": {}, "poll": {}}
        requests = {"stream": 0, "poll": 0}
        done = threading.Event()

        def stream():
            requests["stream"] += 1
            connection = http.client.HTTPConnection(host, port, timeout=120)
            connection.request("GET", f"/v1/games/{game}/events")
            response = connection.getresponse()
            event = None
            while not done.is_set():
                raw = response.fp.readline()
                if not raw:
                    break
                text = raw.decode().rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("id: ") and event == "game":
                    version = int(text[4:].split("-")[0])
                    seen["stream"].setdefault(version, time.monotonic())

        def poll():
            version = 0
            while not done.is_set():
                requests["poll"] += 1
                _, envelope = call(host, port, "GET", f"/v1/games/{game}?after_version={version}&wait=20")
                now = time.monotonic()
                if envelope["version"] > version:
                    version = envelope["version"]
                    seen["poll"].setdefault(version, now)

        threads = [threading.Thread(target=stream, daemon=True), threading.Thread(target=poll, daemon=True)]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        rng = random.Random(1637)
        sent = {}
        for _ in range(MOVES):
            _, envelope = call(host, port, "GET", f"/v1/games/{game}")
            if envelope["status"] != "active":
                break
            seat = rng.choice(envelope["to_act"])
            _, legal = call(host, port, "GET", f"/v1/games/{game}/legal-actions", token=tokens[seat])
            concrete = [entry["action"] for entry in legal["actions"] if "action" in entry and entry["action"]["type"] != "undo"]
            started = time.monotonic()
            status, result = call(host, port, "POST", f"/v1/games/{game}/actions", {"action": rng.choice(concrete)}, tokens[seat])
            if status == 200:
                sent[result["version"]] = started
            time.sleep(0.05)
        time.sleep(1.0)
        done.set()

        print(f"{len(sent)} moves by {BIN}")
        for follower in ("stream", "poll"):
            delays = sorted((seen[follower][version] - at) * 1000 for version, at in sent.items() if version in seen[follower])
            missed = len(sent) - len(delays)
            if not delays:
                print(f"{follower}: saw nothing")
                continue
            pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]
            print(f"{follower:>6}: p50 {pick(0.5):.2f} ms, p95 {pick(0.95):.2f} ms, max {delays[-1]:.2f} ms; "
                  f"{requests[follower]} requests; {missed} versions not seen on their own")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
