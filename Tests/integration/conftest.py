"""Fixtures: the real notifyd binary on a temporary socket, and small raw-socket helpers."""
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("NOTIFYD_BIN_DIR", os.path.join(ROOT, ".build", "debug"))
NOTIFYD = os.path.join(BIN, "notifyd")
NOTIFYCTL = os.path.join(BIN, "notifyctl")
SHOP = os.path.join(ROOT, "config", "shop.yaml")
EXAMPLES = os.path.join(ROOT, "examples", "payloads")
POSTGRES_SERVER = os.path.join(ROOT, "Tests", "postgres", "server.sh")


def pytest_addoption(parser):
    parser.addoption(
        "--store", default=os.environ.get("NOTIFYD_TEST_STORE", "sqlite"), choices=["sqlite", "postgresql"],
        help="the store the daemons of the suites use: sqlite (a state directory each) or postgresql (a schema each "
             "in a private server started once for the session)")


def pytest_configure(config):
    global STORE_KIND
    STORE_KIND = config.getoption("--store")
    config.addinivalue_line("markers", "sqlite_only: reads the SQLite file itself; skipped against PostgreSQL")


def pytest_collection_modifyitems(config, items):
    if STORE_KIND != "postgresql":
        return
    skip = pytest.mark.skip(reason="reads or damages the SQLite file itself (run with --store sqlite)")
    for item in items:
        if "sqlite_only" in item.keywords:
            item.add_marker(skip)


def pytest_unconfigure(config):
    if PostgresServer.shared is not None:
        PostgresServer.shared.stop()


STORE_KIND = "sqlite"


class PostgresServer:
    """A private PostgreSQL (Tests/postgres/server.sh) in a directory under /tmp, for the session."""

    shared = None

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="notifyd-pg-", dir="/tmp")
        self.conninfo = self._server("start")
        self.socket_dir = os.path.join(self.directory, "socket")
        self.schemas = 0

    @classmethod
    def get(cls):
        """The session's server, started on first use."""
        if cls.shared is None:
            cls.shared = PostgresServer()
        return cls.shared

    def _server(self, command):
        run = subprocess.run(["bash", POSTGRES_SERVER, command, self.directory], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    def restart(self):
        self._server("restart")

    def kill(self):
        self._server("kill")

    def start(self):
        self._server("start")

    def stop(self):
        self._server("stop")
        shutil.rmtree(self.directory, ignore_errors=True)

    def psql(self, sql, schema=None):
        """Runs `sql` with psql as postgres; returns the rows, columns separated by '|'."""
        env = dict(os.environ, PGOPTIONS=f"-csearch_path={schema}" if schema else "")
        run = subprocess.run(
            ["runuser", "-u", "postgres", "--", "psql", "-h", self.socket_dir, "-d", "notifyd", "-tAX", "-v",
             "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True, timeout=60, env=env)
        assert run.returncode == 0, run.stderr
        return [line for line in run.stdout.splitlines() if line]

    def new_store(self):
        """The connection string of a schema of its own (a fresh, empty store), and the schema's name."""
        self.schemas += 1
        schema = f"t{os.getpid()}_{self.schemas}"
        self.psql(f"CREATE SCHEMA {schema}")
        return f"{self.conninfo} options=-csearch_path={schema}", schema


def wait_for_socket(path, process, timeout=20.0):
    """Waits until something accepts on `path` (not a sleep: it retries connect until it succeeds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = getattr(process, "log_path", None)
            text = open(log).read() if log else ""
            raise RuntimeError(f"notifyd exited with {process.returncode}: {text}")
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return
        except OSError:
            time.sleep(0.01)
        finally:
            s.close()
    raise TimeoutError(f"notifyd did not listen on {path}")


class Daemon:
    """A running notifyd with its socket, state directory and config path."""

    def __init__(self, workdir, extra_args=(), config=SHOP, state=True, store=None):
        """`store`: a PostgreSQL connection string (`--store`); against PostgreSQL (`--store postgresql` of pytest)
        a daemon with state gets a schema of its own, else it gets a state directory."""
        self.workdir = workdir
        self.socket = os.path.join(workdir, "notifyd.sock")
        self.store = store
        self.schema = None
        if store is None and state and STORE_KIND == "postgresql":
            self.store, self.schema = PostgresServer.get().new_store()
        self.state_dir = os.path.join(workdir, "state") if state and not self.store else None
        self.config = os.path.join(workdir, "notifyd.yaml")
        shutil.copy(config, self.config)
        self.extra_args = list(extra_args)
        self.process = None

    def start(self, umask=None):
        """Starts the daemon; with `umask`, under that file mode mask instead of this process's."""
        args = [NOTIFYD, "--config", self.config, "--socket", self.socket, "--log-target", "console"]
        if self.state_dir:
            os.makedirs(self.state_dir, exist_ok=True)
            args += ["--state-dir", self.state_dir]
        if self.store:
            args += ["--store", self.store]
        self.log_path = os.path.join(self.workdir, "notifyd.log")
        # A file, not a pipe: an unread pipe would fill and stall the daemon's console log writer.
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                args + self.extra_args, stderr=log, preexec_fn=None if umask is None else (lambda: os.umask(umask)))
        self.process.log_path = self.log_path
        wait_for_socket(self.socket, self.process)
        return self

    def log(self):
        return open(self.log_path).read()

    def logged(self, text, timeout=20.0):
        """True once `text` is in the log (the journal writer runs on its own thread, a little later)."""
        deadline = time.monotonic() + timeout
        while text not in self.log():
            if time.monotonic() > deadline or (self.process and self.process.poll() is not None):
                return text in self.log()
            time.sleep(0.01)
        return True

    def stop(self, sig=signal.SIGTERM, timeout=20):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode if self.process else None

    def call(self, method, parameters=None, **flags):
        """One call on a new connection; returns the reply object."""
        with Raw(self.socket) as raw:
            raw.send(call(method, parameters, **flags))
            return raw.recv()

    def alive_and_answering(self):
        """A normal request on a new connection gets a correct answer."""
        reply = self.call("io.notifyd.Router.Resolve", {"link": "shop://offers/SUMMER", "dryRun": True})
        return reply.get("parameters", {}).get("decision", {}).get("page", {}).get("id") == "cart.offer"


def shop_without_fallback(directory):
    """config/shop.yaml without its app.fallback, written in `directory`: refused links are NoRoute there."""
    text = open(SHOP).read()
    without = re.sub(r"(?m)^  fallback: .*\n", "", text)
    assert without != text
    path = os.path.join(directory, "nofallback.yaml")
    with open(path, "w") as f:
        f.write(without)
    return path


def call(method, parameters=None, **flags):
    message = {"method": method}
    if parameters is not None:
        message["parameters"] = parameters
    message.update(flags)
    return json.dumps(message).encode() + b"\0"


class Raw:
    """A raw varlink connection: bytes in, NUL-framed JSON replies out."""

    def __init__(self, path, timeout=10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.sock.close()

    def send(self, data):
        self.sock.sendall(data)

    def recv(self):
        """The next reply, or None when the daemon closed the connection."""
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        frame, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(frame)

    def closed_by_peer(self):
        """True when the daemon closes the connection (reads until EOF; replies before it are skipped)."""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False


@pytest.fixture
def workdir():
    d = tempfile.mkdtemp(prefix="notifyd-test-")
    os.chmod(d, 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    """The session's private PostgreSQL server."""
    return PostgresServer.get()


@pytest.fixture
def daemon(workdir):
    d = Daemon(workdir).start()
    yield d
    d.stop()


@pytest.fixture
def make_daemon(workdir):
    started = []

    def make(*extra_args, **kwargs):
        path = os.path.join(workdir, f"d{len(started)}")
        os.makedirs(path, exist_ok=True)
        os.chmod(path, 0o755)
        d = Daemon(path, extra_args, **kwargs)
        started.append(d)
        return d

    yield make
    for d in started:
        d.stop()


@contextlib.contextmanager
def full_state_directory(d):
    """Runs daemon `d` on a 320 KiB tmpfs as its state directory, so that commits fail once it fills up.

    Skips the test where no tmpfs can be mounted; stops the daemon and unmounts afterwards."""
    os.makedirs(d.state_dir)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=320k", "notifyd-full", d.state_dir]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        d.start()
        yield d
    finally:
        d.stop()
        subprocess.run(["umount", d.state_dir])


def fill_until_refused(d, refusals):
    """Stores one decision per new device until `refusals` of them are refused with StateNotSaved.

    Returns (acknowledged, refused): (device number, decision id) pairs, and the refused device numbers."""
    acknowledged, refused = [], []
    with Raw(d.socket) as raw:
        for i in range(5000):
            link = f"shop://offers/FULL{i}-" + "x" * 200
            raw.send(call("io.notifyd.Router.Resolve", {"link": link, "device": f"full-{i}"}))
            reply = raw.recv()
            if "error" in reply:
                assert reply["error"] == "io.notifyd.Router.StateNotSaved", reply
                assert "not applied" in reply["parameters"]["reason"]
                refused.append(i)
                if len(refused) >= refusals:
                    break
            else:
                acknowledged.append((i, reply["parameters"]["decision"]["id"]))
    return acknowledged, refused


def start_with_broken_config(workdir):
    """Starts notifyd on a copy of shop.yaml with two errors (an unknown root, an unknown kind); returns the run."""
    config = os.path.join(workdir, "bad.yaml")
    with open(SHOP) as f:
        text = f.read()
    with open(config, "w") as f:
        f.write(text.replace("root: main", "root: nowhere", 1).replace("kind: stack", "kind: stackk", 1))
    return subprocess.run(
        [NOTIFYD, "--config", config, "--socket", os.path.join(workdir, "s.sock"), "--log-target", "console"],
        capture_output=True, text=True, timeout=30)
