"""State that survives restarts, reloads that keep serving, and clean shutdown."""
import os
import signal
import subprocess

from conftest import NOTIFYD, SHOP, Raw, call, start_with_broken_config, wait_for_socket

ROUTER = "io.notifyd.Router"


def test_device_state_and_history_survive_a_restart(make_daemon):
    d = make_daemon().start()
    decision = d.call(f"{ROUTER}.Resolve", {"link": "shop://cart/checkout", "device": "phone-1"})["parameters"]["decision"]
    assert decision["outcome"] == "gated"
    assert d.stop() == 0
    d.start()
    state = d.call(f"{ROUTER}.GetState", {"device": "phone-1"})["parameters"]["state"]
    assert state["pending"]["page"]["id"] == "cart.checkout"
    again = d.call(f"{ROUTER}.GetDecision", {"id": decision["id"]})["parameters"]["decision"]
    assert again == decision


def test_state_survives_kill_9_for_every_acknowledged_decision(make_daemon):
    d = make_daemon().start()
    acknowledged = []
    with Raw(d.socket) as raw:
        for i in range(50):
            raw.send(call(f"{ROUTER}.Resolve", {"link": f"shop://offers/K{i}", "device": f"dev-{i % 5}"}))
            acknowledged.append(raw.recv()["parameters"]["decision"]["id"])
    d.process.kill()
    d.process.wait()
    d.start()
    for decision_id in acknowledged:
        assert "error" not in d.call(f"{ROUTER}.GetDecision", {"id": decision_id}), decision_id
    state = d.call(f"{ROUTER}.GetState", {"device": "dev-4"})["parameters"]["state"]
    assert state["stacks"]["cart"][-1]["arguments"]["id"] == "K49"


def test_sighup_with_a_broken_config_keeps_serving_then_picks_up_a_fixed_one(make_daemon):
    d = make_daemon().start()
    good = open(d.config).read()
    with open(d.config, "w") as f:
        f.write(good.replace("kind: stack", "kind: stackk", 1))
    d.process.send_signal(signal.SIGHUP)
    # Reload is synchronous inside the loop: the next request is answered after it.
    assert d.alive_and_answering()
    stats = d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]
    assert stats["configGeneration"] == 1
    rejected = d.call(f"{ROUTER}.Reload")
    assert rejected["error"] == f"{ROUTER}.ConfigInvalid"
    assert any("stackk" in e for e in rejected["parameters"]["errors"])
    with open(d.config, "w") as f:
        f.write(good.replace("/offers/{id}", "/deals/{id}"))
    reloaded = d.call(f"{ROUTER}.Reload")
    assert reloaded["parameters"]["generation"] == 2
    moved = d.call(f"{ROUTER}.Resolve", {"link": "shop://deals/X", "dryRun": True})
    assert moved["parameters"]["decision"]["page"]["id"] == "cart.offer"


def test_a_vanished_config_is_a_rejected_reload(make_daemon):
    d = make_daemon().start()
    os.remove(d.config)
    reply = d.call(f"{ROUTER}.Reload")
    assert reply["error"] == f"{ROUTER}.ConfigInvalid"
    assert "No such file" in reply["parameters"]["errors"][0]
    assert d.alive_and_answering()


def test_an_invalid_config_refuses_to_start_with_every_finding(workdir):
    result = start_with_broken_config(workdir)
    assert result.returncode == 1
    assert "nowhere" in result.stderr and "stackk" in result.stderr
    assert "bad.yaml:" in result.stderr


def test_a_corrupt_state_database_refuses_to_start(workdir):
    state = os.path.join(workdir, "state")
    os.makedirs(state)
    with open(os.path.join(state, "notifyd.sqlite"), "wb") as f:
        f.write(b"this is not a database" * 100)
    result = subprocess.run(
        [NOTIFYD, "--config", SHOP, "--socket", os.path.join(workdir, "s.sock"), "--state-dir", state,
         "--log-target", "console"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "notifyd.sqlite" in result.stderr
    with open(os.path.join(state, "notifyd.sqlite"), "rb") as f:
        assert f.read(22) == b"this is not a database"


def test_usage_errors_exit_2():
    result = subprocess.run([NOTIFYD, "--bogus"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "unknown option '--bogus'" in result.stderr
    result = subprocess.run([NOTIFYD], capture_output=True, text=True)
    assert result.returncode == 2 and "--config is required" in result.stderr


def test_help_goes_to_standard_output_and_exits_0():
    for flag in ("--help", "-h"):
        result = subprocess.run([NOTIFYD, flag], capture_output=True, text=True)
        assert result.returncode == 0 and result.stderr == ""
        assert "--config" in result.stdout and "--socket" in result.stdout
    # A mistake next to --help is still a mistake when it comes first.
    result = subprocess.run([NOTIFYD, "--bogus", "--help"], capture_output=True, text=True)
    assert result.returncode == 2 and "unknown option '--bogus'" in result.stderr


def test_socket_activation_through_systemd_socket_activate(workdir):
    path = os.path.join(workdir, "activated.sock")
    notify = os.path.join(workdir, "notify.sock")
    import socket as socketlib
    listener = socketlib.socket(socketlib.AF_UNIX, socketlib.SOCK_DGRAM)
    listener.bind(notify)
    listener.settimeout(20)
    env = dict(os.environ, NOTIFY_SOCKET=notify)
    process = subprocess.Popen(
        ["systemd-socket-activate", "-l", path, "--fdname=varlink", "-E", "NOTIFY_SOCKET", NOTIFYD, "--config", SHOP,
         "--log-target", "console"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_socket(path, process)
        with Raw(path) as raw:
            raw.send(call(f"{ROUTER}.Resolve", {"link": "shop://offers/ACT", "dryRun": True}))
            assert raw.recv()["parameters"]["decision"]["page"]["arguments"] == {"id": "ACT"}
        messages = []
        while not any(m.startswith("READY=1") for m in messages):
            messages.append(listener.recv(4096).decode())
        assert any("STATUS=serving generation 1" in m for m in messages)
        process.send_signal(signal.SIGTERM)
        while "STOPPING=1" not in messages:
            messages.append(listener.recv(4096).decode())
        assert process.wait(20) == 0
    finally:
        if process.poll() is None:
            process.kill()
        listener.close()


def test_the_daemon_allocates_with_mimalloc(daemon):
    """mimalloc's malloc serves the process: it is loaded, and found before the C library's (link-map order)."""
    assert daemon.call(f"{ROUTER}.Resolve", {"link": "shop://offers/M1", "dryRun": True})["parameters"]["decision"]
    with open(f"/proc/{daemon.process.pid}/maps") as maps:
        assert "libmimalloc.so" in maps.read()
    listing = subprocess.run(
        [NOTIFYD], env={"LD_TRACE_LOADED_OBJECTS": "1"}, capture_output=True, text=True, check=True
    ).stdout
    libraries = [line.split()[0] for line in listing.splitlines() if ".so" in line]
    names = [os.path.basename(name) for name in libraries]
    mimalloc = next(i for i, name in enumerate(names) if name.startswith("libmimalloc.so"))
    libc = next(i for i, name in enumerate(names) if name.startswith("libc.so"))
    assert mimalloc < libc, names
