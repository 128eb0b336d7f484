#!/usr/bin/env python3
"""An Agent Teams worker in plain Python: the standard library only, no SDK.

It holds its agent's job stream (server-sent events), and for each job it is offered it reports
`started`, heartbeats the lease while it works, acts as the job's member with the member token
(reads the team context, publishes a finding), and reports `completed` with its answer. When the
stream drops it reconnects with back-off and jitter. A reconciliation offer (an earlier lease
lapsed) is answered from the worker's own record: an outcome it has is reported again, a job no
runtime ever started is run, and anything else is failed as unknown rather than run twice.

    python3 worker.py --gateway http://localhost:8080 --agent my-agent --token "$WORKER_TOKEN"

The token comes from the owner: POST /api/v1/agents/{agent}/tokens. Stop it with Ctrl+C.
"""

import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid


class ApiError(Exception):
    """An error answer of the API, with its Problem Details."""

    def __init__(self, status, problem):
        super().__init__(f"{status} {problem.get('code', '')}: {problem.get('detail', '')}")
        self.status = status
        self.problem = problem


class Gateway:
    """Calls to the gateway with one bearer token."""

    def __init__(self, base, token):
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method, path, body=None, token=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", "Bearer " + (token or self.token))
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode("utf-8")
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            try:
                problem = json.loads(text)
            except ValueError:
                problem = {"detail": text}
            raise ApiError(error.code, problem) from None

    def events(self, path):
        """Yields (event, data) from a server-sent event stream until it ends."""
        request = urllib.request.Request(self.base + path)
        request.add_header("Authorization", "Bearer " + self.token)
        request.add_header("Accept", "text/event-stream")
        try:
            response = urllib.request.urlopen(request, timeout=60)
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            try:
                problem = json.loads(text)
            except ValueError:
                problem = {"detail": text}
            raise ApiError(error.code, problem) from None
        with response:
            event, data = "message", []
            for raw in response:
                line = raw.decode("utf-8").rstrip("\r\n")
                if not line:
                    if data:
                        yield event, "\n".join(data)
                    event, data = "message", []
                elif line.startswith(":"):
                    continue  # a heartbeat comment
                else:
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "event":
                        event = value
                    elif field == "data":
                        data.append(value)


class Worker:
    """Runs the jobs of one agent, one at a time."""

    def __init__(self, gateway, agent, worker_id, lease_seconds, exit_after):
        self.gateway = gateway
        self.agent = agent
        self.worker_id = worker_id
        self.lease_seconds = lease_seconds
        self.exit_after = exit_after
        self.record = {}  # job id -> the answer reported (this worker's own record)
        self.seen = set()
        self.done = 0

    def run(self):
        query = urllib.parse.urlencode(
            {"worker_id": self.worker_id, "max_jobs": 1, "lease_seconds": self.lease_seconds})
        path = f"/api/v1/agents/{urllib.parse.quote(self.agent)}/jobs/stream?{query}"
        failures = 0
        while self.exit_after is None or self.done < self.exit_after:
            try:
                for event, data in self.gateway.events(path):
                    failures = 0
                    if event == "job":
                        self.take(json.loads(data))
                        if self.exit_after is not None and self.done >= self.exit_after:
                            return
            except ApiError as error:
                if error.status in (401, 403, 404):
                    raise  # a refused token or someone else's agent: retrying cannot help
                log(f"job stream refused ({error}); reconnecting")
            except (OSError, ValueError) as error:
                log(f"job stream dropped ({error}); reconnecting")
            # Exponential back-off with full jitter, capped at 15 s.
            time.sleep(random.uniform(0.25, min(15.0, 0.5 * 2 ** failures)))
            failures += 1

    def take(self, offer):
        job = offer["job_id"]
        seen_before = job in self.seen
        self.seen.add(job)
        if offer["reconcile"]:
            if job in self.record:
                log(f"job {job}: reporting the outcome already recorded")
                self.report(offer, "completed", answer=self.record[job])
                return
            never_got_it = offer.get("previous_worker_id") == self.worker_id and not seen_before
            if offer.get("previously_started") and not never_got_it:
                self.report(offer, "failed", error="outcome unknown: another runtime started it"
                            " and this worker has no record of it; not run again")
                return
        self.report(offer, "started")
        stop = threading.Event()
        beating = threading.Thread(target=self.heartbeat, args=(offer, stop), daemon=True)
        beating.start()
        try:
            answer = self.work(offer)
            self.record[job] = answer
        except Exception as error:  # the agent failed: say so rather than leave the job hanging
            stop.set()
            self.report(offer, "failed", error=str(error))
            self.done += 1
            return
        stop.set()
        self.report(offer, "completed", answer=answer)
        self.done += 1

    def work(self, offer):
        """The agent itself: acts as the member, with the member token of this job."""
        team, member, token = offer["team_id"], offer["member"], offer["member_token"]
        context = self.gateway.call("GET", offer["team_context"], token=token)
        self.gateway.call("POST", f"/api/v1/teams/{team}/state", {
            "request_id": "python-" + offer["job_id"],  # a retry returns the same entry
            "kind": "finding",
            "title": "From the Python worker",
            "content": f"{member} read the goal: {context['goal']}"[:1000],
        }, token=token)
        # The request is data from whoever asked, never an instruction to this worker.
        return f"Python worker {self.worker_id} ({member}) read the goal and the request: {offer['input']}"

    def heartbeat(self, offer, stop):
        every = max(0.2, offer["lease_ttl_seconds"] / 3)
        while not stop.wait(every):
            try:
                self.report(offer, "heartbeat", attempts=1)
            except ApiError as error:
                log(f"heartbeat refused: {error}")
                return

    def report(self, offer, kind, attempts=20, **fields):
        body = {"type": kind, "lease_token": offer["lease_token"], "run_id": self.worker_id}
        if kind in ("completed", "failed"):
            body["usage"] = {"tokens": 0, "cost_units": 0}
        body.update(fields)
        for attempt in range(attempts):
            try:
                return self.gateway.call("POST", f"/api/v1/jobs/{offer['job_id']}/events", body)
            except ApiError as error:
                if error.status < 500 and error.status != 429:
                    raise
            except OSError:
                pass
            if attempt + 1 < attempts:
                time.sleep(random.uniform(0.1, min(5.0, 0.25 * 2 ** attempt)))
        raise OSError(f"could not report {kind} for job {offer['job_id']}")


def log(message):
    print(message, file=sys.stderr, flush=True)


def main():
    parser = argparse.ArgumentParser(description="An Agent Teams worker in plain Python.")
    parser.add_argument("--gateway", default=os.environ.get("AGENTTEAMS_GATEWAY", "http://localhost:8080"))
    parser.add_argument("--agent", required=True, help="the agent whose jobs this worker runs")
    parser.add_argument("--token", default=os.environ.get("AGENTTEAMS_WORKER_TOKEN"),
                        help="a worker token for that agent (or AGENTTEAMS_WORKER_TOKEN)")
    parser.add_argument("--worker-id", default="python-" + uuid.uuid4().hex[:8])
    parser.add_argument("--lease-seconds", type=int, default=30)
    parser.add_argument("--exit-after", type=int, default=None,
                        help="stop after this many jobs (default: run until stopped)")
    args = parser.parse_args()
    if not args.token:
        parser.error("a worker token is needed: --token or AGENTTEAMS_WORKER_TOKEN")
    worker = Worker(Gateway(args.gateway, args.token), args.agent, args.worker_id,
                    args.lease_seconds, args.exit_after)
    log(f"worker {args.worker_id} runs the jobs of agent {args.agent} at {args.gateway}")
    try:
        worker.run()
    except KeyboardInterrupt:
        pass
    except ApiError as error:
        log(f"stopped: {error}")
        return 1
    log(f"worker {args.worker_id} ran {worker.done} job(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
