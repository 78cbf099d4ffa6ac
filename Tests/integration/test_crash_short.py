"""The faults of Tests/stress/crash.py in their short form: kill -9 under load loses no acknowledged decision,
SIGSTOP/SIGCONT delays but answers, a read-only state directory is refused at start, a full one refuses writes."""
import os
import shutil
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "stress"))
import crash  # noqa: E402


def test_kill_9_under_load_loses_no_acknowledged_decision():
    results, alive = crash.kill_rounds(3, clients=3, devices_per_client=4, seed=11, min_s=0.2, max_s=0.8)
    assert alive
    assert sum(r["acked"] for r in results) > 0
    for r in results:
        assert r["lost"] == 0, r
        assert r["wrong_states"] == 0, r
        assert r["wrong_replies"] == 0, r


def test_a_stopped_daemon_answers_after_sigcont():
    r = crash.stop_cont(clients=4, stopped_s=1.0)
    assert r["answered_while_stopped"] == 0
    assert r["answered_after_cont"] == r["clients"]
    assert r["alive"]


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"), reason="needs root for a private mount namespace")
def test_a_read_only_state_directory_is_refused_at_start_with_a_clear_message():
    r = crash.readonly_at_start()
    assert r["status"] == 1
    assert "not writable" in r["message"]
    assert "--state-dir" in r["message"]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to mount a small tmpfs as the state directory")
@pytest.mark.sqlite_only
def test_a_full_state_directory_answers_state_not_saved_and_keeps_what_it_acknowledged(make_daemon):
    from conftest import fill_until_refused, full_state_directory

    with full_state_directory(make_daemon()) as d:
        acknowledged, refused = fill_until_refused(d, 20)
        assert acknowledged, "nothing fitted in the state directory"
        assert len(refused) == 20, "the state directory never filled up"
        # Dry runs need no disk and are still answered; so is everything acknowledged before the disk filled.
        assert d.alive_and_answering()
        for i, decision_id in acknowledged[-50:]:
            reply = d.call("io.notifyd.Router.GetDecision", {"id": decision_id})
            assert reply["parameters"]["decision"]["device"] == f"full-{i}", reply
            state = d.call("io.notifyd.Router.GetState", {"device": f"full-{i}"})
            assert state["parameters"]["state"]["stacks"]["cart"][-1]["arguments"]["id"].startswith(f"FULL{i}-")
        # A refused decision left no state behind.
        state = d.call("io.notifyd.Router.GetState", {"device": f"full-{refused[0]}"})
        assert state["parameters"]["state"] is None, state
        stats = d.call("io.notifyd.Router.GetStats")["parameters"]["stats"]
        assert stats["storeFailures"] >= 20
