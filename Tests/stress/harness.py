"""Shared pieces of the stress tools: a notifyd under test, a well-behaved probe client, and resource sampling.

Everything runs on a loopback Unix socket in a temporary directory; nothing here talks to the network.
"""
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("NOTIFYD_BIN_DIR", os.path.join(ROOT, ".build", "debug"))
NOTIFYD = os.path.join(BIN, "notifyd")
SHOP = os.path.join(ROOT, "config", "shop.yaml")
ROUTER = "io.notifyd.Router"

# Links with the page each one must resolve to in config/shop.yaml, used to check every reply.
EXPECTED = [
    ("shop://offers/SUMMER", "cart.offer", "routed"),
    ("shop://products/42", "catalog.product", "routed"),
    ("https://shop.example.com/catalog/shoes?page=2&sort=rating", "catalog.category", "routed"),
    ("shop://account/orders/17", "account.order", "gated"),
    ("shop://cart/checkout", "cart.checkout", "gated"),
    ("shop://no/such/page", "catalog.home", "fallback"),
]


def raise_fd_limit(wanted):
    """Raises this process's open-file limit to `wanted` (up to the hard limit); returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def frame(method, parameters=None, **flags):
    message = {"method": method}
    if parameters is not None:
        message["parameters"] = parameters
    message.update(flags)
    return json.dumps(message).encode() + b"\0"


def resolve_frame(link, device=None, dry_run=True):
    parameters = {"link": link, "dryRun": dry_run}
    if device is not None:
        parameters["device"] = device
    return frame(f"{ROUTER}.Resolve", parameters)


class Conn:
    """A blocking varlink connection: one frame out, one reply in."""

    def __init__(self, path, timeout=30.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send(self, data):
        self.sock.sendall(data)

    def recv(self):
        """The next reply, or None when the daemon closed the connection."""
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        data, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(data)

    def call(self, method, parameters=None, **flags):
        self.send(frame(method, parameters, **flags))
        return self.recv()


def check_decision(reply, page, outcome):
    """None when `reply` is a decision for `page` with `outcome`, else what is wrong."""
    if reply is None:
        return "connection closed without a reply"
    decision = reply.get("parameters", {}).get("decision")
    if not decision:
        return f"not a decision: {json.dumps(reply)[:200]}"
    if decision["page"]["id"] != page or decision["outcome"] != outcome:
        return f"wrong decision: {decision['page']['id']} {decision['outcome']}, expected {page} {outcome}"
    return None


# Arguments every daemon started here gets after its own (the tools' `--event-loops N`).
COMMON_ARGS = []


class Daemon:
    """A notifyd on a socket in its own temporary directory."""

    def __init__(self, extra_args=(), workdir=None, state=True):
        self.owns_workdir = workdir is None
        self.workdir = workdir or tempfile.mkdtemp(prefix="notifyd-stress-")
        os.chmod(self.workdir, 0o755)
        self.socket = os.path.join(self.workdir, "notifyd.sock")
        self.state_dir = os.path.join(self.workdir, "state") if state else None
        self.log_path = os.path.join(self.workdir, "notifyd.log")
        self.extra_args = list(extra_args)
        self.process = None

    def start(self, timeout=30.0, wait=True):
        args = [NOTIFYD, "--config", SHOP, "--socket", self.socket, "--log-target", "console"]
        if self.state_dir:
            os.makedirs(self.state_dir, exist_ok=True)
            args += ["--state-dir", self.state_dir]
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        with open(self.log_path, "a") as log:
            # The daemon inherits a raised fd limit from this process (set before start).
            self.process = subprocess.Popen(args + self.extra_args + COMMON_ARGS, stdout=subprocess.DEVNULL,
                                            stderr=log)
        if wait:
            self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout=30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"notifyd exited with {self.process.returncode}: {self.log()[-2000:]}")
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.socket)
                return
            except OSError:
                time.sleep(0.02)
            finally:
                s.close()
        raise TimeoutError("notifyd did not listen")

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def log(self):
        try:
            return open(self.log_path, errors="replace").read()
        except OSError:
            return ""

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout=20):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode if self.process else None

    def cleanup(self):
        self.stop()
        if self.owns_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    # Resources, read from /proc.

    def fd_count(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def memory_kib(self):
        """(VmRSS, VmHWM) in KiB."""
        values = {}
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value = line.split(":", 1)
                    values[key] = int(value.split()[0])
        return values.get("VmRSS", 0), values.get("VmHWM", 0)

    def answers(self):
        try:
            with Conn(self.socket, timeout=10) as c:
                return check_decision(c.call(f"{ROUTER}.Resolve", {"link": EXPECTED[0][0], "dryRun": True}),
                                      EXPECTED[0][1], EXPECTED[0][2]) is None
        except OSError:
            return False


class Probe(threading.Thread):
    """A well-behaved client that keeps asking, alternating a kept connection and fresh ones, checking each reply."""

    def __init__(self, daemon, pause=0.005):
        super().__init__(daemon=True)
        self.d = daemon
        self.pause = pause
        self.stopping = threading.Event()
        self.ok = 0
        self.errors = []
        self.max_latency = 0.0

    def run(self):
        kept = None
        i = 0
        while not self.stopping.is_set():
            link, page, outcome = EXPECTED[i % len(EXPECTED)]
            i += 1
            started = time.monotonic()
            try:
                if kept is None:
                    kept = Conn(self.d.socket, timeout=30)
                if i % 2:
                    kept.send(resolve_frame(link))
                    problem = check_decision(kept.recv(), page, outcome)
                else:
                    with Conn(self.d.socket, timeout=30) as fresh:
                        fresh.send(resolve_frame(link))
                        problem = check_decision(fresh.recv(), page, outcome)
            except OSError as error:
                problem = f"{type(error).__name__}: {error}"
                if kept is not None:
                    kept.close()
                kept = None
            self.max_latency = max(self.max_latency, time.monotonic() - started)
            if problem:
                self.errors.append(problem)
            else:
                self.ok += 1
            self.stopping.wait(self.pause)
        if kept is not None:
            kept.close()

    def stop(self):
        self.stopping.set()
        self.join(60)


class Sampler(threading.Thread):
    """Samples the daemon's RSS and fd count every `interval` seconds."""

    def __init__(self, daemon, interval=0.1):
        super().__init__(daemon=True)
        self.d = daemon
        self.interval = interval
        self.stopping = threading.Event()
        self.peak_rss = 0
        self.hwm = 0
        self.peak_fds = 0

    def sample(self):
        try:
            rss, hwm = self.d.memory_kib()
            self.peak_rss = max(self.peak_rss, rss)
            self.hwm = max(self.hwm, hwm)
            self.peak_fds = max(self.peak_fds, self.d.fd_count())
        except OSError:
            pass

    def run(self):
        while not self.stopping.is_set():
            self.sample()
            self.stopping.wait(self.interval)

    def stop(self):
        self.stopping.set()
        self.join(10)
        self.sample()


def settle_fds(daemon, baseline, timeout=15.0):
    """The daemon's fd count once it drops back to `baseline` (closing is asynchronous), or after `timeout`."""
    deadline = time.monotonic() + timeout
    count = daemon.fd_count()
    while count > baseline and time.monotonic() < deadline:
        time.sleep(0.05)
        count = daemon.fd_count()
    return count


def table(rows, headers):
    """A plain text table."""
    cells = [headers] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
